/**
 * The Anthropic adapter of the LLM port (SPEC §7): the official SDK with its own retries
 * switched off (`maxRetries: 0`) and ours in their place, so that every HTTP request is
 * visible, timed and recorded.
 *
 * - Retries: 429, 500, 502, 503, 504, 529, an `overloaded_error` / `api_error` event in a
 *   stream, and connection failures (refused, reset, or cut off mid-stream); up to `maxAttempts` requests per logical call, with
 *   exponential backoff and jitter, or the server's `retry-after` / `retry-after-ms` when it
 *   sends one (both capped at `retryMaxDelayMs`). Any other 4xx is never retried, nor is a
 *   response carrying `x-should-retry: false`. A stream is retried only while nothing of it
 *   has reached the caller (text already shown cannot be taken back).
 * - Timeout: `timeoutMs` is the longest a call may go without progress. A non-streamed call
 *   must complete within it; a stream must start within it and never fall silent for longer.
 *   A timed-out call is not retried (the session would otherwise wait attempts × timeout);
 *   set `retryTimeouts` to change that.
 * - Cancellation: the caller's signal and the timeout are combined per request (an
 *   AbortController fed by both, listeners removed afterwards, so a long-lived session signal
 *   collects nothing); an abort rejects at once, also during a backoff pause.
 * - Recording: `recordCall` receives one record per HTTP request (attempt), success or not,
 *   with the tokens the API reported — so a 429 followed by a success is two rows.
 */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import { silentLogger, type Logger } from '../core/ports';
import {
  LlmError,
  zeroUsage,
  type LlmCallOutcome,
  type LlmCallRecord,
  type LlmClient,
  type LlmInputBlock,
  type LlmOutputBlock,
  type LlmRequest,
  type LlmResponse,
  type LlmStopReason,
  type LlmStreamEvent,
  type LlmToolChoice,
  type LlmUsage,
} from './llm-client';

export interface AnthropicClientOptions {
  apiKey: string;
  /** The API root (`ANTHROPIC_BASE_URL`); the SDK's default when absent. */
  baseURL?: string;
  /** Longest a call may go without progress, in ms (see the file comment). Default 60 000. */
  timeoutMs?: number;
  /** HTTP requests per logical call, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff pause, in ms; doubles per retry. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest pause between attempts, `retry-after` included, in ms. Default 10 000. */
  retryMaxDelayMs?: number;
  /** Also retry a request that timed out. Default false. */
  retryTimeouts?: boolean;
  /** Receives one record per HTTP request; exceptions it throws are logged and ignored. */
  recordCall?: (record: LlmCallRecord) => void;
  logger?: Logger;
  /** Random source in [0, 1) for the jitter. */
  random?: () => number;
  /** Monotonic milliseconds, for latencies. */
  now?: () => number;
  /** Wall clock, for `startedAt`. */
  clock?: () => Date;
}

const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

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
      controller.abort(new LlmError('timeout', `The model call timed out after ${timeoutMs} ms.`));
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

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms; null when absent or unusable. */
export function retryAfterFromHeaders(headers: Headers | undefined | null, nowMs = Date.now()): number | null {
  if (!headers) return null;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null || retryAfter.trim() === '') return null;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Maps anything a request can throw to our error, its outcome and whether to retry it. */
function classify(error: unknown, guard: RequestGuard, parent: AbortSignal, attempt: number, timeoutMs: number, retryTimeouts: boolean): ClassifiedError {
  const plain = (kind: LlmError['kind'], outcome: ClassifiedError['outcome'], retryable: boolean, status: number | null = null, retryAfterMs: number | null = null): ClassifiedError => ({
    error:
      kind === 'aborted'
        ? abortedError(attempt, error)
        : kind === 'timeout'
          ? new LlmError('timeout', `The model call timed out after ${timeoutMs} ms.`, { attempts: attempt, cause: error })
          : new LlmError(kind, describe(error), { status, attempts: attempt, cause: error }),
    outcome,
    retryable,
    retryAfterMs,
  });
  // Order matters: our own abort and timeout reach us as the SDK's "user abort".
  if (parent.aborted) return plain('aborted', 'aborted', false);
  if (guard.timedOut || error instanceof APIConnectionTimeoutError) return plain('timeout', 'timeout', retryTimeouts);
  if (error instanceof LlmError) {
    return { error, outcome: error.kind === 'aborted' ? 'aborted' : error.kind === 'timeout' ? 'timeout' : 'error', retryable: error.kind === 'connection', retryAfterMs: null };
  }
  if (error instanceof APIUserAbortError) return plain('aborted', 'aborted', false);
  if (error instanceof APIConnectionError) return plain('connection', 'error', true);
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? error.status : null;
    const shouldRetryHeader = error.headers?.get('x-should-retry') ?? null;
    const type = error.type;
    if (status === null) {
      // An `error` event inside a 200 stream: only the body's type says what happened.
      if (type === 'overloaded_error') return plain('overloaded', 'error', true);
      if (type === 'rate_limit_error') return plain('rate_limited', 'error', true);
      if (type === 'api_error') return plain('server_error', 'error', true);
      return plain('bad_response', 'error', false);
    }
    const retryable = retryableStatuses.has(status) && shouldRetryHeader !== 'false';
    const retryAfterMs = retryAfterFromHeaders(error.headers);
    if (status === 429) return plain('rate_limited', 'error', retryable, status, retryAfterMs);
    if (status === 529 || type === 'overloaded_error') return plain('overloaded', 'error', retryable, status, retryAfterMs);
    if (status >= 500) return plain('server_error', 'error', retryable, status, retryAfterMs);
    return plain('request_rejected', 'error', false, status);
  }
  // The connection dropped after the headers (undici: "terminated", caused by a SocketError).
  if (isNetworkFailure(error)) return plain('connection', 'error', true);
  // Broken JSON in a stream, events out of order, "request ended without sending any chunks".
  return plain('bad_response', 'error', false);
}

