/**
 * The resilient client (SPEC §7): the `LlmClient` port over any vendor's `LlmTransport`.
 * The transport makes one request at a time and classifies its failures; everything about
 * retrying, timing, cancelling and recording lives here, once for every vendor.
 *
 * - Retries: a failure the transport calls retryable (429, 5xx, overload, a dropped
 *   connection) is retried, up to `maxAttempts` requests per logical call, with exponential
 *   backoff and jitter, or after the server's `retry-after` when it sent one (both capped at
 *   `retryMaxDelayMs`). Anything else is thrown at once. A stream is retried only while
 *   nothing of it has reached the caller (text already shown cannot be taken back).
 * - Timeout: `timeoutMs` is the longest a call may go without progress. A non-streamed call
 *   must complete within it; a stream must start within it and never fall silent for longer.
 *   A timed-out call is not retried (the session would otherwise wait attempts × timeout);
 *   set `retryTimeouts` to change that.
 * - Cancellation: the caller's signal and the timeout are combined per request (an
 *   AbortController fed by both, listeners removed afterwards, so a long-lived session signal
 *   collects nothing); an abort rejects at once, also during a backoff pause.
 * - Recording: the recorder receives one record per request (attempt), success or not, with
 *   the tokens the API reported — so a 429 followed by a success is two rows.
 */
import { silentLogger, type Logger } from '../core/ports';
import {
  LlmError,
  zeroUsage,
  type LlmCallOutcome,
  type LlmCallRecord,
  type LlmCallRecorder,
  type LlmClient,
  type LlmErrorKind,
  type LlmRequest,
  type LlmStreamEvent,
  type LlmUsage,
} from './llm-client';
import type { LlmTransport } from './transport';

export interface ResilientClientOptions {
  transport: LlmTransport;
  /** Longest a call may go without progress, in ms (see the file comment). Default 60 000. */
  timeoutMs?: number;
  /** Requests per logical call, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff pause, in ms; doubles per retry. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest pause between attempts, `retry-after` included, in ms. Default 10 000. */
  retryMaxDelayMs?: number;
  /** Also retry a request that timed out. Default false. */
  retryTimeouts?: boolean;
  /** Receives one record per request; exceptions it throws are logged and ignored. */
  recordCall?: LlmCallRecorder;
  logger?: Logger;
  /** Random source in [0, 1) for the jitter. */
  random?: () => number;
  /** Monotonic milliseconds, for latencies. */
  now?: () => number;
  /** Wall clock, for `startedAt`. */
  clock?: () => Date;
}

/** The kinds worth another attempt when a transport throws an `LlmError` of its own. */
const retryableKinds: ReadonlySet<LlmErrorKind> = new Set(['rate_limited', 'overloaded', 'server_error', 'connection']);

/** A failure with what the retry loop needs to know about it. */
interface ClassifiedError {
  error: LlmError;
  outcome: Exclude<LlmCallOutcome, 'ok'>;
  retryable: boolean;
  retryAfterMs: number | null;
}

/** The per-request signal: the caller's signal plus a (resettable) timeout. */
interface RequestGuard {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  /** Restarts the timeout (progress was made). */
  touch(): void;
  /** Stops the timeout while the caller holds a yielded event. */
  pause(): void;
  dispose(): void;
}

function timeoutMessage(timeoutMs: number): string {
  return `The model call timed out after ${timeoutMs} ms.`;
}

function guardRequest(parent: AbortSignal, timeoutMs: number): RequestGuard {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = (): void => controller.abort(parent.reason);
  const arm = (): void => {
    clearTimeout(timer);
    if (controller.signal.aborted) return;
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new LlmError('timeout', timeoutMessage(timeoutMs)));
    }, timeoutMs);
  };
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    touch: arm,
    pause: () => clearTimeout(timer),
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

function abortedError(attempts: number, cause?: unknown): LlmError {
  return new LlmError('aborted', 'The model call was cancelled.', { attempts, cause });
}

