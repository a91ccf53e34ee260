/**
 * The `offline` provider (SPEC §7): the deterministic local evaluator, tutor and safety gate
 * behind the TutorProvider port, so the product runs end to end with no key and no network.
 * Every method honours its AbortSignal: an aborted call rejects (or the stream throws) with
 * the signal's reason, an `AbortError` unless the caller gave another reason. Like any
 * provider it leaves the turn's rules to the engine (session-room.ts), which normalises its
 * evaluations too. A session type that makes calls of its own keeps its offline version in its
 * folder, used when a provider has no `models`.
 */
import type { EvaluationInput, EvaluationResult, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../provider';
import { evaluateOffline } from './offline-evaluator';
import { checkSafetyOffline } from './offline-safety';
import { replyOffline } from './offline-tutor';
import { asRecallCard } from './question-answer';
import { lemmasOf } from './text-analysis';
import { wordNet } from './wordnet';

export interface OfflineProviderOptions {
  /**
   * Pause between streamed chunks, in milliseconds, so that streaming is visible in the UI.
   * 0 (the default) yields the chunks back to back.
   */
  chunkDelayMs?: number;
}

/** The error an aborted call fails with: the signal's reason if it is an Error. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error(typeof reason === 'string' ? reason : 'The operation was aborted.');
  err.name = 'AbortError';
  return err;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createOfflineProvider(options: OfflineProviderOptions = {}): TutorProvider {
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 0);
  // The lexical data (WordNet, the lemmatizer's tables) loads here, at start-up, once per
  // process — not in the learner's first turn.
  wordNet();
  lemmasOf('warming');
  return {
    name: 'offline',

    async evaluate(input: EvaluationInput, signal: AbortSignal): Promise<EvaluationResult> {
      throwIfAborted(signal);
      // A point written as "question → answer" is judged on its answer (question-answer.ts).
      return evaluateOffline({ ...input, points: input.points.map(asRecallCard) });
    },

    async *reply(input: TutorInput, signal: AbortSignal): AsyncGenerator<TutorEvent> {
      throwIfAborted(signal);
      let first = true;
      // …and cued by its question.
      const cards: TutorInput = {
        ...input,
        checklist: input.checklist.map(asRecallCard),
        probePoint: input.probePoint ? asRecallCard(input.probePoint) : null,
        justRecalled: input.justRecalled.map(asRecallCard),
      };
      for await (const event of replyOffline(cards)) {
        if (!first && chunkDelayMs > 0 && event.type === 'text_delta') await sleep(chunkDelayMs, signal);
        throwIfAborted(signal);
        first = false;
        yield event;
      }
    },

    async checkSafety(message: string, signal: AbortSignal): Promise<SafetyVerdict> {
      throwIfAborted(signal);
      return checkSafetyOffline(message);
    },
  };
}
