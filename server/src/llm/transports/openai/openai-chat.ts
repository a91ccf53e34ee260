/**
 * Mapping between the LLM port's types and the Chat Completions API's (SDK types), both ways,
 * written for any OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio), so
 * it sends only widely supported fields. Pure: no SDK client, no I/O.
 *
 * - System blocks become one `system` message, joined by a blank line (several system
 *   messages, or one later in the conversation, break the chat templates of many local
 *   models). Cache breakpoints are dropped: OpenAI caches matching prefixes by itself, and the
 *   stable block still comes first.
 * - A user turn's `tool_result` blocks become `tool` messages right after the assistant
 *   message that called them, then its text (joined) one `user` message.
 * - Tools become functions, `strict` when their schema allows it (every property required,
 *   no extra properties, keywords strict mode knows); a forced tool becomes
 *   `tool_choice: {type: 'function', function: {name}}`, `any` becomes `required`.
 * - A request with `structuredOutput` and a forced tool asks instead for
 *   `response_format: {type: 'json_schema', json_schema: {name, strict, schema}}` with no
 *   tools, and its JSON answer comes back as a `tool_use` block of that tool, exactly as a
 *   forced tool call would.
 * - `max_tokens` (not `max_completion_tokens`): the field every compatible server reads.
 * - Usage: `prompt_tokens` includes the cached tokens (`prompt_tokens_details.cached_tokens`);
 *   the port counts cache reads apart from input, so they are subtracted. The API reports no
 *   cache writes.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { silentLogger, type Logger } from '../../../core/ports';
import {
  LlmError,
  zeroUsage,
  type LlmMessage,
  type LlmOutputBlock,
  type LlmRequest,
  type LlmResponse,
  type LlmStopReason,
  type LlmTool,
  type LlmToolChoice,
  type LlmUsage,
} from '../../llm-client';

/** Keywords OpenAI's strict mode accepts; a schema with any other is sent non-strict. */
const strictKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  '$defs',
  '$ref',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'pattern',
  'format',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether OpenAI's strict mode (structured outputs) takes this schema as it is: every object
 * lists all its properties as required and forbids others, and only known keywords are used.
 */
export function isStrictSchema(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictSchema);
  if (!isRecord(schema)) return true;
  for (const key of Object.keys(schema)) if (!strictKeywords.has(key)) return false;
  const properties = schema['properties'];
  if (schema['type'] === 'object' || properties !== undefined) {
    if (schema['additionalProperties'] !== false) return false;
    const names = isRecord(properties) ? Object.keys(properties) : [];
    const required = Array.isArray(schema['required']) ? schema['required'] : [];
    if (!names.every((name) => required.includes(name))) return false;
    if (isRecord(properties) && !Object.values(properties).every(isStrictSchema)) return false;
  }
  for (const key of ['items', 'anyOf'] as const) {
    if (schema[key] !== undefined && !isStrictSchema(schema[key])) return false;
  }
  if (isRecord(schema['$defs']) && !Object.values(schema['$defs']).every(isStrictSchema)) return false;
  return true;
}

function toFunctionTool(tool: LlmTool): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      ...(isStrictSchema(tool.inputSchema) ? { strict: true } : {}),
    },
  };
}

