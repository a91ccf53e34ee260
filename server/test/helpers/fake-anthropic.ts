/**
 * A fake Anthropic Messages API on loopback (node:http, port 0) for tests that run the real
 * SDK (SPEC §7: tests never reach the internet). It records every request (headers and
 * parsed body) and answers `POST /v1/messages` from scripts:
 *
 * - one queue of scripted replies per route, the route read from the request: a forced
 *   `record_evaluation` tool → `evaluator`, a forced `safety_verdict` → `safety`, a forced
 *   `tutor_turn` (the learning session's master tutor) → `master`, a forced
 *   `document_points` or `merge_document_points` (a document's proposals) → `documents`, any other
 *   `stream: true` request → `tutor`, anything else → `other`; an empty queue falls back
 *   to the route's default (an empty evaluation, a safe verdict, a short text); a script
 *   may be a function of the request (to answer with ids the server generated);
 * - a `message` reply is rendered as JSON, or — when the request asked to stream — as the
 *   full SSE sequence (message_start, content_block_start, content_block_delta with
 *   text_delta / input_json_delta, content_block_stop, message_delta with usage,
 *   message_stop), optionally slowed down, stalled, cut off or broken by an `error` event;
 * - failures: any status with `{type:'error', error:{type, message}}` and headers (429 with
 *   retry-after, 500, 529 overloaded, 400), a hang (no response until the client gives up).
 *
 * Build replies with `fakeReplies`; read requests with `requests` / `requestsFor(route)`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { masterTurnFields } from './master-turn';

export type FakeRoute = 'evaluator' | 'safety' | 'tutor' | 'master' | 'documents' | 'other';

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export type FakeBlock =
  | { type: 'text'; text: string }
  /** `rawJson` replaces the serialized input in a stream (e.g. to send broken JSON). */
  | { type: 'tool_use'; id: string; name: string; input: unknown; rawJson?: string };

export interface FakeMessageReply {
  kind: 'message';
  content: FakeBlock[];
  usage?: Partial<FakeUsage>;
  stopReason?: string;
  /** Streaming: characters per delta (default 6 for text, 10 for tool JSON). */
  chunkSize?: number;
  /** Streaming: pause before each event, in ms. */
  eventDelayMs?: number;
  /** Streaming: after this many events, send nothing more and keep the connection open. */
  stallAfterEvents?: number;
  /** Streaming: after this many events, cut the connection (a network failure mid-stream). */
  dropAfterEvents?: number;
  /** Streaming: after this many events, send an SSE `error` event and end the response. */
  errorAfterEvents?: { events: number; type: string; message: string };
}

export type FakeReply =
  | FakeMessageReply
  | { kind: 'error'; status: number; type: string; message: string; headers?: Record<string, string> }
  /** Never answers; the connection stays open until the client gives up. */
  | { kind: 'hang' };

/** A reply, or a function that picks one from the request (e.g. to echo ids the server made). */
export type FakeScript = FakeReply | ((request: RecordedRequest) => FakeReply);

/** The request body fields tests look at (the rest passes through untyped). */
export interface FakeRequestBody {
  model: string;
  max_tokens: number;
  temperature?: number;
  stream?: boolean;
  system?: Array<{ type: 'text'; text: string; cache_control?: { type: string } }>;
  messages: Array<{ role: 'user' | 'assistant'; content: string | Array<Record<string, unknown> & { type: string }> }>;
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  tool_choice?: { type: string; name?: string; disable_parallel_tool_use?: boolean };
  [field: string]: unknown;
}

export interface RecordedRequest {
  route: FakeRoute;
  method: string;
  path: string;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: FakeRequestBody;
  /** True when the client closed the connection before the reply was complete. */
  clientClosedEarly: boolean;
  receivedAt: number;
}

