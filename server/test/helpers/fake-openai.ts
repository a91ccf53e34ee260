/**
 * A fake Chat Completions API (OpenAI-compatible) on loopback (node:http, port 0) for tests
 * that run the real `openai` SDK (SPEC §7: tests never reach the internet). It records every
 * request (headers and parsed body) and answers `POST /v1/chat/completions` from scripts:
 *
 * - one queue of scripted replies per route, the route read from the request: a
 *   `response_format: json_schema` named `record_evaluation` (or a forced function of that
 *   name) → `evaluator`, the same for `safety_verdict` → `safety` and for `tutor_turn` (the
 *   learning session's master tutor) → `master`, `document_points` or
 *   `merge_document_points` (a document's proposals) → `documents`, any other `stream: true` request →
 *   `tutor`, anything else → `other`; an empty queue falls back to the route's
 *   default (an empty evaluation, a safe verdict, a short text); a script may be a function
 *   of the request (to answer with ids the server generated);
 * - a `message` reply is rendered as a `chat.completion` JSON body, or — when the request
 *   asked to stream — as SSE `chat.completion.chunk`s the way OpenAI sends them (a role
 *   chunk, content in pieces, each tool call as a first piece with its id and name and then
 *   its `arguments` in fragments keyed by `index`, a chunk with `finish_reason`, a usage
 *   chunk with no choices, `[DONE]`), optionally slowed down, stalled, cut off, broken by an
 *   error object or a line that is not JSON, or ended without a `finish_reason`;
 * - a structured `answer` is rendered as the request asked for it: the message content under
 *   `response_format: json_schema`, else a call of the forced function;
 * - failures: any status with `{error: {message, type, param, code}}` and headers (429 with
 *   retry-after, 500, 503, 400), a 200 whose body is not JSON, a hang (no response until the
 *   client gives up).
 *
 * Build replies with `openAiReplies`; read requests with `requests` / `requestsFor(route)`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { masterTurnFields } from './master-turn';

export type FakeOpenAiRoute = 'evaluator' | 'safety' | 'tutor' | 'master' | 'documents' | 'other';

export interface FakeOpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Reported as `prompt_tokens_details.cached_tokens` (part of `prompt_tokens`). */
  cached_tokens: number;
}

export interface FakeToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** Replaces the serialized arguments (e.g. to send broken JSON). */
  rawArguments?: string;
}

export interface FakeCompletionReply {
  kind: 'message';
  content?: string;
  toolCalls?: FakeToolCall[];
  /** A structured answer, rendered as the request asked (see the file comment). */
  answer?: unknown;
  /** Sent as `message.refusal` (a structured-output refusal). */
  refusal?: string;
  usage?: Partial<FakeOpenAiUsage>;
  finishReason?: string;
  /** Streaming: characters per content or arguments piece (default 6 for text, 10 for arguments). */
  chunkSize?: number;
  /** Streaming: pause before each chunk, in ms. */
  eventDelayMs?: number;
  /** Streaming: after this many chunks, send nothing more and keep the connection open. */
  stallAfterEvents?: number;
  /** Streaming: after this many chunks, cut the connection (a network failure mid-stream). */
  dropAfterEvents?: number;
  /** Streaming: after this many chunks, send `data: {"error": …}` and end the response. */
  errorAfterEvents?: { events: number; type: string; message: string; code?: string | number | null };
  /** Streaming: after this many chunks, send a data line that is not JSON. */
  malformedAfterEvents?: number;
  /** Streaming: no `finish_reason`, no usage, no `[DONE]`: the response just ends cleanly. */
  omitFinish?: boolean;
}

export type FakeOpenAiReply =
  | FakeCompletionReply
  | { kind: 'error'; status: number; type: string; message: string; code?: string | null; headers?: Record<string, string> }
  /** A 200 whose body is not valid JSON. */
  | { kind: 'malformed'; body: string }
  /** Never answers; the connection stays open until the client gives up. */
  | { kind: 'hang' };

