/**
 * What a provider suite needs of a wire — the Anthropic Messages API or OpenAI Chat
 * Completions — so that one scenario runs against each fake: how to start the server on it,
 * reply builders, and small accessors that read a recorded request in one neutral shape.
 * The shared scenarios are helpers/*-scenarios.ts; anthropic/ and openai/ run them with
 * `anthropicWire` and `openAiWire`. What only one wire has (cache_control, strict schemas,
 * SSE event names) stays in that wire's own suites.
 */
import { expect } from 'vitest';
import type { Logger } from '../../src/core/ports';
import type { TutorProvider } from '../../src/core/provider';
import { createModelProvider } from '../../src/llm/model-provider';
import { tutorInstructions } from '../../src/llm/tutor-request';
import { createAnthropicClient } from '../../src/llm/transports/anthropic';
import { createOpenAiClient } from '../../src/llm/transports/openai';
import { startAnthropicTestServer } from './anthropic-test-server';
import { fakeReplies, startFakeAnthropic, type FakeMessageReply, type FakeReply, type RecordedRequest } from './fake-anthropic';
import { openAiReplies, startFakeOpenAi, type FakeOpenAiReply, type RecordedOpenAiRequest } from './fake-openai';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import type { TestServer } from './test-server';
import { conversationOf, startOpenAiTestServer, systemText as openAiSystemText, userPrompt as openAiUserPrompt } from '../openai/openai-test-server';

export type WireRoute = 'evaluator' | 'safety' | 'tutor' | 'master' | 'other';

export interface WireToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** One message of a model request's conversation, whatever the wire (a `tool` message is a user turn of tool results). */
/** Token counts of a reply, in our terms. */
export interface WireUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface WireTurn {
  role: 'user' | 'assistant';
  text?: string;
  toolCalls?: WireToolCall[];
  toolResults?: Array<{ toolCallId: string; content: string }>;
}

/** A fake API as the scenarios script and read it. */
export interface WireFake<Request, Reply> {
  readonly url: string;
  readonly requests: Request[];
  enqueue(route: WireRoute, ...scripts: Array<Reply | ((request: Request) => Reply)>): void;
  requestsFor(route: WireRoute): Request[];
  close(): Promise<void>;
}

