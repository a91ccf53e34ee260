/**
 * A vendor transport: the small per-vendor part of the LLM layer, wrapped by the resilient
 * client (`resilient-client.ts`), which owns retries, timeouts, cancellation and recording.
 * A transport makes exactly one request per call and says, in vendor-neutral terms, what
 * a failure means. It lives in `transports/<vendor>/`, the only place its SDK is imported.
 */
import type { ProviderName } from '@tutorloop/shared';
import type { LlmErrorKind, LlmRequest, LlmResponse, LlmStreamEvent, LlmUsage } from './llm-client';

/** Per-request options the resilient client passes to its transport. */
export interface TransportCallOptions {
  /**
   * Aborts on the caller's cancellation and on the client's timeout. The transport must
   * pass it to its SDK so that an abort cancels the request on the wire.
   */
  signal: AbortSignal;
  /**
   * The client's progress budget in ms (see `ResilientClientOptions.timeoutMs`). The client
   * enforces it; a transport may give its SDK a slightly longer timer as a backstop.
   */
  timeoutMs: number;
}

/**
 * What a transport's stream yields: the port's events plus two that only the client sees.
 * Every vendor event should produce one event here (a `progress` when nothing else fits),
 * because the client's silence timer restarts on each.
 */
export type TransportStreamEvent =
  /** Text, a complete tool call, or — last, once the vendor confirmed the end — `done`. */
  | LlmStreamEvent
  /** The token counts reported so far (cumulative), recorded if the stream fails later. */
  | { type: 'usage'; usage: LlmUsage }
  /** The vendor sent something that carries nothing for the caller (a ping, a piece of tool JSON). */
  | { type: 'progress' };

/** A failed request in vendor-neutral terms: what the retry loop needs to know. */
export interface TransportFailure {
  /**
   * What went wrong. `aborted` for the SDK's own "user abort", `timeout` for the SDK's own
   * timer; the client recognises its own cancellation and timeout before asking.
   */
  kind: LlmErrorKind;
  /** Worth another attempt: rate limits, overload, 5xx, a dropped connection. */
  retryable: boolean;
  /** HTTP status, when the API answered with one. */
  status?: number | null;
  /** How long the API asked us to wait before another attempt (`retry-after`), in ms. */
  retryAfterMs?: number | null;
}

/** One vendor's API, one request at a time. */
export interface LlmTransport {
  /** Recorded with every call (`llm_calls.provider`). */
  readonly provider: ProviderName;
  /** Sends one non-streamed request. Rejects with whatever the SDK throws. */
  send(request: LlmRequest, options: TransportCallOptions): Promise<LlmResponse>;
  /**
   * Streams one request. Ends with a `done` event only when the vendor confirmed a complete
   * response; otherwise it throws. Stopping the iteration early must cancel the request.
   */
  stream(request: LlmRequest, options: TransportCallOptions): AsyncIterable<TransportStreamEvent>;
  /**
   * Maps anything `send` or `stream` threw (other than an `LlmError`, which the client
   * takes as it is) to a neutral failure.
   */
  classifyError(error: unknown): TransportFailure;
}
