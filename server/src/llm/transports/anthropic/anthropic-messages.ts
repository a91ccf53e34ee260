/**
 * Mapping between the LLM port's types and the Anthropic Messages API's (SDK types), both
 * ways. Pure: no SDK client, no I/O.
 */
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  StopReason,
  TextBlockParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { Logger } from '../../../core/ports';
import { zeroUsage, type LlmInputBlock, type LlmOutputBlock, type LlmRequest, type LlmResponse, type LlmStopReason, type LlmToolChoice, type LlmUsage } from '../../llm-client';

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

export function toStopReason(reason: StopReason | null | undefined): LlmStopReason {
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
export function mergeUsage(base: LlmUsage, usage: UsageLike | null | undefined): LlmUsage {
  if (!usage) return base;
  return {
    inputTokens: usage.input_tokens ?? base.inputTokens,
    outputTokens: usage.output_tokens ?? base.outputTokens,
    cacheReadTokens: usage.cache_read_input_tokens ?? base.cacheReadTokens,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? base.cacheWriteTokens,
  };
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A non-streamed response in our terms. */
export function fromMessage(message: Message): LlmResponse {
  const content: LlmOutputBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: asRecord(block.input) });
  }
  return { content, usage: mergeUsage(zeroUsage, message.usage), stopReason: toStopReason(message.stop_reason) };
}

/** A tool call's streamed JSON as an object; a broken one becomes `{}` (the caller validates). */
export function parseToolInput(json: string, initial: Record<string, unknown>, logger: Logger, name: string): Record<string, unknown> {
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