export interface ProviderWire<Request, Reply> {
  name: 'anthropic' | 'openai';
  /** The prefix the API gives tool call ids (`toolu_`, `call_`). */
  toolIdPrefix: string;
  /** Tool results and the learner's next words travel in one user message (Anthropic), or as `tool` messages before it (OpenAI). */
  toolResultsJoinText: boolean;
  startFake(): Promise<WireFake<Request, Reply>>;
  /** The real server in this process, on this provider's real SDK pointed at a new fake. */
  startServer(): Promise<{ fake: WireFake<Request, Reply>; server: TestServer; records: LlmCallRecord[]; close(): Promise<void> }>;
  /** The environment that makes a server process (helpers/server-process.ts) use this provider against the fake at `url`. */
  processEnv(url: string): Record<string, string>;
  /** The model provider on this wire's real SDK client against the fake at `url`, retrying fast. */
  modelProvider(url: string, options: { logger: Logger; recordCall: (record: LlmCallRecord) => void; safetyModel?: string }): TutorProvider;
  /** A reply the client retries (overloaded, unavailable), and the error the provider rejects with when every attempt gets it. */
  transientFailure: { reply(): Reply; error: Record<string, unknown> };
  replies: {
    text(text: string, extra?: { chunkSize?: number }): Reply;
    toolCall(name: string, input: unknown, extra?: { text?: string; id?: string; chunkSize?: number }): Reply;
    /** Some text, then several tool calls in one reply. */
    toolCalls(text: string, calls: WireToolCall[]): Reply;
    evaluation(verdict: { recalledPoints: Array<{ id: string; confidence: number; observation: string }>; feedback: string }): Reply;
    safetyVerdict(safe: boolean, reason?: string): Reply;
    /** The learning session's master tutor answering with these `tutor_turn` fields (as its forced tool or structured answer). */
    masterTurn(fields: Record<string, unknown>): Reply;
    garbageEvaluation(): Reply;
    fencedEvaluationText(input: unknown): Reply;
    serverError(): Reply;
    badRequest(): Reply;
    /** An empty reply the API ended for a reason of its own (a refusal, a content filter). */
    emptyRefusal(): Reply;
    /** A 429 with `retry-after`. */
    rateLimited(retryAfterSeconds: number): Reply;
    /** A reply (text, or an evaluation) whose usage says these tokens: `cacheRead` of the prompt came from the cache, `cacheWrite` went into it. */
    withUsage(reply: { text: string } | { evaluation: { recalledPoints: []; feedback: string } }, usage: WireUsage): Reply;
  };
  /** What the call record holds of `usage` as this wire reports it (a wire that does not report cache writes counts them as input). */
  recordedUsage(usage: WireUsage): { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  model(request: Request): string;
  /** Every system instruction of the request, as one text. */
  systemText(request: Request): string;
  /** The text of the first user message (the evaluator's and the safety gate's whole prompt). */
  userPrompt(request: Request): string;
  /** The conversation after the system instructions. */
  conversation(request: Request): WireTurn[];
  /** The point ids an evaluator request lets the model answer with (the enum of its schema). */
  evaluatorIds(request: Request): string[];
  /** Asserts the request forces the `name` tool and returns the fields of its schema; the wire checks its own shape around it. */
  forcedToolFields(request: Request, name: string): string[];
  /** Asserts the request's stable system prompt comes first, where the API caches it. */
  expectCachedSystemPrompt(request: Request): void;
  /** The part of a tutor request the API caches: the tools and the stable instructions, as text. */
  cachedPrefix(request: Request): string;
  /** The models `modelProvider` asks. */
  models: { tutor: string; evaluator: string };
  /** The sampling fields every request carries. */
  params(request: Request): { model: string; temperature: number | undefined; maxTokens: number | undefined; stream: boolean | undefined };
  /** Asserts the request asks for one structured answer the wire's way (a forced tool, a strict JSON schema), and returns its name, description and schema. */
  structuredOutput(request: Request): { name: string; description: string | undefined; schema: Record<string, unknown> };
}

type IdSchema = { properties: { recalledPoints: { items: { properties: { id: { enum: string[] } } } } } };

/** A turn with only the parts it has (so `toEqual` compares what the wire sent). */
function turn(role: WireTurn['role'], text: string, toolCalls: WireToolCall[], toolResults: Array<{ toolCallId: string; content: string }>): WireTurn {
  return { role, ...(text ? { text } : {}), ...(toolCalls.length ? { toolCalls } : {}), ...(toolResults.length ? { toolResults } : {}) };
}

export const anthropicWire: ProviderWire<RecordedRequest, FakeReply> = {
  name: 'anthropic',
  toolIdPrefix: 'toolu_',
  toolResultsJoinText: true,
  startFake: startFakeAnthropic,
  startServer: () => startAnthropicTestServer(),
  processEnv: (url) => ({ LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: url, TUTOR_MODEL: 'claude-test-tutor' }),
  modelProvider: (url, { logger, recordCall, safetyModel }) =>
    createModelProvider({
      name: 'anthropic',
      client: createAnthropicClient({ apiKey: 'test-key', baseURL: url, timeoutMs: 2000, retryBaseDelayMs: 1, retryMaxDelayMs: 10, recordCall }),
      tutorModel: anthropicWire.models.tutor,
      evaluatorModel: anthropicWire.models.evaluator,
      logger,
      ...(safetyModel ? { safetyModel } : {}),
    }),
  transientFailure: { reply: () => fakeReplies.overloaded(), error: { kind: 'overloaded' } },
  replies: {
    text: (text, extra = {}) => fakeReplies.text(text, extra),
    toolCall: (name, input, extra = {}) => fakeReplies.toolUse(name, input, extra),
    toolCalls: (text, calls): FakeMessageReply => ({
      kind: 'message',
      content: [{ type: 'text', text }, ...calls.map((call) => ({ type: 'tool_use' as const, ...call }))],
      stopReason: 'tool_use',
    }),
    evaluation: (verdict) => fakeReplies.evaluation(verdict),
    safetyVerdict: (safe, reason) => fakeReplies.safetyVerdict(safe, reason),
    masterTurn: (fields) => fakeReplies.toolUse('tutor_turn', fields),
    garbageEvaluation: () => fakeReplies.garbageEvaluation(),
    fencedEvaluationText: (input) => fakeReplies.fencedEvaluationText(input),
    serverError: () => fakeReplies.serverError(),
    badRequest: () => fakeReplies.badRequest(),
    emptyRefusal: () => ({ ...fakeReplies.text(''), stopReason: 'refusal' }),
    rateLimited: (seconds) => fakeReplies.rateLimited(seconds),
    withUsage: (reply, usage) => {
      const wireUsage = { input_tokens: usage.input, output_tokens: usage.output, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite };
      return 'text' in reply ? fakeReplies.text(reply.text, { usage: wireUsage }) : fakeReplies.evaluation(reply.evaluation, { usage: wireUsage });
    },
  },
  recordedUsage: (usage) => ({ inputTokens: usage.input, outputTokens: usage.output, cacheReadTokens: usage.cacheRead, cacheWriteTokens: usage.cacheWrite }),
  model: (request) => request.body.model,
  systemText: (request) => (request.body.system ?? []).map((block) => block.text).join('\n\n'),
  userPrompt: (request) => {
    const content = request.body.messages[0]!.content;
    return typeof content === 'string' ? content : content.map((block) => (block.type === 'text' ? String(block.text) : '')).join('');
  },
  conversation: (request) =>
    request.body.messages.map((message) => {
      const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
      // The API's rule: in a user message, tool results come before any text.
      const kinds = blocks.map((block) => block.type);
      if (kinds.includes('tool_result')) expect(kinds.lastIndexOf('tool_result')).toBeLessThan(kinds.includes('text') ? kinds.indexOf('text') : Infinity);
      return turn(
        message.role,
        blocks
          .filter((block) => block.type === 'text')
          .map((block) => String(block.text))
          .join(''),
        blocks.filter((block) => block.type === 'tool_use').map((block) => ({ id: String(block.id), name: String(block.name), input: block.input })),
        blocks.filter((block) => block.type === 'tool_result').map((block) => ({ toolCallId: String(block.tool_use_id), content: String(block.content) })),
      );
    }),
  // The forced tool's input schema.
  evaluatorIds: (request) => (request.body.tools![0]!.input_schema as IdSchema).properties.recalledPoints.items.properties.id.enum,
  forcedToolFields: (request, name) => {
    expect(request.body.tool_choice).toMatchObject({ type: 'tool', name });
    const tool = request.body.tools!.find((candidate) => candidate.name === name)!;
    return Object.keys((tool.input_schema as { properties: Record<string, unknown> }).properties);
  },
  expectCachedSystemPrompt: (request) => expect(request.body.system![0]!.cache_control).toEqual({ type: 'ephemeral' }),
  // Everything up to the cache breakpoint on the first system block.
  cachedPrefix: (request) => JSON.stringify([request.body.tools, request.body.system![0]]),
  models: { tutor: 'claude-sonnet-4-6', evaluator: 'claude-haiku-4-5' },
  params: ({ body }) => ({ model: body.model, temperature: body.temperature, maxTokens: body.max_tokens, stream: body.stream }),
  structuredOutput: ({ body }) => {
    expect(body.tools).toHaveLength(1);
    const [tool] = body.tools!;
    expect(body.tool_choice).toEqual({ type: 'tool', name: tool!.name });
    return { name: tool!.name, description: tool!.description, schema: tool!.input_schema };
  },
};

/** The text of a Chat Completions message's content (a string, or text parts). */
function chatText(content: string | null | undefined | Array<{ type: string; text?: string }>): string {
  if (!content) return '';
  return typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
}

export const openAiWire: ProviderWire<RecordedOpenAiRequest, FakeOpenAiReply> = {
  name: 'openai',
  toolIdPrefix: 'call_',
  toolResultsJoinText: false,
  startFake: startFakeOpenAi,
  startServer: () => startOpenAiTestServer(),
  processEnv: (url) => ({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: url, TUTOR_MODEL: 'llama3.1:8b' }),
  modelProvider: (url, { logger, recordCall, safetyModel }) =>
    createModelProvider({
      name: 'openai',
      client: createOpenAiClient({ apiKey: 'test-key', baseURL: url, timeoutMs: 2000, retryBaseDelayMs: 1, retryMaxDelayMs: 10, recordCall }),
      tutorModel: openAiWire.models.tutor,
      evaluatorModel: openAiWire.models.evaluator,
      logger,
      ...(safetyModel ? { safetyModel } : {}),
    }),
  transientFailure: { reply: () => openAiReplies.unavailable(), error: { kind: 'server_error', status: 503 } },
  replies: {
    text: (text, extra = {}) => openAiReplies.text(text, extra),
    toolCall: (name, input, extra = {}) => openAiReplies.toolCall(name, input, extra),
    toolCalls: (text, calls) => ({
      kind: 'message',
      content: text,
      toolCalls: calls.map((call) => ({ id: call.id, name: call.name, arguments: call.input })),
      finishReason: 'tool_calls',
    }),
    evaluation: (verdict) => openAiReplies.evaluation(verdict),
    safetyVerdict: (safe, reason) => openAiReplies.safetyVerdict(safe, reason),
    masterTurn: (fields) => openAiReplies.structured(fields),
    garbageEvaluation: () => openAiReplies.garbageEvaluation(),
    fencedEvaluationText: (input) => openAiReplies.fencedEvaluationText(input),
    serverError: () => openAiReplies.serverError(),
    badRequest: () => openAiReplies.badRequest(),
    emptyRefusal: () => openAiReplies.text('', { finishReason: 'content_filter' }),
    rateLimited: (seconds) => openAiReplies.rateLimited(seconds),
    // Chat Completions reports the whole prompt, the cached part of it apart, and no cache writes.
    withUsage: (reply, usage) => {
      const wireUsage = { prompt_tokens: usage.input + usage.cacheRead + usage.cacheWrite, completion_tokens: usage.output, cached_tokens: usage.cacheRead };
      return 'text' in reply ? openAiReplies.text(reply.text, { usage: wireUsage }) : openAiReplies.evaluation(reply.evaluation, { usage: wireUsage });
    },
  },
  recordedUsage: (usage) => ({ inputTokens: usage.input + usage.cacheWrite, outputTokens: usage.output, cacheReadTokens: usage.cacheRead, cacheWriteTokens: 0 }),
  model: (request) => request.body.model,
  systemText: openAiSystemText,
  userPrompt: openAiUserPrompt,
  conversation: (request) =>
    conversationOf(request).map((message) =>
      message.role === 'tool'
        ? turn('user', '', [], [{ toolCallId: message.tool_call_id ?? '', content: chatText(message.content) }])
        : turn(
            message.role === 'assistant' ? 'assistant' : 'user',
            chatText(message.content),
            (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) as unknown })),
            [],
          ),
    ),
  // The strict JSON schema of the structured answer.
  evaluatorIds: (request) => (request.body.response_format!.json_schema!.schema as IdSchema).properties.recalledPoints.items.properties.id.enum,
  forcedToolFields: (request, name) => {
    expect(request.body.tool_choice).toEqual({ type: 'function', function: { name } });
    expect(request.body.parallel_tool_calls).toBe(false);
    expect(request.body.response_format).toBeUndefined();
    const tool = request.body.tools!.find((candidate) => candidate.function.name === name)!;
    return Object.keys((tool.function.parameters as { properties: Record<string, unknown> }).properties);
  },
  // OpenAI caches the longest stable prefix: the system message must open the request.
  expectCachedSystemPrompt: (request) => expect(request.body.messages[0]!.role).toBe('system'),
  // OpenAI caches the longest common prefix: the tools, then the system message's fixed instructions.
  cachedPrefix: (request) => {
    const system = openAiSystemText(request);
    expect(system.startsWith(tutorInstructions)).toBe(true);
    return JSON.stringify(request.body.tools) + system.slice(0, tutorInstructions.length);
  },
  models: { tutor: 'gpt-4.1', evaluator: 'gpt-4.1-mini' },
  params: ({ body }) => ({ model: body.model, temperature: body.temperature, maxTokens: body.max_tokens, stream: body.stream }),
  structuredOutput: ({ body }) => {
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    const { name, description, schema } = body.response_format!.json_schema!;
    return { name, description, schema };
  },
};