/** Sleeps `ms`, or rejects with an `aborted` LlmError as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal, attempts: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortedError(attempts, signal.reason));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(attempts, signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function outcomeOf(kind: LlmErrorKind): ClassifiedError['outcome'] {
  return kind === 'aborted' ? 'aborted' : kind === 'timeout' ? 'timeout' : 'error';
}

/** Creates the `LlmClient` that retries, times, cancels and records the requests of `transport`. */
export function createResilientClient(options: ResilientClientOptions): LlmClient {
  const { transport } = options;
  const timeoutMs = Math.max(1, Math.ceil(options.timeoutMs ?? 60_000));
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
  const baseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 500);
  const maxDelayMs = Math.max(0, options.retryMaxDelayMs ?? 10_000);
  const retryTimeouts = options.retryTimeouts ?? false;
  const logger = options.logger ?? silentLogger;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => performance.now());
  const clock = options.clock ?? (() => new Date());

  /** Maps anything a request threw to our error, its outcome and whether to retry it. */
  function classify(error: unknown, guard: RequestGuard, parent: AbortSignal, attempt: number): ClassifiedError {
    const timeout = (cause: unknown): ClassifiedError => ({
      error: new LlmError('timeout', timeoutMessage(timeoutMs), { attempts: attempt, cause }),
      outcome: 'timeout',
      retryable: retryTimeouts,
      retryAfterMs: null,
    });
    // Order matters: our own abort and timeout reach the transport as its SDK's "user abort".
    if (parent.aborted) return { error: abortedError(attempt, error), outcome: 'aborted', retryable: false, retryAfterMs: null };
    if (guard.timedOut) return timeout(error);
    if (error instanceof LlmError) {
      // The transport's own verdict (e.g. a stream that ended too early), counted as this attempt.
      const own = new LlmError(error.kind, error.message, { status: error.status, attempts: attempt, cause: error });
      return { error: own, outcome: outcomeOf(error.kind), retryable: retryableKinds.has(error.kind), retryAfterMs: null };
    }
    const failure = transport.classifyError(error);
    if (failure.kind === 'aborted') return { error: abortedError(attempt, error), outcome: 'aborted', retryable: false, retryAfterMs: null };
    if (failure.kind === 'timeout') return timeout(error);
    return {
      error: new LlmError(failure.kind, describe(error), { status: failure.status ?? null, attempts: attempt, cause: error }),
      outcome: 'error',
      retryable: failure.retryable,
      retryAfterMs: failure.retryAfterMs ?? null,
    };
  }

  function record(request: LlmRequest, fields: Omit<LlmCallRecord, 'purpose' | 'sessionId' | 'provider' | 'model' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> & { usage: LlmUsage }): void {
    const { usage, ...rest } = fields;
    const entry: LlmCallRecord = {
      purpose: request.purpose,
      sessionId: request.sessionId ?? null,
      ...(request.learnerId ? { learnerId: request.learnerId } : {}),
      provider: transport.provider,
      model: request.model,
      ...usage,
      ...rest,
    };
    try {
      options.recordCall?.(entry);
    } catch (error) {
      logger.warn({ err: error, purpose: request.purpose }, 'recording an llm call failed');
    }
  }

  function backoffMs(attempt: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, maxDelayMs);
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    // "Equal jitter": at least half the exponential step, so retries of many sessions spread out.
    return ceiling / 2 + random() * (ceiling / 2);
  }

  /** After a failed attempt: throws when it must not be retried, else waits out the backoff. */
  async function settleFailure(request: LlmRequest, attempt: number, failure: ClassifiedError, signal: AbortSignal, canRetry: boolean): Promise<void> {
    if (!canRetry || !failure.retryable || attempt >= maxAttempts) throw failure.error;
    const delay = backoffMs(attempt, failure.retryAfterMs);
    logger.warn(
      { purpose: request.purpose, model: request.model, attempt, kind: failure.error.kind, status: failure.error.status, delayMs: Math.round(delay) },
      'model call failed; retrying',
    );
    await pause(delay, signal, attempt);
  }

  return {
    async complete(request, signal) {
      for (let attempt = 1; ; attempt += 1) {
        if (signal.aborted) throw abortedError(attempt - 1, signal.reason);
        const guard = guardRequest(signal, timeoutMs);
        const startedAt = clock();
        const started = now();
        try {
          const response = await transport.send(request, { signal: guard.signal, timeoutMs });
          record(request, { attempt, streamed: false, usage: response.usage, latencyMs: Math.round(now() - started), outcome: 'ok', status: null, error: null, startedAt });
          return response;
        } catch (error) {
          const failure = classify(error, guard, signal, attempt);
          record(request, {
            attempt,
            streamed: false,
            usage: zeroUsage,
            latencyMs: Math.round(now() - started),
            outcome: failure.outcome,
            status: failure.error.status,
            error: failure.error.message,
            startedAt,
          });
          await settleFailure(request, attempt, failure, signal, true);
        } finally {
          guard.dispose();
        }
      }
    },

    async *stream(request, signal): AsyncGenerator<LlmStreamEvent> {
      for (let attempt = 1; ; attempt += 1) {
        if (signal.aborted) throw abortedError(attempt - 1, signal.reason);
        const guard = guardRequest(signal, timeoutMs);
        const startedAt = clock();
        const started = now();
        let usage = zeroUsage;
        let delivered = false;
        let recorded = false;
        const finish = (outcome: LlmCallOutcome, status: number | null, error: string | null): void => {
          recorded = true;
          record(request, { attempt, streamed: true, usage, latencyMs: Math.round(now() - started), outcome, status, error, startedAt });
        };
        try {
          for await (const event of transport.stream(request, { signal: guard.signal, timeoutMs })) {
            guard.touch();
            switch (event.type) {
              case 'usage':
                usage = event.usage;
                break;
              case 'progress':
                break;
              case 'text_delta':
              case 'tool_use':
                delivered = true;
                // The caller's own pace must not count against the API's silence budget.
                guard.pause();
                yield event;
                guard.touch();
                break;
              case 'done':
                usage = event.usage;
                finish('ok', null, null);
                guard.dispose();
                yield event;
                return;
              default: {
                const unreachable: never = event;
                throw new Error(`unknown transport event ${JSON.stringify(unreachable)}`);
              }
            }
          }
          // A transport must end with `done` or throw; ending quietly counts as a cut connection.
          throw new LlmError('connection', 'The stream ended without a done event.');
        } catch (error) {
          const failure = classify(error, guard, signal, attempt);
          if (!recorded) finish(failure.outcome, failure.error.status, failure.error.message);
          guard.dispose();
          await settleFailure(request, attempt, failure, signal, !delivered);
        } finally {
          guard.dispose();
          // The caller stopped reading early (break / return): leaving the loop above made the
          // transport cancel its request; log it as aborted.
          if (!recorded) finish('aborted', null, 'The caller stopped reading the stream.');
        }
      }
    },
  };
}
