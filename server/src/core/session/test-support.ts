/**
 * Test doubles for the engine's ports, in the manner of tldraw's sync-core tests: rooms run on
 * the in-memory storage with a fixed clock, seeded ids and a recording fake tutor — no server,
 * no database file. Only tests import this file.
 */
import type { ServerEvent } from '@tutorloop/shared';
import type { Clock, IdGenerator } from '../ports';
import type { EvaluationInput, RawEvaluation, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../provider';

/** A clock that stands still until a test moves it. */
export function fixedClock(start = new Date('2026-03-02T09:00:00.000Z')): Clock & { advance(milliseconds: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(milliseconds) {
      now += milliseconds;
    },
  };
}

/** Ids `id-1`, `id-2`, … in order. */
export function seededIds(prefix = 'id'): IdGenerator {
  let counter = 0;
  return { next: () => `${prefix}-${(counter += 1)}` };
}

/** A fake tutor that replays scripted answers and records every input it was given. */
export interface RecordingProvider extends TutorProvider {
  readonly evaluations: EvaluationInput[];
  readonly replies: TutorInput[];
  readonly safetyChecks: string[];
  /** The next replies, one list of events each; an empty queue replies "Go on." */
  readonly scriptedReplies: Array<TutorEvent[] | Error>;
  /** The next evaluator answers; an empty queue answers nothing recalled. */
  readonly scriptedEvaluations: Array<RawEvaluation | Error>;
  /** The next safety verdicts; an empty queue answers safe. */
  readonly scriptedSafety: SafetyVerdict[];
}

export function recordingProvider(): RecordingProvider {
  const provider: RecordingProvider = {
    name: 'offline',
    evaluations: [],
    replies: [],
    safetyChecks: [],
    scriptedReplies: [],
    scriptedEvaluations: [],
    scriptedSafety: [],
    async evaluate(input) {
      provider.evaluations.push(structuredClone(input));
      const next = provider.scriptedEvaluations.shift() ?? { recalledPoints: [], feedback: '' };
      if (next instanceof Error) throw next;
      return next;
    },
    async *reply(input) {
      provider.replies.push(structuredClone(input));
      const next = provider.scriptedReplies.shift() ?? [{ type: 'text_delta', text: 'Go on.' }];
      if (next instanceof Error) throw next;
      for (const event of next) yield event;
    },
    async checkSafety(message) {
      provider.safetyChecks.push(message);
      return provider.scriptedSafety.shift() ?? { safe: true };
    },
  };
  return provider;
}

/** A listener that keeps every event it hears. */
export function recordingListener(): { events: ServerEvent[]; listener: (event: ServerEvent) => void; types(): string[] } {
  const events: ServerEvent[] = [];
  return { events, listener: (event) => events.push(event), types: () => events.map((event) => event.type) };
}
