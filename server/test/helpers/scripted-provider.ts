/**
 * A recording fake of the TutorProvider port for integration tests: the evaluator marks a
 * point recalled when the latest learner message contains the point's content verbatim
 * (case-insensitive); the tutor streams a scripted reply. Failures and delays are scripted.
 */
import type { EvaluationInput, EvaluationResult, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../../src/core/provider';

export interface ScriptedProvider extends TutorProvider {
  evaluations: EvaluationInput[];
  replies: TutorInput[];
  /** Makes the next N tutor calls fail. */
  failNextReplies(count: number): void;
  /** Makes the next N evaluations fail. */
  failNextEvaluations(count: number): void;
  /** Delay between streamed chunks, in ms. */
  chunkDelayMs: number;
  /** The next reply also hands the learner this widget. */
  nextWidget: Extract<TutorEvent, { type: 'widget' }>['widget'] | null;
}

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

export function createScriptedProvider(): ScriptedProvider {
  let failingReplies = 0;
  let failingEvaluations = 0;
  let widgetCounter = 0;
  const provider: ScriptedProvider = {
    name: 'offline',
    // No `models`: learning and thought sessions through a scripted provider run their types' offline tutor and partner.
    evaluations: [],
    replies: [],
    chunkDelayMs: 0,
    nextWidget: null,
    failNextReplies(count) {
      failingReplies = count;
    },
    failNextEvaluations(count) {
      failingEvaluations = count;
    },
    async evaluate(input): Promise<EvaluationResult> {
      provider.evaluations.push(structuredClone(input));
      if (failingEvaluations > 0) {
        failingEvaluations -= 1;
        throw new Error('scripted evaluator failure');
      }
      const latest = [...input.recentMessages].reverse().find((message) => message.role !== 'tutor');
      const text = latest?.content.toLowerCase() ?? '';
      const recalled = input.points.filter((point) => text.includes(point.content.toLowerCase()));
      return {
        recalledPoints: recalled.map((point) => ({ id: point.id, confidence: 0.8, observation: 'stated verbatim' })),
        feedback: recalled.length ? `SECRET-FEEDBACK recalled ${recalled.length}` : 'SECRET-FEEDBACK nothing recalled',
      };
    },
    async *reply(input, signal): AsyncIterable<TutorEvent> {
      provider.replies.push(structuredClone(input));
      if (failingReplies > 0) {
        failingReplies -= 1;
        throw new Error('scripted tutor failure');
      }
      const chunks = ['Tutor ', `reply `, `for turn ${input.turn}.`];
      for (const chunk of chunks) {
        if (provider.chunkDelayMs > 0) await abortable(provider.chunkDelayMs, signal);
        yield { type: 'text_delta', text: chunk };
      }
      if (provider.nextWidget) {
        widgetCounter += 1;
        yield { type: 'widget', toolCallId: `toolu_${widgetCounter}`, widget: provider.nextWidget };
        provider.nextWidget = null;
      }
    },
    async checkSafety(message): Promise<SafetyVerdict> {
      return message.includes('UNSAFE') ? { safe: false, reason: 'scripted' } : { safe: true };
    },
  };
  return provider;
}