export interface FakeAnthropic {
  /** Base URL for the SDK (`baseURL`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  requestsFor(route: FakeRoute): RecordedRequest[];
  /** Queues replies for a route, used in order. */
  enqueue(route: FakeRoute, ...replies: FakeScript[]): void;
  /** The reply used when the route's queue is empty. */
  setDefault(route: FakeRoute, reply: FakeScript): void;
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

const defaultUsage: FakeUsage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

let toolIds = 0;
function nextToolId(): string {
  toolIds += 1;
  return `toolu_fake_${String(toolIds).padStart(4, '0')}`;
}

/** Builders for scripted replies. */
export const fakeReplies = {
  text(text: string, extra: Partial<Omit<FakeMessageReply, 'kind' | 'content'>> = {}): FakeMessageReply {
    return { kind: 'message', content: [{ type: 'text', text }], stopReason: 'end_turn', ...extra };
  },
  /** A tool call, optionally after some text. */
  toolUse(
    name: string,
    input: unknown,
    extra: Partial<Omit<FakeMessageReply, 'kind' | 'content'>> & { text?: string; id?: string; rawJson?: string } = {},
  ): FakeMessageReply {
    const { text, id, rawJson, ...rest } = extra;
    const call: FakeBlock = { type: 'tool_use', id: id ?? nextToolId(), name, input, ...(rawJson !== undefined ? { rawJson } : {}) };
    return { kind: 'message', content: text ? [{ type: 'text', text }, call] : [call], stopReason: 'tool_use', ...rest };
  },
  evaluation(
    input: { recalledPoints: Array<{ id: string; confidence: number; observation: string }>; feedback: string },
    extra: Partial<Omit<FakeMessageReply, 'kind' | 'content'>> = {},
  ): FakeMessageReply {
    return fakeReplies.toolUse('record_evaluation', input, extra);
  },
  /** A forced evaluator call whose input does not have the schema's shape. */
  garbageEvaluation(): FakeMessageReply {
    return fakeReplies.toolUse('record_evaluation', { recalledPoints: 'all of them!', feedback: 42, extra: true });
  },
  /** The evaluator ignoring the tool and answering with fenced JSON text. */
  fencedEvaluationText(input: unknown): FakeMessageReply {
    return fakeReplies.text(`Here is my evaluation:\n\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``);
  },
  safetyVerdict(safe: boolean, reason = ''): FakeMessageReply {
    return fakeReplies.toolUse('safety_verdict', { safe, reason });
  },
  rateLimited(retryAfterSeconds = 0): FakeReply {
    return { kind: 'error', status: 429, type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.', headers: { 'retry-after': String(retryAfterSeconds) } };
  },
  overloaded(): FakeReply {
    return { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' };
  },
  serverError(status = 500): FakeReply {
    return { kind: 'error', status, type: 'api_error', message: 'Internal server error' };
  },
  badRequest(message = 'messages: roles must alternate'): FakeReply {
    return { kind: 'error', status: 400, type: 'invalid_request_error', message };
  },
  hang(): FakeReply {
    return { kind: 'hang' };
  },
};

function routeOf(body: FakeRequestBody): FakeRoute {
  const forced = body.tool_choice?.type === 'tool' ? body.tool_choice.name : undefined;
  if (forced === 'record_evaluation') return 'evaluator';
  if (forced === 'safety_verdict') return 'safety';
  if (forced === 'tutor_turn') return 'master';
  if (forced === 'document_points' || forced === 'merge_document_points') return 'documents';
  if (body.stream === true) return 'tutor';
  return 'other';
}

function defaultReply(route: FakeRoute): FakeReply {
  switch (route) {
    case 'evaluator':
      return fakeReplies.evaluation({ recalledPoints: [], feedback: '' });
    case 'safety':
      return fakeReplies.safetyVerdict(true);
    case 'tutor':
      return fakeReplies.text('Hello from the fake tutor.');
    case 'master':
      return fakeReplies.toolUse('tutor_turn', masterTurnFields({ response: 'Let us keep going.', intent: 'continuation', turn_summary: 'kept going', reasoning: 'default fake turn' }));
    case 'documents':
      return fakeReplies.toolUse('document_points', { points: [] });
    case 'other':
      return fakeReplies.text('ok');
    default: {
      const unreachable: never = route;
      throw new Error(`unknown route ${String(unreachable)}`);
    }
  }
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

/** The SSE events of a message reply, in the API's order. */
function streamEvents(reply: FakeMessageReply, model: string, usage: FakeUsage): Array<{ type: string; [field: string]: unknown }> {
  const events: Array<{ type: string; [field: string]: unknown }> = [
    {
      type: 'message_start',
      message: {
        id: `msg_fake_${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1, cache_read_input_tokens: usage.cache_read_input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens },
      },
    },
  ];
  reply.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of chunks(block.text, reply.chunkSize ?? 6)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const json = block.rawJson ?? JSON.stringify(block.input);
      for (const piece of chunks(json, reply.chunkSize ?? 10)) events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: reply.stopReason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  return events;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sendError(response: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake', ...headers });
  response.end(JSON.stringify({ type: 'error', error: { type, message } }));
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<FakeRoute, FakeScript[]>();
  const defaults = new Map<FakeRoute, FakeScript>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  async function answer(recorded: RecordedRequest, response: ServerResponse): Promise<void> {
    const script = queues.get(recorded.route)?.shift() ?? defaults.get(recorded.route) ?? defaultReply(recorded.route);
    const reply = typeof script === 'function' ? script(recorded) : script;
    switch (reply.kind) {
      case 'hang':
        return;
      case 'error':
        return sendError(response, reply.status, reply.type, reply.message, reply.headers);
      case 'message': {
        const usage = { ...defaultUsage, ...reply.usage };
        if (!recorded.body.stream) {
          response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
          response.end(
            JSON.stringify({
              id: `msg_fake_${Date.now()}`,
              type: 'message',
              role: 'assistant',
              model: recorded.body.model,
              content: reply.content.map((block) => (block.type === 'text' ? block : { type: 'tool_use', id: block.id, name: block.name, input: block.input })),
              stop_reason: reply.stopReason ?? 'end_turn',
              stop_sequence: null,
              usage,
            }),
          );
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
        const events = streamEvents(reply, recorded.body.model, usage);
        for (const [index, event] of events.entries()) {
          // The pause comes first so that a drop or an error is not written in the same tick as the last event.
          if (reply.eventDelayMs) await sleep(reply.eventDelayMs);
          if (reply.stallAfterEvents !== undefined && index >= reply.stallAfterEvents) return;
          if (reply.dropAfterEvents !== undefined && index >= reply.dropAfterEvents) {
            response.socket?.destroy();
            return;
          }
          if (reply.errorAfterEvents && index >= reply.errorAfterEvents.events) {
            const { type, message } = reply.errorAfterEvents;
            response.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`);
            return;
          }
          if (response.destroyed || response.writableEnded) return;
          response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        }
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
    if (request.method !== 'POST' || path !== '/v1/messages') {
      return sendError(response, 404, 'not_found_error', `No fake route for ${request.method} ${path}`);
    }
    let body: FakeRequestBody;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8')) as FakeRequestBody;
    } catch {
      return sendError(response, 400, 'invalid_request_error', 'Body is not JSON');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const recorded: RecordedRequest = { route: routeOf(body), method: request.method, path, headers, body, clientClosedEarly: false, receivedAt: Date.now() };
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
      if (!response.headersSent) sendError(response, 500, 'api_error', `fake failed: ${String(error)}`);
      else response.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
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
