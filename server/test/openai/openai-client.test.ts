/**
 * SPEC §7 — the OpenAI-compatible client (the OpenAI transport inside the resilient client),
 * with the real `openai` SDK against the fake Chat Completions API on loopback: request and
 * response mapping (tools, forced tools, structured output, cached tokens), streaming with
 * tool calls in pieces, retries with backoff, timeouts, cancellation, malformed answers and
 * one `llm_calls` record per HTTP request. The counterpart of anthropic/anthropic-client.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientCancellationScenarios, collect, failure } from '../helpers/llm-client-scenarios';
import { LlmError, type LlmCallRecord, type LlmJsonSchema, type LlmRequest, type LlmStreamEvent } from '../../src/llm/llm-client';
import { createOpenAiClient, type OpenAiClientOptions } from '../../src/llm/transports/openai';
import { openAiReplies, startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';

let fake: FakeOpenAi;
let records: LlmCallRecord[];

beforeEach(async () => {
  fake = await startFakeOpenAi();
  records = [];
});
afterEach(async () => {
  await fake.close();
});

function makeClient(overrides: Partial<OpenAiClientOptions> = {}) {
  return createOpenAiClient({
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

const choicesSchema: LlmJsonSchema = { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] };

const request: LlmRequest = {
  purpose: 'other',
  sessionId: 'session-1',
  model: 'gpt-4.1-mini',
  system: [{ text: 'Stable part.', cacheControl: { type: 'ephemeral' } }, { text: 'Per-turn part.' }],
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'Pick one' }, { type: 'tool_use', id: 'call_1', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', content: 'a' }, { type: 'text', text: 'Was that right?' }] },
  ],
  tools: [{ name: 'present_choices', description: 'Choices', inputSchema: { ...choicesSchema } }],
  toolChoice: { type: 'auto', disableParallelToolUse: true },
  temperature: 0.5,
  maxTokens: 300,
};

const streamRequest: LlmRequest = { ...request, purpose: 'tutor', model: 'gpt-4.1' };

/** A master-tutor-like call: one tool with a strict schema, forced. */
const verdictSchema: LlmJsonSchema = {
  type: 'object',
  properties: { response: { type: 'string' }, advance: { type: 'boolean' } },
  required: ['response', 'advance'],
  additionalProperties: false,
};
const forcedRequest: LlmRequest = {
  purpose: 'other',
  model: 'gpt-4.1',
  system: [{ text: 'Decide.' }],
  messages: [{ role: 'user', content: 'The learner said something.' }],
  tools: [{ name: 'grade_turn', description: 'The turn.', inputSchema: { ...verdictSchema } }],
  toolChoice: { type: 'tool', name: 'grade_turn' },
  temperature: 0.3,
  maxTokens: 1024,
};