function toToolChoice(choice: LlmToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default: {
      const unreachable: never = choice;
      throw new Error(`unknown tool choice ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The tool whose input is the whole answer, when the request asks for structured output. */
export function structuredOutputTool(request: LlmRequest): LlmTool | null {
  if (!request.structuredOutput || request.toolChoice?.type !== 'tool') return null;
  const name = request.toolChoice.name;
  return request.tools?.find((tool) => tool.name === name) ?? null;
}

function joinText(parts: string[]): string {
  return parts.join('\n\n');
}

/** One message of ours as Chat Completions messages (a user turn with tool results gives several). */
function toChatMessages(message: LlmMessage): ChatCompletionMessageParam[] {
  if (typeof message.content === 'string') {
    return [message.role === 'user' ? { role: 'user', content: message.content } : { role: 'assistant', content: message.content }];
  }
  const texts: string[] = [];
  if (message.role === 'user') {
    const out: ChatCompletionMessageParam[] = [];
    for (const block of message.content) {
      if (block.type === 'tool_result') {
        out.push({ role: 'tool', tool_call_id: block.toolUseId, content: block.isError ? `Error: ${block.content}` : block.content });
      } else if (block.type === 'text') {
        texts.push(block.text);
      } else {
        throw new Error(`a user message cannot carry a ${block.type} block`);
      }
    }
    if (texts.length > 0) out.push({ role: 'user', content: joinText(texts) });
    return out;
  }
  const calls: NonNullable<ChatCompletionAssistantMessageParam['tool_calls']> = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
    else throw new Error(`an assistant message cannot carry a ${block.type} block`);
  }
  return [{ role: 'assistant', content: texts.length > 0 ? joinText(texts) : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
}

/** Our request as the body of `POST /chat/completions` (without `stream`). */
export function toChatParams(request: LlmRequest): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  const system = joinText(request.system.map((block) => block.text).filter((text) => text.length > 0));
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) messages.push(...toChatMessages(message));

  const structured = structuredOutputTool(request);
  const tools = structured ? [] : (request.tools ?? []).map(toFunctionTool);
  const choice = request.toolChoice;
  return {
    model: request.model,
    messages,
    max_tokens: request.maxTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(structured
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: { name: structured.name, description: structured.description, schema: structured.inputSchema, strict: isStrictSchema(structured.inputSchema) },
          },
        }
      : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(tools.length > 0 && choice ? { tool_choice: toToolChoice(choice) } : {}),
    // Only with tools: OpenAI rejects the field in a request without any.
    ...(tools.length > 0 && choice && choice.type !== 'none' && choice.disableParallelToolUse ? { parallel_tool_calls: false } : {}),
  };
}

export function toStopReason(reason: string | null | undefined): LlmStopReason {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

/** The API's counts in the port's terms (cache reads apart from the rest of the input). */
export function toUsage(usage: CompletionUsage | null | undefined): LlmUsage {
  if (!usage) return zeroUsage;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/** A JSON object from the model (tool arguments, a structured answer), or null when it is not one. */
export function parseJsonObject(json: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(json);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A tool call's arguments as an object; empty means none, broken becomes `{}` (the caller validates). */
export function parseToolArguments(json: string, logger: Logger, name: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  const parsed = parseJsonObject(json);
  if (parsed) return parsed;
  logger.warn({ tool: name, length: json.length }, 'tool call arguments were not a JSON object');
  return {};
}

/** An id for a tool call the server sent without one (some compatible servers do). */
export function newToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/**
 * A structured answer (the JSON text of a `response_format: json_schema` request) as the port
 * returns a forced tool call: a `tool_use` block of that tool; text that is not a JSON object
 * stays text, for the caller's own fallback (the evaluator's parser reads fenced JSON).
 */
export function structuredAnswer(tool: LlmTool, text: string, id: string): LlmOutputBlock[] {
  const input = parseJsonObject(text.trim());
  if (input) return [{ type: 'tool_use', id, name: tool.name, input }];
  return text.trim() ? [{ type: 'text', text }] : [];
}

/** A non-streamed response in our terms. */
export function fromCompletion(completion: ChatCompletion, request: LlmRequest, logger: Logger = silentLogger): LlmResponse {
  const choice = completion.choices?.[0];
  if (!choice) throw new LlmError('bad_response', 'The response had no choices.');
  const usage = toUsage(completion.usage);
  let stopReason = toStopReason(choice.finish_reason);
  const message = choice.message;
  const structured = structuredOutputTool(request);
  if (structured) {
    if (message.refusal) return { content: [], usage, stopReason: 'refusal' };
    const content = structuredAnswer(structured, message.content ?? '', `call_${completion.id || newToolCallId()}`);
    if (content[0]?.type === 'tool_use' && stopReason === 'end_turn') stopReason = 'tool_use';
    return { content, usage, stopReason };
  }
  const content: LlmOutputBlock[] = [];
  if (message.content) content.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    content.push({ type: 'tool_use', id: call.id || newToolCallId(), name: call.function.name, input: parseToolArguments(call.function.arguments ?? '', logger, call.function.name) });
  }
  return { content, usage, stopReason };
}
