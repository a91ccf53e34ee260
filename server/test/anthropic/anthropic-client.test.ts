/**
 * SPEC §7 — the Anthropic client (the Anthropic transport inside the resilient client),
 * with the real SDK against the fake Messages API on loopback: request/response mapping,
 * streaming, retries with backoff, timeouts, cancellation and one `llm_calls` record per
 * HTTP request. The resilient client alone, over a fake transport: resilient-client.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientCancellationScenarios, collect, failure } from '../helpers/llm-client-scenarios';
import { LlmError, type LlmCallRecord, type LlmRequest, type LlmStreamEvent } from '../../src/llm/llm-client';
import { retryAfterFromHeaders } from '../../src/llm/retry-after';
import { createAnthropicClient, type AnthropicClientOptions } from '../../src/llm/transports/anthropic';
import { fakeReplies, startFakeAnthropic, type FakeAnthropic } from '../helpers/fake-anthropic';

let fake: FakeAnthropic;
let records: LlmCallRecord[];

beforeEach(async () => {
  fake = await startFakeAnthropic();
  records = [];
});
afterEach(async () => {
  await fake.close();
});

function makeClient(overrides: Partial<AnthropicClientOptions> = {}) {
  return createAnthropicClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    timeoutMs: 2000,
    maxAttempts: 3,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 20,
    recordCall: (record) => records.push(record),
    ...overrides,
  });
}

const live = () => new AbortController().signal;

const request: LlmRequest = {
  purpose: 'other',
  sessionId: 'session-1',
  model: 'claude-haiku-4-5',
  system: [{ text: 'Stable part.', cacheControl: { type: 'ephemeral' } }, { text: 'Per-turn part.' }],
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'Pick one' }, { type: 'tool_use', id: 'toolu_1', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: 'a' }] },
  ],
  tools: [{ name: 'present_choices', description: 'Choices', inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] } }],
  toolChoice: { type: 'auto', disableParallelToolUse: true },
  temperature: 0.5,
  maxTokens: 300,
};

const streamRequest: LlmRequest = { ...request, purpose: 'tutor', model: 'claude-sonnet-4-6' };

const okRecord = (fields: Partial<LlmCallRecord>) => ({
  purpose: 'other',
  sessionId: 'session-1',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  attempt: 1,
  streamed: false,
  outcome: 'ok',
  status: null,
  error: null,
  latencyMs: expect.any(Number),
  startedAt: expect.any(Date),
  ...fields,
});

describe('complete', () => {
  it('sends our request as the Messages API body and maps the response back, cache tokens included', async () => {
    fake.enqueue(
      'other',
      fakeReplies.toolUse('present_choices', { prompt: 'Which?', options: ['x', 'y'] }, {
        text: 'Here you go.',
        id: 'toolu_out',
        usage: { input_tokens: 120, output_tokens: 33, cache_read_input_tokens: 900, cache_creation_input_tokens: 45 },
      }),
    );
    const response = await makeClient().complete(request, live());
    expect(response).toEqual({
      content: [
        { type: 'text', text: 'Here you go.' },
        { type: 'tool_use', id: 'toolu_out', name: 'present_choices', input: { prompt: 'Which?', options: ['x', 'y'] } },
      ],
      usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 45 },
      stopReason: 'tool_use',
    });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['authorization'] ?? sent.headers['x-api-key']).toContain('test-key');
    expect(sent.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 300,
      system: [
        { type: 'text', text: 'Stable part.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Per-turn part.' },
      ],
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Pick one' },
            { type: 'tool_use', id: 'toolu_1', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }] },
      ],
      tools: [{ name: 'present_choices', description: 'Choices', input_schema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] } }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      temperature: 0.5,
    });
    expect(records).toEqual([okRecord({ inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 45 })]);
  });

  it('retries a 429 (retry-after: 0) and succeeds with two requests, recording both', async () => {
    fake.enqueue('other', fakeReplies.rateLimited(0), fakeReplies.text('fine'));
    const response = await makeClient().complete(request, live());
    expect(response.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(fake.requests).toHaveLength(2);
    expect(records.map((record) => [record.attempt, record.outcome, record.status])).toEqual([
      [1, 'error', 429],
      [2, 'ok', null],
    ]);
    expect(records[0]!.error).toContain('rate limit');
    expect(records[1]).toEqual(okRecord({ attempt: 2, inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }));
  });

  it('honours retry-after over its own (tiny) backoff', async () => {
    fake.enqueue('other', { kind: 'error', status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0.25' } }, fakeReplies.text('fine'));
    const started = Date.now();
    await makeClient({ retryMaxDelayMs: 1000 }).complete(request, live());
    const gap = fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(240);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('retries 529 overloaded twice, then succeeds', async () => {
    fake.enqueue('other', fakeReplies.overloaded(), fakeReplies.overloaded(), fakeReplies.text('third time'));
    const response = await makeClient().complete(request, live());
    expect(response.content).toEqual([{ type: 'text', text: 'third time' }]);
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => record.outcome)).toEqual(['error', 'error', 'ok']);
    expect(records.map((record) => record.status)).toEqual([529, 529, null]);
  });

  it('gives up after maxAttempts 500s with a server_error', async () => {
    fake.enqueue('other', fakeReplies.serverError(500), fakeReplies.serverError(502), fakeReplies.serverError(503), fakeReplies.text('too late'));
    const error = await failure(makeClient().complete(request, live()));
    expect({ kind: error.kind, status: error.status, attempts: error.attempts }).toEqual({ kind: 'server_error', status: 503, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => [record.outcome, record.status])).toEqual([
      ['error', 500],
      ['error', 502],
      ['error', 503],
    ]);
  });

  it('never retries a 400', async () => {
    fake.enqueue('other', fakeReplies.badRequest('messages.0: bad'), fakeReplies.text('unused'));
    const error = await failure(makeClient().complete(request, live()));
    expect({ kind: error.kind, status: error.status, attempts: error.attempts }).toEqual({ kind: 'request_rejected', status: 400, attempts: 1 });
    expect(error.message).toContain('messages.0: bad');
    expect(fake.requests).toHaveLength(1);
    expect(records).toHaveLength(1);
  });

  clientCancellationScenarios({
    fake: () => fake,
    replies: fakeReplies,
    goneUrl: async () => {
      const gone = await startFakeAnthropic();
      await gone.close();
      return gone.url;
    },
    makeClient,
    request,
    records: () => records,
    okRecord,
  });
});

describe('stream', () => {
  it('streams text deltas, a tool call from input_json_delta, then done with the usage of message_start + message_delta', async () => {
    fake.enqueue(
      'tutor',
      fakeReplies.toolUse('present_choices', { prompt: 'Which organelle?', options: ['Nucleus', 'Mitochondrion'] }, {
        text: 'Try this one.',
        id: 'toolu_stream',
        chunkSize: 5,
        usage: { input_tokens: 40, output_tokens: 60, cache_read_input_tokens: 1500, cache_creation_input_tokens: 0 },
      }),
    );
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events).toEqual([
      { type: 'text_delta', text: 'Try t' },
      { type: 'text_delta', text: 'his o' },
      { type: 'text_delta', text: 'ne.' },
      { type: 'tool_use', id: 'toolu_stream', name: 'present_choices', input: { prompt: 'Which organelle?', options: ['Nucleus', 'Mitochondrion'] } },
      { type: 'done', usage: { inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 }, stopReason: 'tool_use' },
    ]);
    expect(fake.requests[0]!.body.stream).toBe(true);
    expect(records).toEqual([
      okRecord({ purpose: 'tutor', model: 'claude-sonnet-4-6', streamed: true, inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 }),
    ]);
  });

  it('retries a stream that fails before anything reached the caller (529, then an overloaded event)', async () => {
    fake.enqueue(
      'tutor',
      fakeReplies.overloaded(),
      { ...fakeReplies.text('never shown'), errorAfterEvents: { events: 1, type: 'overloaded_error', message: 'Overloaded' } },
      fakeReplies.text('Hello!'),
    );
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event.type === 'text_delta' ? event.text : ''))).toEqual(['Hello!']);
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => [record.outcome, record.status])).toEqual([
      ['error', 529],
      ['error', null],
      ['ok', null],
    ]);
  });

  it('retries a stream whose connection drops before any content', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('lost'), eventDelayMs: 10, dropAfterEvents: 1 }, fakeReplies.text('Back again.'));
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events[0]).toEqual({ type: 'text_delta', text: 'Back a' });
    expect(fake.requests).toHaveLength(2);
    expect(records.map((record) => [record.outcome, record.error?.slice(0, 10) ?? null])).toEqual([
      ['error', expect.any(String)],
      ['ok', null],
    ]);
  });

  it('does not retry a stream cut off after text was shown', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('Half a sentence and then'), chunkSize: 100, eventDelayMs: 10, dropAfterEvents: 3 }, fakeReplies.text('unused'));
    const events: LlmStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of makeClient().stream(streamRequest, live())) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text_delta', text: 'Half a sentence and then' }]);
    expect((caught as LlmError).kind).toBe('connection');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry once text was delivered: the error surfaces after the text', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('Half a sentence and then'), chunkSize: 100, errorAfterEvents: { events: 4, type: 'overloaded_error', message: 'Overloaded' } });
    const events: LlmStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of makeClient().stream(streamRequest, live())) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text_delta', text: 'Half a sentence and then' }]);
    expect(caught).toBeInstanceOf(LlmError);
    expect((caught as LlmError).kind).toBe('overloaded');
    expect(fake.requests).toHaveLength(1);
  });

  it('times out a stream that falls silent mid-way', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('Hello there, how are you?'), chunkSize: 100, stallAfterEvents: 3 });
    const events: LlmStreamEvent[] = [];
    const started = Date.now();
    let caught: unknown;
    try {
      for await (const event of makeClient({ timeoutMs: 300 }).stream(streamRequest, live())) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text_delta', text: 'Hello there, how are you?' }]);
    expect((caught as LlmError).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1200);
    expect(records.map((record) => record.outcome)).toEqual(['timeout']);
  });

  it('times out a stream whose response never starts', async () => {
    fake.enqueue('tutor', fakeReplies.hang());
    const started = Date.now();
    const error = await failure(collect(makeClient({ timeoutMs: 300 }).stream(streamRequest, live())));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1200);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops promptly when the signal aborts mid-stream', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('one two three four five six seven eight'), chunkSize: 4, eventDelayMs: 40 });
    const controller = new AbortController();
    const events: LlmStreamEvent[] = [];
    let caught: unknown;
    let abortedAt = 0;
    try {
      for await (const event of makeClient().stream(streamRequest, controller.signal)) {
        events.push(event);
        if (events.length === 1) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    } catch (error) {
      caught = error;
    }
    expect(Date.now() - abortedAt).toBeLessThan(200);
    expect(events).toEqual([{ type: 'text_delta', text: 'one ' }]);
    expect((caught as LlmError).kind).toBe('aborted');
    expect(records.map((record) => record.outcome)).toEqual(['aborted']);
    await expect.poll(() => fake.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('cancels the request and records it as aborted when the caller stops reading', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text('one two three four five six'), chunkSize: 4, eventDelayMs: 30 });
    for await (const event of makeClient().stream(streamRequest, live())) {
      expect(event).toEqual({ type: 'text_delta', text: 'one ' });
      break;
    }
    expect(records.map((record) => [record.outcome, record.error])).toEqual([['aborted', 'The caller stopped reading the stream.']]);
    await expect.poll(() => fake.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('turns broken tool JSON into an empty input rather than failing the reply', async () => {
    fake.enqueue('tutor', fakeReplies.toolUse('present_choices', null, { id: 'toolu_bad', rawJson: '{"prompt": "Which', stopReason: 'max_tokens' }));
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events).toEqual([
      { type: 'tool_use', id: 'toolu_bad', name: 'present_choices', input: {} },
      { type: 'done', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'max_tokens' },
    ]);
  });
});

describe('retryAfterFromHeaders', () => {
  it('reads retry-after-ms, then retry-after in seconds or as a date', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }), now)).toBe(150);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 12:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterFromHeaders(new Headers(), now)).toBeNull();
  });
});