const okRecord = (fields: Partial<LlmCallRecord>) => ({
  purpose: 'other',
  sessionId: 'session-1',
  provider: 'openai',
  model: 'gpt-4.1-mini',
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
  it('sends our request as a Chat Completions body and maps the response back, cached tokens apart', async () => {
    fake.enqueue(
      'other',
      openAiReplies.toolCall('present_choices', { prompt: 'Which?', options: ['x', 'y'] }, {
        text: 'Here you go.',
        id: 'call_out',
        usage: { prompt_tokens: 1020, completion_tokens: 33, cached_tokens: 900 },
      }),
    );
    const response = await makeClient().complete(request, live());
    expect(response).toEqual({
      content: [
        { type: 'text', text: 'Here you go.' },
        { type: 'tool_use', id: 'call_out', name: 'present_choices', input: { prompt: 'Which?', options: ['x', 'y'] } },
      ],
      usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 0 },
      stopReason: 'tool_use',
    });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer test-key');
    expect(sent.body).toEqual({
      model: 'gpt-4.1-mini',
      max_tokens: 300,
      temperature: 0.5,
      messages: [
        { role: 'system', content: 'Stable part.\n\nPer-turn part.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Pick one', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'present_choices', arguments: '{"prompt":"Which?","options":["a","b"]}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a' },
        { role: 'user', content: 'Was that right?' },
      ],
      // Not strict: the schema allows extra properties.
      tools: [{ type: 'function', function: { name: 'present_choices', description: 'Choices', parameters: choicesSchema } }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
    expect(records).toEqual([okRecord({ inputTokens: 120, outputTokens: 33, cacheReadTokens: 900, cacheWriteTokens: 0 })]);
  });

  it('maps a forced tool to tool_choice function (strict) and returns its arguments parsed, as a tool_use block', async () => {
    fake.enqueue('other', openAiReplies.structured({ response: 'Well done.', advance: true }, { usage: { prompt_tokens: 50, completion_tokens: 12, cached_tokens: 0 } }));
    const response = await makeClient().complete(forcedRequest, live());
    expect(response.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'grade_turn', input: { response: 'Well done.', advance: true } }]);
    const sent = fake.requests[0]!.body;
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'grade_turn' } });
    expect(sent.tools).toEqual([{ type: 'function', function: { name: 'grade_turn', description: 'The turn.', parameters: verdictSchema, strict: true } }]);
    expect(sent.response_format).toBeUndefined();
    expect(sent.parallel_tool_calls).toBeUndefined();
  });

  it('asks for structured output as a strict json_schema when the request says so, and returns the JSON as the tool_use', async () => {
    fake.enqueue('other', openAiReplies.structured({ response: 'Good.', advance: false }));
    const response = await makeClient().complete({ ...forcedRequest, structuredOutput: true }, live());
    expect(response.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'grade_turn', input: { response: 'Good.', advance: false } }]);
    expect(response.stopReason).toBe('tool_use');
    const sent = fake.requests[0]!.body;
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'grade_turn', description: 'The turn.', schema: verdictSchema, strict: true } });
    expect(sent.tools).toBeUndefined();
    expect(sent.tool_choice).toBeUndefined();
  });

  it('returns structured content that is not JSON as text, and a refusal as no content', async () => {
    fake.enqueue('other', openAiReplies.malformedEvaluation(), { kind: 'message', refusal: 'I cannot help with that.', finishReason: 'stop' });
    const client = makeClient();
    expect((await client.complete({ ...forcedRequest, structuredOutput: true }, live())).content).toEqual([{ type: 'text', text: '{"recalledPoints": [{"id": "p-' }]);
    expect(await client.complete({ ...forcedRequest, structuredOutput: true }, live())).toMatchObject({ content: [], stopReason: 'refusal' });
  });

  it('turns broken tool-call arguments into an empty input rather than failing', async () => {
    fake.enqueue('other', openAiReplies.toolCall('present_choices', null, { id: 'call_bad', rawArguments: '{"prompt": "Which' }));
    const response = await makeClient().complete(request, live());
    expect(response.content).toEqual([{ type: 'tool_use', id: 'call_bad', name: 'present_choices', input: {} }]);
  });

  it('rejects a 200 whose body is not JSON as a bad response, without retrying', async () => {
    fake.enqueue('other', openAiReplies.malformedBody(), openAiReplies.text('unused'));
    const error = await failure(makeClient().complete(request, live()));
    expect({ kind: error.kind, attempts: error.attempts }).toEqual({ kind: 'bad_response', attempts: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(records.map((record) => record.outcome)).toEqual(['error']);
  });

  it('retries a 429 (retry-after: 0) and succeeds with two requests, recording both', async () => {
    fake.enqueue('other', openAiReplies.rateLimited(0), openAiReplies.text('fine'));
    const response = await makeClient().complete(request, live());
    expect(response.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(fake.requests).toHaveLength(2);
    expect(records.map((record) => [record.attempt, record.outcome, record.status])).toEqual([
      [1, 'error', 429],
      [2, 'ok', null],
    ]);
    expect(records[0]!.error).toContain('Rate limit');
    expect(records[1]).toEqual(okRecord({ attempt: 2, inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }));
  });

  it('honours retry-after over its own (tiny) backoff', async () => {
    fake.enqueue('other', { kind: 'error', status: 429, type: 'requests', message: 'slow down', headers: { 'retry-after': '0.25' } }, openAiReplies.text('fine'));
    const started = Date.now();
    await makeClient({ retryMaxDelayMs: 1000 }).complete(request, live());
    const gap = fake.requests[1]!.receivedAt - fake.requests[0]!.receivedAt;
    expect(gap).toBeGreaterThanOrEqual(240);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('retries 503 overloaded twice, then succeeds', async () => {
    fake.enqueue('other', openAiReplies.unavailable(), openAiReplies.unavailable(), openAiReplies.text('third time'));
    const response = await makeClient().complete(request, live());
    expect(response.content).toEqual([{ type: 'text', text: 'third time' }]);
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => [record.outcome, record.status])).toEqual([
      ['error', 503],
      ['error', 503],
      ['ok', null],
    ]);
  });

  it('gives up after maxAttempts 5xx with a server_error', async () => {
    fake.enqueue('other', openAiReplies.serverError(500), openAiReplies.serverError(502), openAiReplies.serverError(503), openAiReplies.text('too late'));
    const error = await failure(makeClient().complete(request, live()));
    expect({ kind: error.kind, status: error.status, attempts: error.attempts }).toEqual({ kind: 'server_error', status: 503, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => [record.outcome, record.status])).toEqual([
      ['error', 500],
      ['error', 502],
      ['error', 503],
    ]);
  });

  it('never retries a 400, nor a 5xx marked x-should-retry: false', async () => {
    fake.enqueue('other', openAiReplies.badRequest('messages.0: bad'), { kind: 'error', status: 500, type: 'server_error', message: 'no', headers: { 'x-should-retry': 'false' } });
    const error = await failure(makeClient().complete(request, live()));
    expect({ kind: error.kind, status: error.status, attempts: error.attempts }).toEqual({ kind: 'request_rejected', status: 400, attempts: 1 });
    expect(error.message).toContain('messages.0: bad');
    const second = await failure(makeClient().complete(request, live()));
    expect({ kind: second.kind, attempts: second.attempts }).toEqual({ kind: 'server_error', attempts: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  clientCancellationScenarios({
    fake: () => fake,
    replies: openAiReplies,
    goneUrl: async () => {
      const gone = await startFakeOpenAi();
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
  it('streams text deltas, a tool call assembled from pieces keyed by index, then done with the usage chunk', async () => {
    fake.enqueue(
      'tutor',
      openAiReplies.toolCall('present_choices', { prompt: 'Which organelle?', options: ['Nucleus', 'Mitochondrion'] }, {
        text: 'Try this one.',
        id: 'call_stream',
        chunkSize: 5,
        usage: { prompt_tokens: 1540, completion_tokens: 60, cached_tokens: 1500 },
      }),
    );
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events).toEqual([
      { type: 'text_delta', text: 'Try t' },
      { type: 'text_delta', text: 'his o' },
      { type: 'text_delta', text: 'ne.' },
      { type: 'tool_use', id: 'call_stream', name: 'present_choices', input: { prompt: 'Which organelle?', options: ['Nucleus', 'Mitochondrion'] } },
      { type: 'done', usage: { inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 }, stopReason: 'tool_use' },
    ]);
    expect(fake.requests[0]!.body.stream).toBe(true);
    expect(fake.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(records).toEqual([okRecord({ purpose: 'tutor', model: 'gpt-4.1', streamed: true, inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 })]);
  });

  it('passes on several tool calls of one reply in index order', async () => {
    fake.enqueue('tutor', {
      kind: 'message',
      content: 'Two at once.',
      toolCalls: [
        { id: 'call_a', name: 'present_choices', arguments: { prompt: 'Which?', options: ['a', 'b'] } },
        { id: 'call_b', name: 'exit_rabbit_hole', arguments: {} },
      ],
      chunkSize: 4,
    });
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events.filter((event) => event.type === 'tool_use')).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } },
      { type: 'tool_use', id: 'call_b', name: 'exit_rabbit_hole', input: {} },
    ]);
  });

  it('streams a structured answer as one tool_use once it is complete', async () => {
    fake.enqueue('tutor', { ...openAiReplies.structured({ response: 'Yes.', advance: true }), chunkSize: 3 });
    const events = await collect(makeClient().stream({ ...forcedRequest, structuredOutput: true }, live()));
    expect(events).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^call_/), name: 'grade_turn', input: { response: 'Yes.', advance: true } },
      { type: 'done', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'tool_use' },
    ]);
  });

  it('retries a stream that fails before anything reached the caller (500, then an error object in the stream)', async () => {
    fake.enqueue(
      'tutor',
      openAiReplies.serverError(500),
      { ...openAiReplies.text('never shown'), errorAfterEvents: { events: 1, type: 'server_error', message: 'The server had an error' } },
      openAiReplies.text('Hello!'),
    );
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event.type === 'text_delta' ? event.text : ''))).toEqual(['Hello!']);
    expect(fake.requests).toHaveLength(3);
    expect(records.map((record) => [record.outcome, record.status])).toEqual([
      ['error', 500],
      ['error', null],
      ['ok', null],
    ]);
  });

  it('retries a stream whose connection drops before any content', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('lost'), eventDelayMs: 10, dropAfterEvents: 1 }, openAiReplies.text('Back again.'));
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events[0]).toEqual({ type: 'text_delta', text: 'Back a' });
    expect(fake.requests).toHaveLength(2);
    expect(records.map((record) => [record.outcome, record.error?.slice(0, 10) ?? null])).toEqual([
      ['error', expect.any(String)],
      ['ok', null],
    ]);
  });

  it('retries a stream that ends without a finish_reason before any content, and fails one cut after text', async () => {
    fake.enqueue('tutor', { ...openAiReplies.toolCall('present_choices', { prompt: 'Which?', options: ['a', 'b'] }), omitFinish: true }, openAiReplies.text('Complete.'));
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'done']);
    expect(records.map((record) => [record.outcome, record.error])).toEqual([
      ['error', 'The stream ended before a finish_reason.'],
      ['ok', null],
    ]);

    fake.enqueue('tutor', { ...openAiReplies.text('Half a sentence'), chunkSize: 100, omitFinish: true });
    const shown: LlmStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of makeClient().stream(streamRequest, live())) shown.push(event);
    } catch (error) {
      caught = error;
    }
    expect(shown).toEqual([{ type: 'text_delta', text: 'Half a sentence' }]);
    expect((caught as LlmError).kind).toBe('connection');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a stream cut off after text was shown', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('Half a sentence and then'), chunkSize: 100, eventDelayMs: 10, dropAfterEvents: 2 }, openAiReplies.text('unused'));
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

  it('does not retry once text was delivered: the error object surfaces after the text', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('Half a sentence and then'), chunkSize: 100, errorAfterEvents: { events: 2, type: 'server_error', message: 'Overloaded' } });
    const events: LlmStreamEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of makeClient().stream(streamRequest, live())) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text_delta', text: 'Half a sentence and then' }]);
    expect(caught).toBeInstanceOf(LlmError);
    expect((caught as LlmError).kind).toBe('server_error');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails a stream with a line that is not JSON as a bad response, not retried', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('Fine so far'), malformedAfterEvents: 1 }, openAiReplies.text('unused'));
    const error = await failure(collect(makeClient().stream(streamRequest, live())));
    expect(error.kind).toBe('bad_response');
    expect(fake.requests).toHaveLength(1);
    expect(records.map((record) => record.outcome)).toEqual(['error']);
  });

  it('times out a stream that falls silent mid-way', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('Hello there, how are you?'), chunkSize: 100, stallAfterEvents: 2 });
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
    fake.enqueue('tutor', openAiReplies.hang());
    const started = Date.now();
    const error = await failure(collect(makeClient({ timeoutMs: 300 }).stream(streamRequest, live())));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1200);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops promptly when the signal aborts mid-stream', async () => {
    fake.enqueue('tutor', { ...openAiReplies.text('one two three four five six seven eight'), chunkSize: 4, eventDelayMs: 40 });
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
    fake.enqueue('tutor', { ...openAiReplies.text('one two three four five six'), chunkSize: 4, eventDelayMs: 30 });
    for await (const event of makeClient().stream(streamRequest, live())) {
      expect(event).toEqual({ type: 'text_delta', text: 'one ' });
      break;
    }
    expect(records.map((record) => [record.outcome, record.error])).toEqual([['aborted', 'The caller stopped reading the stream.']]);
    await expect.poll(() => fake.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('turns broken tool-call JSON into an empty input rather than failing the reply', async () => {
    fake.enqueue('tutor', openAiReplies.toolCall('present_choices', null, { id: 'call_bad', rawArguments: '{"prompt": "Which', finishReason: 'length' }));
    const events = await collect(makeClient().stream(streamRequest, live()));
    expect(events).toEqual([
      { type: 'tool_use', id: 'call_bad', name: 'present_choices', input: {} },
      { type: 'done', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }, stopReason: 'max_tokens' },
    ]);
  });
});
