/**
 * The LLM port (STYLE "Core and I/O"): a small, vendor-free surface — `complete` and
 * `stream`, each with an AbortSignal — that the model provider and a session type's own
 * model calls build requests against. It lives in the core so those calls need not import
 * `llm/`. The resilient client (`llm/resilient-client.ts`) implements it over a vendor transport
 * (`transports/<vendor>/`), which maps these types to its SDK and back; no SDK type
 * crosses this file.
 */
import type { LlmCallOutcome } from './storage/llm-calls';
import type { ProviderName } from '@tutorloop/shared';


/** Why a call is made; stored in `llm_calls.purpose`. Open-ended, the three below are ours. */
export type LlmPurpose = 'evaluator' | 'tutor' | 'safety' | (string & {});

/** A prompt-cache breakpoint: everything up to and including the marked block is cached. */
export interface LlmCacheControl {
  type: 'ephemeral';
}

/** One block of the system prompt. Stable blocks go first so that a breakpoint can cache them. */
export interface LlmSystemBlock {
  text: string;
  cacheControl?: LlmCacheControl;
}

/** Content a request may carry in its messages. */
export type LlmInputBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; toolUseId: string; content: string; isError?: boolean };

/** A message of the request. The first must be a `user` message; roles alternate. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string | LlmInputBlock[];
}

/** A JSON schema for a tool's input (an object schema), generated from zod (`tool-schema.ts`). */
export interface LlmJsonSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/** A tool the model may call. */
export interface LlmTool {
  name: string;
  description: string;
  inputSchema: LlmJsonSchema;
}

/** How the model may use the tools: freely, at least one, a named one (forced), or none. */
export type LlmToolChoice =
  | { type: 'auto'; disableParallelToolUse?: boolean }
  | { type: 'any'; disableParallelToolUse?: boolean }
  | { type: 'tool'; name: string; disableParallelToolUse?: boolean }
  | { type: 'none' };

/** One model call, in our terms. */
export interface LlmRequest {
  /** Recorded with the call (`llm_calls.purpose`). */
  purpose: LlmPurpose;
  /** Recorded with the call (`llm_calls.session_id`) when known. */
  sessionId?: string;
  /** The learner a call outside a session is made for (a document's proposals), recorded with it. */
  learnerId?: string;
  model: string;
  system: LlmSystemBlock[];
  messages: LlmMessage[];
  tools?: LlmTool[];
  toolChoice?: LlmToolChoice;
  /**
   * With a forced tool (`toolChoice: {type: 'tool'}`): the answer is nothing but that tool's
   * input, so a vendor with a structured-output mode may ask for it as a strict JSON schema
   * instead of a tool call (transports/openai: `response_format: json_schema`). It comes back
   * as a `tool_use` block of that tool either way; vendors without such a mode ignore it.
   */
  structuredOutput?: boolean;
  temperature?: number;
  maxTokens: number;
}

/** Token counts of one call (cache reads and writes are counted apart from `inputTokens`). */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const zeroUsage: LlmUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }) as LlmUsage;

/** Why the model stopped; anything the port does not know becomes `other`. */
export type LlmStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal' | 'other';

/** Content of a model response. */
export type LlmOutputBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** The result of `complete`. */
export interface LlmResponse {
  content: LlmOutputBlock[];
  usage: LlmUsage;
  stopReason: LlmStopReason;
}

/**
 * What `stream` yields: text as it arrives, each tool call once its input is complete,
 * then exactly one `done` (unless the stream fails, in which case iteration throws).
 */
export type LlmStreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'done'; usage: LlmUsage; stopReason: LlmStopReason };

/**
 * The LLM port. Both methods honour `signal`: once it aborts, the call rejects (or the
 * iteration throws) promptly with an `LlmError` of kind `aborted`. Failures are `LlmError`s.
 */
export interface LlmClient {
  /** One non-streamed call. */
  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse>;
  /** One streamed call. Breaking out of the iteration cancels the request. */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmStreamEvent>;
}

/** The closed set of failure kinds a caller may branch on. */
export const LlmErrorKinds = {
  rateLimited: 'rate_limited',
  overloaded: 'overloaded',
  serverError: 'server_error',
  connection: 'connection',
  timeout: 'timeout',
  aborted: 'aborted',
  /** A 4xx other than 429: the request itself is wrong (or the key is); retrying cannot help. */
  requestRejected: 'request_rejected',
  /** The response could not be understood (a broken stream, an unexpected event order). */
  badResponse: 'bad_response',
} as const;
export type LlmErrorKind = (typeof LlmErrorKinds)[keyof typeof LlmErrorKinds];

/** A failed model call. `attempts` counts the requests made for it. */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  /** HTTP status when the API answered with one. */
  readonly status: number | null;
  readonly attempts: number;

  constructor(kind: LlmErrorKind, message: string, options: { status?: number | null; attempts?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // Callers (and the offline provider's convention) recognise cancellation by name.
    this.name = kind === 'aborted' ? 'AbortError' : kind === 'timeout' ? 'TimeoutError' : 'LlmError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.attempts = options.attempts ?? 1;
  }
}

/** Outcome of one recorded call (`llm_calls.outcome`): the storage port's type. */
export type { LlmCallOutcome } from './storage/llm-calls';

/**
 * One row for `llm_calls`: one HTTP request (a retried logical call yields one record per
 * attempt, so every billed or rate-limited request is visible). Token counts are whatever
 * the API reported before the call ended (zero for a request that failed outright).
 */
export interface LlmCallRecord {
  purpose: LlmPurpose;
  sessionId: string | null;
  /** `LlmRequest.learnerId`, when the request named its learner (calls outside a session). */
  learnerId?: string;
  /** The transport that made the request (`LlmTransport.provider`). */
  provider: ProviderName;
  model: string;
  /** 1 for the first request of a logical call, 2 for its first retry, … */
  attempt: number;
  streamed: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  latencyMs: number;
  outcome: LlmCallOutcome;
  /** HTTP status of a failed request, when there was one. */
  status: number | null;
  error: string | null;
  /** When the request started. */
  startedAt: Date;
}

/**
 * The recorder port: receives one `LlmCallRecord` per request (in production it writes an
 * `llm_calls` row). It should not throw; if it does, the call goes on and the error is logged.
 */
export type LlmCallRecorder = (record: LlmCallRecord) => void;

/** The text of a plain reply (its text blocks, joined and trimmed). */
export function responseText(response: LlmResponse): string {
  return response.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
}

/** A call's tokens as a session's agent log counts them: cache reads and writes are input too. */
export function countedUsage(response: LlmResponse): { inputTokens: number; outputTokens: number } {
  return { inputTokens: response.usage.inputTokens + response.usage.cacheReadTokens + response.usage.cacheWriteTokens, outputTokens: response.usage.outputTokens };
}
