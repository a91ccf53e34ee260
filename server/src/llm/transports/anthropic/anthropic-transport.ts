/**
 * The Anthropic transport (SPEC §7): one Messages API request per call through the official
 * SDK, with the SDK's own retries switched off (`maxRetries: 0`) — the resilient client
 * retries instead, so that every HTTP request is visible, timed and recorded.
 *
 * Failures it calls retryable: 429, 500, 502, 503, 504, 529 (with their `retry-after` /
 * `retry-after-ms`), an `overloaded_error` / `rate_limit_error` / `api_error` event inside a
 * stream, and connection failures (refused, reset, or cut off mid-stream — also a stream
 * that ends before `message_stop`). Any other 4xx is not, nor is a response carrying
 * `x-should-retry: false`.
 */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { silentLogger, type Logger } from '../../../core/ports';
import { LlmError, zeroUsage, type LlmStopReason } from '../../llm-client';
import { isNetworkFailure } from '../../network-failure';
import { retryAfterFromHeaders } from '../../retry-after';
import type { LlmTransport, TransportFailure, TransportStreamEvent } from '../../transport';
import { asRecord, fromMessage, mergeUsage, parseToolInput, toMessageParams, toStopReason } from './anthropic-messages';

export interface AnthropicTransportOptions {
  apiKey: string;
  /** The API root (`ANTHROPIC_BASE_URL`); the SDK's default when absent. */
  baseURL?: string;
  logger?: Logger;
}

const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

/** What an SDK error means, in neutral terms. */
export function classifyAnthropicError(error: unknown): TransportFailure {
  // Order matters: a timeout and a connection failure are both APIConnectionErrors.
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout', retryable: false };
  if (error instanceof APIUserAbortError) return { kind: 'aborted', retryable: false };
  if (error instanceof APIConnectionError) return { kind: 'connection', retryable: true };
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : null;
    const type = error.type;
    if (status === null) {
      // An `error` event inside a 200 stream: only the body's type says what happened.
      if (type === 'overloaded_error') return { kind: 'overloaded', retryable: true };
      if (type === 'rate_limit_error') return { kind: 'rate_limited', retryable: true };
      if (type === 'api_error') return { kind: 'server_error', retryable: true };
      return { kind: 'bad_response', retryable: false };
    }
    const shouldRetryHeader = error.headers?.get('x-should-retry') ?? null;
    const retryable = retryableStatuses.has(status) && shouldRetryHeader !== 'false';
    const retryAfterMs = retryAfterFromHeaders(error.headers);
    if (status === 429) return { kind: 'rate_limited', retryable, status, retryAfterMs };
    if (status === 529 || type === 'overloaded_error') return { kind: 'overloaded', retryable, status, retryAfterMs };
    if (status >= 500) return { kind: 'server_error', retryable, status, retryAfterMs };
    return { kind: 'request_rejected', retryable: false, status };
  }
  // The connection dropped after the headers (undici: "terminated", caused by a SocketError).
  if (isNetworkFailure(error)) return { kind: 'connection', retryable: true };
  // Broken JSON in a stream, events out of order, "request ended without sending any chunks".
  return { kind: 'bad_response', retryable: false };
}

/** Creates the transport for the Anthropic Messages API. */
export function createAnthropicTransport(options: AnthropicTransportOptions): LlmTransport {
  const logger = options.logger ?? silentLogger;
  const sdk = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    // The SDK's own log lines (deprecation warnings and the like) go to our logger.
    logger: {
      error: (message: string, ...details: unknown[]) => logger.error({ details }, `anthropic sdk: ${message}`),
      warn: (message: string, ...details: unknown[]) => logger.warn({ details }, `anthropic sdk: ${message}`),
      info: (message: string, ...details: unknown[]) => logger.info({ details }, `anthropic sdk: ${message}`),
      debug: (message: string, ...details: unknown[]) => logger.debug({ details }, `anthropic sdk: ${message}`),
    },
  });
  // The client's timer fires first; the SDK's own (armed until headers arrive) is a backstop.
  const sdkTimeout = (timeoutMs: number): number => timeoutMs + 1000;

  return {
    provider: 'anthropic',

    async send(request, { signal, timeoutMs }) {
      return fromMessage(await sdk.messages.create(toMessageParams(request), { signal, timeout: sdkTimeout(timeoutMs) }));
    },

    async *stream(request, { signal, timeoutMs }): AsyncGenerator<TransportStreamEvent> {
      const sdkStream = sdk.messages.stream(toMessageParams(request), { signal, timeout: sdkTimeout(timeoutMs) });
      let usage = zeroUsage;
      let stopReason: LlmStopReason = 'other';
      let stopped = false;
      let finished = false;
      const toolInputs = new Map<number, { id: string; name: string; json: string; initial: Record<string, unknown> }>();
      try {
        for await (const event of sdkStream as AsyncIterable<RawMessageStreamEvent>) {
          switch (event.type) {
            case 'message_start':
              usage = mergeUsage(usage, event.message.usage);
              yield { type: 'usage', usage };
              break;
            case 'content_block_start':
              if (event.content_block.type === 'tool_use') {
                const block = event.content_block;
                toolInputs.set(event.index, { id: block.id, name: block.name, json: '', initial: asRecord(block.input) });
              }
              yield { type: 'progress' };
              break;
            case 'content_block_delta':
              if (event.delta.type === 'text_delta' && event.delta.text) {
                yield { type: 'text_delta', text: event.delta.text };
                break;
              }
              if (event.delta.type === 'input_json_delta') {
                const tool = toolInputs.get(event.index);
                if (tool) tool.json += event.delta.partial_json;
              }
              yield { type: 'progress' };
              break;
            case 'content_block_stop': {
              const tool = toolInputs.get(event.index);
              if (tool) {
                toolInputs.delete(event.index);
                yield { type: 'tool_use', id: tool.id, name: tool.name, input: parseToolInput(tool.json, tool.initial, logger, tool.name) };
              } else {
                yield { type: 'progress' };
              }
              break;
            }
            case 'message_delta':
              stopReason = toStopReason(event.delta.stop_reason);
              usage = mergeUsage(usage, event.usage);
              yield { type: 'usage', usage };
              break;
            case 'message_stop':
              stopped = true;
              yield { type: 'progress' };
              break;
            default:
              yield { type: 'progress' };
              break;
          }
        }
        // The SDK's iterator ends quietly on an error or abort nobody was waiting for; this surfaces it.
        await sdkStream.done();
        if (signal.aborted) throw new APIUserAbortError();
        // A stream cut short without a transport error (a proxy closing early): as retryable as a dropped connection.
        if (!stopped) throw new LlmError('connection', 'The stream ended before message_stop.');
        finished = true;
        yield { type: 'done', usage, stopReason };
      } finally {
        // Failed, or the client stopped reading: cancel the request on the wire.
        if (!finished) sdkStream.abort();
      }
    },

    classifyError: classifyAnthropicError,
  };
}
