/**
 * The fake LLM behind the benchmark: a TutorProvider (SPEC §7 port) with a latency profile
 * and no network. It records, per learner turn, when the server called each model and when
 * each piece of the reply became available, so the bench can subtract model time exactly.
 *
 * - Evaluator and safety gate sleep for their latency (the server runs them in parallel).
 * - The tutor streams `replyChunks` on an absolute schedule (first token after
 *   `firstTokenMs`, then one chunk every `deltaIntervalMs`), like a real stream that keeps
 *   arriving while the server is busy: server time spent on one chunk hides behind the wait
 *   for the next, and only what is left after the last chunk shows up as overhead.
 * - The evaluator recalls the first unchecked point every `recallEvery`-th learner turn of a
 *   session, so the FSRS transaction runs, but a 10-point session never completes mid-run.
 *
 * Turns are keyed by the learner's message text (the bench makes each one unique), because
 * `checkSafety` receives only the text.
 */
import type { ConversationMessage, EvaluationInput, EvaluationResult, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../../server/src/core/provider';
import { epochNow } from './clock';

export const latencyProfileNames = ['zero', 'realistic'] as const;
export type LatencyProfileName = (typeof latencyProfileNames)[number];

export interface LatencyProfile {
  name: LatencyProfileName;
  evaluatorMs: number;
  safetyMs: number;
  firstTokenMs: number;
  deltaIntervalMs: number;
}

export const latencyProfiles: Record<LatencyProfileName, LatencyProfile> = {
  zero: { name: 'zero', evaluatorMs: 0, safetyMs: 0, firstTokenMs: 0, deltaIntervalMs: 0 },
  // Haiku evaluator ~600 ms, Haiku safety gate ~300 ms (in parallel), Sonnet first token ~400 ms.
  realistic: { name: 'realistic', evaluatorMs: 600, safetyMs: 300, firstTokenMs: 400, deltaIntervalMs: 25 },
};

/** The tutor's reply, as a model streams it: a few words per delta, no leak patterns. */
export const replyChunks = ['Good', ' — that is', ' the heart', ' of it. Now,', ' what drives', ' the protons', ' back across', ' the membrane?'] as const;

/** Model time of one learner turn as the profile schedules it (timers may fire a little later). */
export function nominalModelTime(profile: LatencyProfile): { firstTokenMs: number; totalMs: number } {
  const evaluationPhase = Math.max(profile.evaluatorMs, profile.safetyMs);
  const firstTokenMs = evaluationPhase + profile.firstTokenMs;
  return { firstTokenMs, totalMs: firstTokenMs + (replyChunks.length - 1) * profile.deltaIntervalMs };
}

/** What the fake saw of one learner turn; epoch milliseconds in the server process's clock. */
export interface TurnTiming {
  /** The learner's message text. */
  key: string;
  sessionId: string | null;
  turn: number | null;
  evaluationStartedAt: number | null;
  evaluationEndedAt: number | null;
  safetyStartedAt: number | null;
  safetyEndedAt: number | null;
  replyStartedAt: number | null;
  /** When the first chunk was available to the server (its timer fired, or its time had passed). */
  firstChunkAvailableAt: number | null;
  lastChunkAvailableAt: number | null;
  /** Every chunk's availability, in order. */
  chunkAvailableAt: number[];
  /** When the server asked for more after the last chunk (the generator returned). */
  replyEndedAt: number | null;
}

export interface BenchProvider extends TutorProvider {
  setProfile(profile: LatencyProfile): void;
  /** The recorded turns since the last call; clears them. */
  takeTimings(): TurnTiming[];
}

export const recallEvery = 3;

function waitUntil(at: number, signal: AbortSignal): Promise<void> {
  const delay = at - epochNow();
  if (delay <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    // Listeners are removed on every path: a room reuses its AbortSignal across turns.
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, delay);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function latestLearnerText(messages: readonly ConversationMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== 'tutor') return message.content;
  }
  return '';
}

export function createBenchProvider(initial: LatencyProfile): BenchProvider {
  let profile = initial;
  let timings = new Map<string, TurnTiming>();
  const evaluationsBySession = new Map<string, number>();

  const timingFor = (key: string): TurnTiming => {
    let timing = timings.get(key);
    if (!timing) {
      timing = {
        key,
        sessionId: null,
        turn: null,
        evaluationStartedAt: null,
        evaluationEndedAt: null,
        safetyStartedAt: null,
        safetyEndedAt: null,
        replyStartedAt: null,
        firstChunkAvailableAt: null,
        lastChunkAvailableAt: null,
        chunkAvailableAt: [],
        replyEndedAt: null,
      };
      timings.set(key, timing);
    }
    return timing;
  };

  return {
    name: 'offline',
    // The benchmark measures recall turns; with no `models`, learning and thought sessions run their offline tutor and partner.
    setProfile(next) {
      profile = next;
    },
    takeTimings() {
      const taken = [...timings.values()];
      timings = new Map();
      return taken;
    },

    async evaluate(input: EvaluationInput, signal: AbortSignal): Promise<EvaluationResult> {
      const timing = timingFor(latestLearnerText(input.recentMessages));
      timing.sessionId = input.sessionId ?? null;
      timing.evaluationStartedAt = epochNow();
      await waitUntil(timing.evaluationStartedAt + profile.evaluatorMs, signal);
      timing.evaluationEndedAt = epochNow();
      const sessionKey = input.sessionId ?? '';
      const count = (evaluationsBySession.get(sessionKey) ?? 0) + 1;
      evaluationsBySession.set(sessionKey, count);
      const point = count % recallEvery === 0 ? input.points[0] : undefined;
      return point
        ? { recalledPoints: [{ id: point.id, confidence: 0.85, observation: 'Stated the idea in their own words.' }], feedback: 'One point recalled accurately; cue the next one.' }
        : { recalledPoints: [], feedback: 'Nothing recalled yet; cue the current point from another angle.' };
    },

    async *reply(input: TutorInput, signal: AbortSignal): AsyncGenerator<TutorEvent> {
      const timing = input.trigger === 'session_start' ? null : timingFor(latestLearnerText(input.conversation));
      const startedAt = epochNow();
      if (timing) {
        timing.turn = input.turn;
        timing.replyStartedAt = startedAt;
      }
      for (const [index, text] of replyChunks.entries()) {
        const scheduled = startedAt + profile.firstTokenMs + index * profile.deltaIntervalMs;
        const before = epochNow();
        await waitUntil(scheduled, signal);
        // A chunk whose time had already passed was waiting in the buffer since `scheduled`.
        const availableAt = before >= scheduled ? Math.max(scheduled, startedAt) : epochNow();
        if (timing) {
          if (index === 0) timing.firstChunkAvailableAt = availableAt;
          timing.lastChunkAvailableAt = availableAt;
          timing.chunkAvailableAt.push(availableAt);
        }
        yield { type: 'text_delta', text };
      }
      if (timing) timing.replyEndedAt = epochNow();
    },

    async checkSafety(message: string, signal: AbortSignal): Promise<SafetyVerdict> {
      const timing = timingFor(message);
      timing.safetyStartedAt = epochNow();
      await waitUntil(timing.safetyStartedAt + profile.safetyMs, signal);
      timing.safetyEndedAt = epochNow();
      return { safe: true };
    },
  };
}
