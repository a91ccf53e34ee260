/**
 * The OpenAI-compatible transport (SPEC §7): one Chat Completions request per call through
 * the official `openai` SDK, against OpenAI or any compatible server (`OPENAI_BASE_URL`),
 * with the SDK's own retries switched off (`maxRetries: 0`) — the resilient client retries
 * instead, so that every HTTP request is visible, timed and recorded.
 *
 * Streaming asks for `stream_options: {include_usage: true}` (the usage arrives in a last
 * chunk with no choices). Text is passed on as it arrives; tool calls arrive in pieces keyed
 * by `index` (id and name first, then the arguments JSON in fragments) and are passed on, in
 * index order, once the choice's `finish_reason` says they are complete. A stream that ends
 * without a `finish_reason` was cut short and counts as a dropped connection.
 *
 * Failures it calls retryable: 429, 500, 502, 503, 504, 529 (with their `retry-after` /
 * `retry-after-ms`), an error object inside a stream whose type says rate limit, overload or
 * server error, and connection failures. Any other 4xx is not, nor is a response carrying
 * `x-should-retry: false`, nor a response that is not valid JSON.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { silentLogger, type Logger } from '../../../core/ports';
import { LlmError, zeroUsage, type LlmStopReason } from '../../llm-client';
import { isNetworkFailure } from '../../network-failure';
import { retryAfterFromHeaders } from '../../retry-after';
import type { LlmTransport, TransportFailure, TransportStreamEvent } from '../../transport';
import { fromCompletion, newToolCallId, parseToolArguments, structuredAnswer, structuredOutputTool, toChatParams, toStopReason, toUsage } from './openai-chat';

export interface OpenAiTransportOptions {
  /** `OPENAI_API_KEY`; any value for a server that needs none (Ollama ignores it). */
  apiKey: string;
  /** The API root, `/v1` included (`OPENAI_BASE_URL`); OpenAI's when absent. */
  baseURL?: string;
  logger?: Logger;
}

const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

/** What an error object sent inside a 200 stream means: only its type (or code) says. */
function classifyStreamedError(error: APIError): TransportFailure {
  const label = `${String(error.type ?? '')} ${String(error.code ?? '')}`.toLowerCase();
  if (/rate.?limit|\b429\b/.test(label)) return { kind: 'rate_limited', retryable: true };
  if (/overload|\b529\b|\b503\b/.test(label)) return { kind: 'overloaded', retryable: true };
  if (/server.?error|internal|api.?error|\b5\d\d\b/.test(label)) return { kind: 'server_error', retryable: true };
  return { kind: 'bad_response', retryable: false };
}

/** What an SDK error means, in neutral terms. */
export function classifyOpenAiError(error: unknown): TransportFailure {
  // Order matters: timeouts, aborts and connection failures are all APIErrors without a status.
  if (error instanceof APIConnectionTimeoutError) return { kind: 'timeout', retryable: false };
  if (error instanceof APIUserAbortError) return { kind: 'aborted', retryable: false };
  if (error instanceof APIConnectionError) return { kind: 'connection', retryable: true };
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : null;
    if (status === null) return classifyStreamedError(error);
    const shouldRetryHeader = error.headers?.get('x-should-retry') ?? null;
    const retryable = retryableStatuses.has(status) && shouldRetryHeader !== 'false';
    const retryAfterMs = retryAfterFromHeaders(error.headers);
    if (status === 429) return { kind: 'rate_limited', retryable, status, retryAfterMs };
    if (status === 529) return { kind: 'overloaded', retryable, status, retryAfterMs };
    if (status >= 500) return { kind: 'server_error', retryable, status, retryAfterMs };
    return { kind: 'request_rejected', retryable: false, status };
  }
  // The connection dropped after the headers (undici: "terminated", caused by a SocketError).
  if (isNetworkFailure(error)) return { kind: 'connection', retryable: true };
  // A body or an SSE line that is not JSON, a response without choices.
  return { kind: 'bad_response', retryable: false };
}