export type FakeOpenAiScript = FakeOpenAiReply | ((request: RecordedOpenAiRequest) => FakeOpenAiReply);

type ChatContent = string | null | Array<{ type: string; text?: string }>;

/** The request body fields tests look at (the rest passes through untyped). */
export interface FakeChatRequestBody {
  model: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<{
    role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
    content?: ChatContent;
    tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean } }>;
  tool_choice?: string | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?: { type: string; json_schema?: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean } };
  [field: string]: unknown;
}

export interface RecordedOpenAiRequest {
  route: FakeOpenAiRoute;
  method: string;
  path: string;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: FakeChatRequestBody;
  /** True when the client closed the connection before the reply was complete. */
  clientClosedEarly: boolean;
  receivedAt: number;
}

export interface FakeOpenAi {
  /** Base URL for the SDK (`baseURL`, `OPENAI_BASE_URL`), `/v1` included. */
  readonly url: string;
  readonly requests: RecordedOpenAiRequest[];
  requestsFor(route: FakeOpenAiRoute): RecordedOpenAiRequest[];
  enqueue(route: FakeOpenAiRoute, ...replies: FakeOpenAiScript[]): void;
  setDefault(route: FakeOpenAiRoute, reply: FakeOpenAiScript): void;
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

const defaultUsage: FakeOpenAiUsage = { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0 };

let callIds = 0;
function nextCallId(): string {
  callIds += 1;
  return `call_fake_${String(callIds).padStart(4, '0')}`;
}

type Extra = Partial<Omit<FakeCompletionReply, 'kind' | 'content' | 'toolCalls' | 'answer'>>;

/** Builders for scripted replies. */
export const openAiReplies = {
  text(text: string, extra: Extra = {}): FakeCompletionReply {
    return { kind: 'message', content: text, finishReason: 'stop', ...extra };
  },
  /** A tool call, optionally after some text. */
  toolCall(name: string, args: unknown, extra: Extra & { text?: string; id?: string; rawArguments?: string } = {}): FakeCompletionReply {
    const { text, id, rawArguments, ...rest } = extra;
    const call: FakeToolCall = { id: id ?? nextCallId(), name, arguments: args, ...(rawArguments !== undefined ? { rawArguments } : {}) };
    return { kind: 'message', ...(text ? { content: text } : {}), toolCalls: [call], finishReason: 'tool_calls', ...rest };
  },
  /** A structured answer (JSON content under response_format, else the forced function's call). */
  structured(answer: unknown, extra: Extra = {}): FakeCompletionReply {
    return { kind: 'message', answer, finishReason: 'stop', ...extra };
  },
  evaluation(input: { recalledPoints: Array<{ id: string; confidence: number; observation: string }>; feedback: string }, extra: Extra = {}): FakeCompletionReply {
    return openAiReplies.structured(input, extra);
  },
  /** A structured answer that does not have the schema's shape (a lax compatible server). */
  garbageEvaluation(): FakeCompletionReply {
    return openAiReplies.structured({ recalledPoints: 'all of them!', feedback: 42, extra: true });
  },
  /** The evaluator ignoring the schema and answering with fenced JSON text. */
  fencedEvaluationText(input: unknown): FakeCompletionReply {
    return openAiReplies.text(`Here is my evaluation:\n\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``);
  },
  /** Content that is not JSON at all, cut off mid-object. */
  malformedEvaluation(): FakeCompletionReply {
    return openAiReplies.text('{"recalledPoints": [{"id": "p-');
  },
  safetyVerdict(safe: boolean, reason = ''): FakeCompletionReply {
    return openAiReplies.structured({ safe, reason });
  },
  rateLimited(retryAfterSeconds = 0): FakeOpenAiReply {
    return { kind: 'error', status: 429, type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.', headers: { 'retry-after': String(retryAfterSeconds) } };
  },
  serverError(status = 500): FakeOpenAiReply {
    return { kind: 'error', status, type: 'server_error', message: 'The server had an error while processing your request.' };
  },
  unavailable(): FakeOpenAiReply {
    return { kind: 'error', status: 503, type: 'server_error', message: 'The engine is currently overloaded, please try again later.' };
  },
  badRequest(message = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."): FakeOpenAiReply {
    return { kind: 'error', status: 400, type: 'invalid_request_error', code: null, message };
  },
  malformedBody(): FakeOpenAiReply {
    return { kind: 'malformed', body: '{"id": "chatcmpl-broken", "choices": [' };
  },
  hang(): FakeOpenAiReply {
    return { kind: 'hang' };
  },
};

function forcedFunction(body: FakeChatRequestBody): string | undefined {
  return typeof body.tool_choice === 'object' && body.tool_choice?.type === 'function' ? body.tool_choice.function.name : undefined;
}

function routeOf(body: FakeChatRequestBody): FakeOpenAiRoute {
  const named = body.response_format?.type === 'json_schema' ? body.response_format.json_schema?.name : forcedFunction(body);
  if (named === 'record_evaluation') return 'evaluator';
  if (named === 'safety_verdict') return 'safety';
  if (named === 'tutor_turn') return 'master';
  if (named === 'document_points' || named === 'merge_document_points') return 'documents';
  if (body.stream === true) return 'tutor';
  return 'other';
}

function defaultReply(route: FakeOpenAiRoute): FakeOpenAiReply {
  switch (route) {
    case 'evaluator':
      return openAiReplies.evaluation({ recalledPoints: [], feedback: '' });
    case 'safety':
      return openAiReplies.safetyVerdict(true);
    case 'tutor':
      return openAiReplies.text('Hello from the fake tutor.');
    case 'master':
      return openAiReplies.structured(masterTurnFields({ response: 'Let us keep going.', intent: 'continuation', turn_summary: 'kept going', reasoning: 'default fake turn' }));
    case 'documents':
      return openAiReplies.structured({ points: [] });
    case 'other':
      return openAiReplies.text('ok');
    default: {
      const unreachable: never = route;
      throw new Error(`unknown route ${String(unreachable)}`);
    }
  }
}

/** The reply's content and tool calls as this request receives them (a structured answer resolved). */
function resolve(reply: FakeCompletionReply, body: FakeChatRequestBody): { content: string | null; toolCalls: FakeToolCall[]; finishReason: string } {
  let content = reply.content ?? null;
  const toolCalls = [...(reply.toolCalls ?? [])];
  let finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  if (reply.answer !== undefined) {
    const forced = forcedFunction(body);
    if (body.response_format?.type === 'json_schema' || !forced) content = JSON.stringify(reply.answer);
    else {
      toolCalls.push({ id: nextCallId(), name: forced, arguments: reply.answer });
      finishReason = reply.finishReason && reply.finishReason !== 'stop' ? reply.finishReason : 'stop';
    }
  }
  return { content, toolCalls, finishReason };
}

function usageBody(usage: FakeOpenAiUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens },
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

let completionIds = 0;

/** The SSE chunks of a reply, in OpenAI's order (without the final `[DONE]`). */
function streamChunks(reply: FakeCompletionReply, body: FakeChatRequestBody, usage: FakeOpenAiUsage): object[] {
  completionIds += 1;
  const base = { id: `chatcmpl-fake-${completionIds}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const choice = (delta: object, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const { content, toolCalls, finishReason } = resolve(reply, body);
  const out: object[] = [choice({ role: 'assistant', content: '', refusal: null })];
  if (reply.refusal) for (const piece of chunks(reply.refusal, reply.chunkSize ?? 6)) out.push(choice({ refusal: piece }));
  if (content) for (const piece of chunks(content, reply.chunkSize ?? 6)) out.push(choice({ content: piece }));
  toolCalls.forEach((call, index) => {
    out.push(choice({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    const json = call.rawArguments ?? JSON.stringify(call.arguments);
    for (const piece of chunks(json, reply.chunkSize ?? 10)) out.push(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  if (reply.omitFinish) return out;
  out.push(choice({}, finishReason));
  if (body.stream_options?.include_usage) out.push({ ...base, choices: [], usage: usageBody(usage) });
  return out;
}

function completionBody(reply: FakeCompletionReply, body: FakeChatRequestBody, usage: FakeOpenAiUsage): object {
  completionIds += 1;
  const { content, toolCalls, finishReason } = resolve(reply, body);
  return {
    id: `chatcmpl-fake-${completionIds}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: reply.refusal ?? null,
          ...(toolCalls.length > 0
            ? { tool_calls: toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.rawArguments ?? JSON.stringify(call.arguments) } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: usageBody(usage),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sendError(response: ServerResponse, status: number, type: string, message: string, code: string | null = null, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_fake', ...headers });
  response.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const requests: RecordedOpenAiRequest[] = [];
  const queues = new Map<FakeOpenAiRoute, FakeOpenAiScript[]>();
  const defaults = new Map<FakeOpenAiRoute, FakeOpenAiScript>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  async function answer(recorded: RecordedOpenAiRequest, response: ServerResponse): Promise<void> {
    const script = queues.get(recorded.route)?.shift() ?? defaults.get(recorded.route) ?? defaultReply(recorded.route);
    const reply = typeof script === 'function' ? script(recorded) : script;
    switch (reply.kind) {
      case 'hang':
        return;
      case 'error':
        return sendError(response, reply.status, reply.type, reply.message, reply.code ?? null, reply.headers);
      case 'malformed':
        response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_fake' });
        response.end(reply.body);
        return;
      case 'message': {
        const usage = { ...defaultUsage, ...reply.usage };
        if (!recorded.body.stream) {
          response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_fake' });
          response.end(JSON.stringify(completionBody(reply, recorded.body, usage)));
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': 'req_fake' });
        const events = streamChunks(reply, recorded.body, usage);
        for (const [index, event] of events.entries()) {
          // The pause comes first so that a drop or an error is not written in the same tick as the last chunk.
          if (reply.eventDelayMs) await sleep(reply.eventDelayMs);
          if (reply.stallAfterEvents !== undefined && index >= reply.stallAfterEvents) return;
          if (reply.dropAfterEvents !== undefined && index >= reply.dropAfterEvents) {
            response.socket?.destroy();
            return;
          }
          if (reply.errorAfterEvents && index >= reply.errorAfterEvents.events) {
            const { type, message, code } = reply.errorAfterEvents;
            response.end(`data: ${JSON.stringify({ error: { message, type, param: null, code: code ?? null } })}\n\n`);
            return;
          }
          if (reply.malformedAfterEvents !== undefined && index >= reply.malformedAfterEvents) {
            response.end('data: {"id": "chatcmpl-broken", "choices": [\n\n');
            return;
          }
          if (response.destroyed || response.writableEnded) return;
          response.write(`data: ${JSON.stringify(event)}\n\n`);
        }
        if (!reply.omitFinish) response.write('data: [DONE]\n\n');
        response.end();
        return;
      }
      default: {
        const unreachable: never = reply;
        throw new Error(`unknown reply ${JSON.stringify(unreachable)}`);
      }
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(response, 404, 'invalid_request_error', `No fake route for ${request.method} ${path}`);
    }
    let body: FakeChatRequestBody;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as FakeChatRequestBody;
    } catch {
      return sendError(response, 400, 'invalid_request_error', 'Body is not JSON');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const recorded: RecordedOpenAiRequest = { route: routeOf(body), method: request.method, path, headers, body, clientClosedEarly: false, receivedAt: Date.now() };
    requests.push(recorded);
    response.on('close', () => {
      if (!response.writableFinished) recorded.clientClosedEarly = true;
    });
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    await answer(recorded, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, 'server_error', `fake failed: ${String(error)}`);
      else response.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    requestsFor: (route) => requests.filter((request) => request.route === route),
    enqueue(route, ...replies) {
      const queue = queues.get(route) ?? [];
      queue.push(...replies);
      queues.set(route, queue);
    },
    setDefault(route, reply) {
      defaults.set(route, reply);
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