const networkFailure = /\b(?:terminated|other side closed|socket hang up|ECONNRESET|ECONNREFUSED|EPIPE|premature close)\b/i;

/** True when the error (or one of its causes) is a transport failure rather than a bad response. */
function isNetworkFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (current.name === 'SocketError' || (typeof code === 'string' && networkFailure.test(code)) || networkFailure.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Mapping between our types and the SDK's
// ---------------------------------------------------------------------------

function toBlockParam(block: LlmInputBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: block.toolUseId, content: block.content, ...(block.isError ? { is_error: true } : {}) };
    default: {
      const unreachable: never = block;
      throw new Error(`unknown block ${JSON.stringify(unreachable)}`);
    }
  }
}

function toToolChoice(choice: LlmToolChoice): ToolChoice {
  switch (choice.type) {
    case 'none':
      return { type: 'none' };
    case 'auto':
    case 'any':
      return { type: choice.type, ...(choice.disableParallelToolUse ? { disable_parallel_tool_use: true } : {}) };
    case 'tool':
      return { type: 'tool', name: choice.name, ...(choice.disableParallelToolUse ? { disable_parallel_tool_use: true } : {}) };
    default: {
      const unreachable: never = choice;
      throw new Error(`unknown tool choice ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Our request as the body of `POST /v1/messages` (without `stream`). */
export function toMessageParams(request: LlmRequest): MessageCreateParamsNonStreaming {
  const system: TextBlockParam[] = request.system.map((block) => ({
    type: 'text',
    text: block.text,
    ...(block.cacheControl ? { cache_control: { type: 'ephemeral' } } : {}),
  }));
  const messages: MessageParam[] = request.messages.map((message) => ({
    role: message.role,
    content: typeof message.content === 'string' ? message.content : message.content.map(toBlockParam),
  }));
  const tools: Tool[] | undefined = request.tools?.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(system.length > 0 ? { system } : {}),
    messages,
    ...(tools && tools.length > 0 ? { tools } : {}),
    ...(request.toolChoice ? { tool_choice: toToolChoice(request.toolChoice) } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

function toStopReason(reason: StopReason | null | undefined): LlmStopReason {
  switch (reason) {
    case 'end_turn':
    case 'max_tokens':
    case 'stop_sequence':
    case 'tool_use':
    case 'refusal':
      return reason;
    default:
      return 'other';
  }
}

interface UsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** Overlays the counts present in `usage` on `base` (stream usage is cumulative, never added). */
function mergeUsage(base: LlmUsage, usage: UsageLike | null | undefined): LlmUsage {
  if (!usage) return base;
  return {
    inputTokens: usage.input_tokens ?? base.inputTokens,
    outputTokens: usage.output_tokens ?? base.outputTokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? base.cacheReadTokens,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? base.cacheWriteTokens,
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function fromMessage(message: Message): LlmResponse {
  const content: LlmOutputBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: asRecord(block.input) });
  }
  return { content, usage: mergeUsage(zeroUsage, message.usage), stopReason: toStopReason(message.stop_reason) };
}

// ---------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------

/** Creates the Anthropic `LlmClient`. */
export function createAnthropicClient(options: AnthropicClientOptions): LlmClient {
  const timeoutMs = Math.max(1, Math.ceil(options.timeoutMs ?? 60_000));
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 3));
  const baseDelayMs = Math.max(0, options.retryBaseDelayMs ?? 500);
  const maxDelayMs = Math.max(0, options.retryMaxDelayMs ?? 10_000);
  const retryTimeouts = options.retryTimeouts ?? false;
  const logger = options.logger ?? silentLogger;
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => performance.now());
  const clock = options.clock ?? (() => new Date());
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
    // Our guard fires first; the SDK's own timer (armed until headers arrive) is a backstop.
    timeout: timeoutMs + 1000,
  });

  function record(request: LlmRequest, fields: Omit<LlmCallRecord, 'purpose' | 'sessionId' | 'provider' | 'model' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> & { usage: LlmUsage }): void {
    const { usage, ...rest } = fields;
    const entry: LlmCallRecord = {
      purpose: request.purpose,
      sessionId: request.sessionId ?? null,
      provider: 'anthropic',
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
      const params = toMessageParams(request);
      for (let attempt = 1; ; attempt += 1) {
        if (signal.aborted) throw abortedError(attempt - 1, signal.reason);
        const guard = guardRequest(signal, timeoutMs);
        const startedAt = clock();
        const started = now();
        try {
          const message = await sdk.messages.create(params, { signal: guard.signal });
          const response = fromMessage(message);
          record(request, { attempt, streamed: false, usage: response.usage, latencyMs: Math.round(now() - started), outcome: 'ok', status: null, error: null, startedAt });
          return response;
        } catch (error) {
          const failure = classify(error, guard, signal, attempt, timeoutMs, retryTimeouts);
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
      const params = toMessageParams(request);
      for (let attempt = 1; ; attempt += 1) {
        if (signal.aborted) throw abortedError(attempt - 1, signal.reason);
        const guard = guardRequest(signal, timeoutMs);
        const startedAt = clock();
        const started = now();
        const sdkStream = sdk.messages.stream(params, { signal: guard.signal });
        let usage = zeroUsage;
        let stopReason: LlmStopReason = 'other';
        let delivered = false;
        let recorded = false;
        const finish = (outcome: LlmCallOutcome, status: number | null, error: string | null): void => {
          recorded = true;
          record(request, { attempt, streamed: true, usage, latencyMs: Math.round(now() - started), outcome, status, error, startedAt });
        };
        const toolInputs = new Map<number, { id: string; name: string; json: string; initial: Record<string, unknown> }>();
        let stopped = false;
        try {
          for await (const event of sdkStream as AsyncIterable<RawMessageStreamEvent>) {
            guard.touch();
            let out: LlmStreamEvent | null = null;
            switch (event.type) {
              case 'message_start':
                usage = mergeUsage(usage, event.message.usage);
                break;
              case 'content_block_start':
                if (event.content_block.type === 'tool_use') {
                  const block = event.content_block;
                  toolInputs.set(event.index, { id: block.id, name: block.name, json: '', initial: asRecord(block.input) });
                }
                break;
              case 'content_block_delta':
                if (event.delta.type === 'text_delta' && event.delta.text) out = { type: 'text_delta', text: event.delta.text };
                else if (event.delta.type === 'input_json_delta') {
                  const tool = toolInputs.get(event.index);
                  if (tool) tool.json += event.delta.partial_json;
                }
                break;
              case 'content_block_stop': {
                const tool = toolInputs.get(event.index);
                if (tool) {
                  toolInputs.delete(event.index);
                  out = { type: 'tool_use', id: tool.id, name: tool.name, input: parseToolInput(tool.json, tool.initial, logger, tool.name) };
                }
                break;
              }
              case 'message_delta':
                stopReason = toStopReason(event.delta.stop_reason);
                usage = mergeUsage(usage, event.usage);
                break;
              case 'message_stop':
                stopped = true;
                break;
              default:
                break;
            }
            if (out) {
              delivered = true;
              // The caller's own pace must not count against the API's silence budget.
              guard.pause();
              yield out;
              guard.touch();
            }
          }
          // The SDK's iterator ends quietly on an error or abort nobody was waiting for; this surfaces it.
          await sdkStream.done();
          if (guard.signal.aborted) throw new APIUserAbortError();
          // A stream cut short without a transport error (a proxy closing early): as retryable as a dropped connection.
          if (!stopped) throw new LlmError('connection', 'The stream ended before message_stop.', { attempts: attempt });
          finish('ok', null, null);
          guard.dispose();
          yield { type: 'done', usage, stopReason };
          return;
        } catch (error) {
          const failure = classify(error, guard, signal, attempt, timeoutMs, retryTimeouts);
          if (!recorded) finish(failure.outcome, failure.error.status, failure.error.message);
          guard.dispose();
          sdkStream.abort();
          await settleFailure(request, attempt, failure, signal, !delivered);
        } finally {
          guard.dispose();
          // The caller stopped reading early (break / return): cancel the request, log it as aborted.
          if (!recorded) {
            sdkStream.abort();
            finish('aborted', null, 'The caller stopped reading the stream.');
          }
        }
      }
    },
  };
}

/** A tool call's streamed JSON as an object; a broken one becomes `{}` (the caller validates). */
function parseToolInput(json: string, initial: Record<string, unknown>, logger: Logger, name: string): Record<string, unknown> {
  if (json.trim() === '') return initial;
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  logger.warn({ tool: name, length: json.length }, 'tool input in the stream was not a JSON object');
  return {};
}
