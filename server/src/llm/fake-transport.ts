/**
 * A fake `LlmTransport` for tests of what sits above a transport (the resilient client, the
 * model provider), in the manner of vercel/ai's mock language model: it records every call
 * and answers each from a script — a response, a stream of events, a failure, or a hang
 * until the request is cancelled. Failures carry their neutral classification, so tests say
 * directly what the vendor would have meant ("a 429 with retry-after 5 s").
 */
import type { ProviderName } from '@tutorloop/shared';
import { zeroUsage, type LlmRequest, type LlmResponse, type LlmUsage } from './llm-client';
import type { LlmTransport, TransportCallOptions, TransportFailure, TransportStreamEvent } from './transport';

/** An error the fake "API" throws; `classifyError` reads its failure back. */
export class FakeTransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message = `fake ${failure.kind}${failure.status ? ` (${failure.status})` : ''}`,
  ) {
    super(message);
    this.name = 'FakeTransportError';
  }
}

/** What the fake SDK throws when its request is cancelled (like the SDK's "user abort"). */
export class FakeAbortError extends Error {
  constructor() {
    super('Request was aborted.');
    this.name = 'FakeAbortError';
  }
}

/** What one request does. */
export type FakeStep =
  /** `send` resolves with this response. */
  | { response: LlmResponse }
  /**
   * `stream` yields these events, then ends (include a `done` for a complete response).
   * `then` decides what follows the events instead: a failure, or silence until cancelled.
   */
  | { events: TransportStreamEvent[]; then?: { fail: unknown } | 'hang' }
  /** The request fails at once. */
  | { fail: unknown }
  /** No answer until the request is cancelled (by the caller or the client's timeout). */
  | 'hang';

/** One request the fake received. */
export interface FakeTransportCall {
  method: 'send' | 'stream';
  request: LlmRequest;
  timeoutMs: number;
  signal: AbortSignal;
  /** The request was cancelled before it finished (its signal aborted, or its stream was left early). */
  cancelled: boolean;
}

export interface FakeTransport extends LlmTransport {
  readonly calls: FakeTransportCall[];
}

export interface FakeTransportOptions {
  provider?: ProviderName;
  /** One step per request, in order, or a function of the call (its index counts from 0). */
  script: FakeStep[] | ((call: FakeTransportCall, index: number) => FakeStep);
}

/** Ready-made steps and failures. */
export const fakeSteps = {
  text(text: string, usage: Partial<LlmUsage> = {}): FakeStep {
    return { response: { content: [{ type: 'text', text }], usage: { ...zeroUsage, inputTokens: 10, outputTokens: 5, ...usage }, stopReason: 'end_turn' } };
  },
  streamText(chunks: string[], usage: Partial<LlmUsage> = {}): FakeStep {
    const final = { ...zeroUsage, inputTokens: 10, outputTokens: 5, ...usage };
    return { events: [{ type: 'usage', usage: { ...final, outputTokens: 1 } }, ...chunks.map((text) => ({ type: 'text_delta' as const, text })), { type: 'done', usage: final, stopReason: 'end_turn' }] };
  },
  fail(failure: TransportFailure): FakeStep {
    return { fail: new FakeTransportError(failure) };
  },
  rateLimited(retryAfterMs: number | null = null): FakeStep {
    return fakeSteps.fail({ kind: 'rate_limited', retryable: true, status: 429, retryAfterMs });
  },
  overloaded(): FakeStep {
    return fakeSteps.fail({ kind: 'overloaded', retryable: true, status: 529 });
  },
  serverError(status = 500): FakeStep {
    return fakeSteps.fail({ kind: 'server_error', retryable: true, status });
  },
  badRequest(): FakeStep {
    return fakeSteps.fail({ kind: 'request_rejected', retryable: false, status: 400 });
  },
} as const;

/** Resolves when `signal` aborts (never otherwise), then throws the fake SDK's abort error. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) return reject(new FakeAbortError());
    signal.addEventListener('abort', () => reject(new FakeAbortError()), { once: true });
  });
}

export function createFakeTransport(options: FakeTransportOptions): FakeTransport {
  const calls: FakeTransportCall[] = [];
  const next = (call: FakeTransportCall): FakeStep => {
    const index = calls.length - 1;
    if (typeof options.script === 'function') return options.script(call, index);
    const step = options.script[index];
    if (!step) throw new Error(`fake transport: no step scripted for request ${index + 1}`);
    return step;
  };
  const begin = (method: FakeTransportCall['method'], request: LlmRequest, { signal, timeoutMs }: TransportCallOptions): FakeTransportCall => {
    const call: FakeTransportCall = { method, request, timeoutMs, signal, cancelled: false };
    calls.push(call);
    signal.addEventListener('abort', () => (call.cancelled = true), { once: true });
    return call;
  };

  return {
    provider: options.provider ?? 'anthropic',
    calls,

    async send(request, callOptions) {
      const call = begin('send', request, callOptions);
      const step = next(call);
      if (step === 'hang') return untilAborted(call.signal);
      if ('fail' in step) throw step.fail;
      if ('response' in step) return structuredClone(step.response);
      throw new Error('fake transport: a stream step was scripted for send');
    },

    async *stream(request, callOptions) {
      const call = begin('stream', request, callOptions);
      const step = next(call);
      // Open until the script has played out: leaving earlier cancels the request.
      let open = true;
      try {
        if (step === 'hang') await untilAborted(call.signal);
        else if ('response' in step) throw new Error('fake transport: a response step was scripted for stream');
        else if ('fail' in step) {
          open = false;
          throw step.fail;
        } else {
          for (const event of step.events) {
            if (call.signal.aborted) throw new FakeAbortError();
            yield structuredClone(event);
          }
          if (step.then === 'hang') await untilAborted(call.signal);
          open = false;
          if (step.then && step.then !== 'hang') throw step.then.fail;
        }
      } finally {
        if (open) call.cancelled = true;
      }
    },

    classifyError(error) {
      if (error instanceof FakeTransportError) return error.failure;
      if (error instanceof FakeAbortError) return { kind: 'aborted', retryable: false };
      return { kind: 'bad_response', retryable: false };
    },
  };
}