/** Creates the transport for an OpenAI-compatible Chat Completions API. */
export function createOpenAiTransport(options: OpenAiTransportOptions): LlmTransport {
  const logger = options.logger ?? silentLogger;
  const sdk = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    // The SDK's own log lines (a chunk it could not parse, deprecations) go to our logger.
    logger: {
      error: (message: string, ...details: unknown[]) => logger.error({ details }, `openai sdk: ${message}`),
      warn: (message: string, ...details: unknown[]) => logger.warn({ details }, `openai sdk: ${message}`),
      info: (message: string, ...details: unknown[]) => logger.info({ details }, `openai sdk: ${message}`),
      debug: (message: string, ...details: unknown[]) => logger.debug({ details }, `openai sdk: ${message}`),
    },
  });
  // The client's timer fires first; the SDK's own (armed until headers arrive) is a backstop.
  const sdkTimeout = (timeoutMs: number): number => timeoutMs + 1000;

  return {
    provider: 'openai',

    async send(request, { signal, timeoutMs }) {
      const completion = await sdk.chat.completions.create(toChatParams(request), { signal, timeout: sdkTimeout(timeoutMs) });
      return fromCompletion(completion, request, logger);
    },

    async *stream(request, { signal, timeoutMs }): AsyncGenerator<TransportStreamEvent> {
      const structured = structuredOutputTool(request);
      const sdkStream = await sdk.chat.completions.create(
        { ...toChatParams(request), stream: true, stream_options: { include_usage: true } },
        { signal, timeout: sdkTimeout(timeoutMs) },
      );
      let usage = zeroUsage;
      let stopReason: LlmStopReason = 'other';
      let finishSeen = false;
      let refused = false;
      let finished = false;
      let structuredText = '';
      let responseId = '';
      const toolCalls = new Map<number, { id: string; name: string; json: string }>();
      try {
        for await (const chunk of sdkStream as AsyncIterable<ChatCompletionChunk>) {
          if (chunk.id) responseId = chunk.id;
          if (chunk.usage) {
            usage = toUsage(chunk.usage);
            yield { type: 'usage', usage };
          }
          const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
          if (!choice) {
            if (!chunk.usage) yield { type: 'progress' };
            continue;
          }
          const delta = choice.delta ?? {};
          let yielded = false;
          if (delta.refusal) refused = true;
          if (delta.content) {
            if (structured) {
              structuredText += delta.content;
            } else {
              yield { type: 'text_delta', text: delta.content };
              yielded = true;
            }
          }
          for (const piece of delta.tool_calls ?? []) {
            const call = toolCalls.get(piece.index) ?? { id: '', name: '', json: '' };
            if (piece.id) call.id = piece.id;
            // The name comes once, with the id; a server that repeats it must not double it.
            if (piece.function?.name && !call.name) call.name = piece.function.name;
            if (piece.function?.arguments) call.json += piece.function.arguments;
            toolCalls.set(piece.index, call);
          }
          if (choice.finish_reason) {
            finishSeen = true;
            stopReason = refused ? 'refusal' : toStopReason(choice.finish_reason);
            for (const index of [...toolCalls.keys()].sort((a, b) => a - b)) {
              const call = toolCalls.get(index)!;
              toolCalls.delete(index);
              yield { type: 'tool_use', id: call.id || newToolCallId(), name: call.name, input: parseToolArguments(call.json, logger, call.name) };
              yielded = true;
            }
          }
          if (!yielded) yield { type: 'progress' };
        }
        // The SDK's iterator ends quietly when the request is aborted; this surfaces it.
        if (signal.aborted) throw new APIUserAbortError();
        // Cut short without a transport error (a proxy closing early): as retryable as a dropped connection.
        if (!finishSeen) throw new LlmError('connection', 'The stream ended before a finish_reason.');
        if (structured) {
          for (const block of structuredAnswer(structured, structuredText, `call_${responseId || newToolCallId()}`)) {
            if (block.type === 'tool_use') {
              if (stopReason === 'end_turn') stopReason = 'tool_use';
              yield block;
            } else {
              yield { type: 'text_delta', text: block.text };
            }
          }
        }
        finished = true;
        yield { type: 'done', usage, stopReason };
      } finally {
        // Failed, or the client stopped reading: cancel the request on the wire.
        if (!finished) sdkStream.controller.abort();
      }
    },

    classifyError: classifyOpenAiError,
  };
}
