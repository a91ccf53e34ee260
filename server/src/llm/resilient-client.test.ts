/**
 * SPEC §7 — the resilient client over a fake transport (fake-transport.ts): retries with
 * backoff honouring retry-after, no retry of what cannot succeed, per-call timeouts,
 * cancellation, one record per attempt. Time is faked, so every pause is exact. The same
 * client over the real Anthropic transport and SDK: server/test/anthropic/anthropic-client.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../core/ports';
import { createFakeTransport, fakeSteps, type FakeStep } from './fake-transport';
import { LlmError, type LlmCallRecord, type LlmRequest, type LlmStreamEvent } from './llm-client';
import { createResilientClient, type ResilientClientOptions } from './resilient-client';

let records: LlmCallRecord[];
let warnings: string[];

const logger: Logger = { debug() {}, info() {}, warn: (_object, message) => warnings.push(message ?? ''), error() {} };

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
  records = [];
  warnings = [];
});
afterEach(() => {
  vi.useRealTimers();
});

const request: LlmRequest = {
  purpose: 'evaluator',
  sessionId: 'session-1',
  model: 'model-small',
  system: [{ text: 'Instructions.' }],
  messages: [{ role: 'user', content: 'Hello' }],
  maxTokens: 100,
};

function setup(script: FakeStep[], options: Partial<Omit<ResilientClientOptions, 'transport'>> = {}) {
  const transport = createFakeTransport({ script });
  const client = createResilientClient({
    transport,
    timeoutMs: 1000,
    maxAttempts: 3,
    retryBaseDelayMs: 100,
    retryMaxDelayMs: 10_000,
    recordCall: (record) => records.push(record),
    logger,
    random: () => 0,
    now: () => Date.now(),
    clock: () => new Date(Date.now()),
    ...options,
  });
  return { transport, client };
}

const live = () => new AbortController().signal;

/** Settles `promise` as a result, so a rejection never goes unhandled while timers advance. */
function settle<T>(promise: Promise<T>): { readonly value: T | undefined; readonly error: unknown; readonly done: boolean } {
  const state = { value: undefined as T | undefined, error: undefined as unknown, done: false };
  promise.then(
    (value) => Object.assign(state, { value, done: true }),
    (error: unknown) => Object.assign(state, { error, done: true }),
  );
  return state;
}

async function collect(iterable: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const recordOf = (fields: Partial<LlmCallRecord>) => ({
  purpose: 'evaluator',
  sessionId: 'session-1',
  provider: 'anthropic',
  model: 'model-small',
  attempt: 1,
  streamed: false,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  latencyMs: 0,
  outcome: 'ok',
  status: null,
  error: null,
  startedAt: expect.any(Date),
  ...fields,
});

describe('complete', () => {
  it('passes the request and the time budget to the transport, and records the call with its usage', async () => {
    const { transport, client } = setup([fakeSteps.text('Hi.', { inputTokens: 12, outputTokens: 3, cacheReadTokens: 7 })]);
    expect(await client.complete(request, live())).toEqual({
      content: [{ type: 'text', text: 'Hi.' }],
      usage: { inputTokens: 12, outputTokens: 3, cacheReadTokens: 7, cacheWriteTokens: 0 },
      stopReason: 'end_turn',
    });
    expect(transport.calls.map(({ method, request: sent, timeoutMs, cancelled }) => ({ method, sent, timeoutMs, cancelled }))).toEqual([
      { method: 'send', sent: request, timeoutMs: 1000, cancelled: false },
    ]);
    expect(records).toEqual([recordOf({ inputTokens: 12, outputTokens: 3, cacheReadTokens: 7 })]);
  });

  it('retries a retryable failure after exactly the retry-after the API asked for, recording each attempt', async () => {
    const { transport, client } = setup([fakeSteps.rateLimited(5000), fakeSteps.text('Fine.')]);
    const result = settle(client.complete(request, live()));
    await vi.advanceTimersByTimeAsync(4999);
    expect(transport.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.calls).toHaveLength(2);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(result.value?.content).toEqual([{ type: 'text', text: 'Fine.' }]);
    expect(records).toEqual([
      recordOf({ attempt: 1, outcome: 'error', status: 429, error: 'fake rate_limited (429)' }),
      recordOf({ attempt: 2, inputTokens: 10, outputTokens: 5, startedAt: new Date('2026-11-21T12:00:05Z') }),
    ]);
    expect(warnings).toEqual(['model call failed; retrying']);
  });

  it('caps retry-after at retryMaxDelayMs', async () => {
    const { transport, client } = setup([fakeSteps.rateLimited(60_000), fakeSteps.text('Fine.')], { retryMaxDelayMs: 2000 });
    const result = settle(client.complete(request, live()));
    await vi.advanceTimersByTimeAsync(1999);
    expect(transport.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(transport.calls).toHaveLength(2);
  });

  it('backs off exponentially with equal jitter when the API names no delay', async () => {
    const { transport, client } = setup([fakeSteps.overloaded(), fakeSteps.serverError(503), fakeSteps.text('Third time.')], { random: () => 0.5 });
    const result = settle(client.complete(request, live()));
    // Attempt 1 → ceiling 100 ms, pause 50 + 0.5 × 50 = 75; attempt 2 → ceiling 200, pause 150.
    await vi.advanceTimersByTimeAsync(74);
    expect(transport.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(149);
    expect(transport.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(transport.calls).toHaveLength(3);
    expect(records.map((record) => [record.attempt, record.outcome, record.status])).toEqual([
      [1, 'error', 529],
      [2, 'error', 503],
      [3, 'ok', null],
    ]);
  });

  it('never retries a failure the transport calls non-retryable', async () => {
    const { transport, client } = setup([fakeSteps.badRequest(), fakeSteps.text('unused')]);
    const error = await client.complete(request, live()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({ kind: 'request_rejected', status: 400, attempts: 1, name: 'LlmError' });
    expect(transport.calls).toHaveLength(1);
    expect(records).toEqual([recordOf({ outcome: 'error', status: 400, error: 'fake request_rejected (400)' })]);
  });

  it('gives up after maxAttempts with the last failure', async () => {
    const { transport, client } = setup([fakeSteps.serverError(500), fakeSteps.serverError(502), fakeSteps.serverError(503), fakeSteps.text('too late')]);
    const result = settle(client.complete(request, live()));
    await vi.runAllTimersAsync();
    expect(result.error).toMatchObject({ kind: 'server_error', status: 503, attempts: 3 });
    expect(transport.calls).toHaveLength(3);
    expect(records.map((record) => record.status)).toEqual([500, 502, 503]);
  });

  it('takes an LlmError the transport throws as it is, counted as this attempt', async () => {
    const { transport, client } = setup([{ fail: new LlmError('connection', 'socket hang up') }, { fail: new LlmError('bad_response', 'not JSON') }]);
    const result = settle(client.complete(request, live()));
    await vi.runAllTimersAsync();
    expect(result.error).toMatchObject({ kind: 'bad_response', message: 'not JSON', attempts: 2 });
    expect(transport.calls).toHaveLength(2);
  });

  it('times a hanging call out after timeoutMs, cancels it, and does not retry it', async () => {
    const { transport, client } = setup(['hang', fakeSteps.text('unused')]);
    const result = settle(client.complete(request, live()));
    await vi.advanceTimersByTimeAsync(999);
    expect(result.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(result.error).toMatchObject({ kind: 'timeout', name: 'TimeoutError', message: 'The model call timed out after 1000 ms.', attempts: 1 });
    expect(transport.calls.map((call) => call.cancelled)).toEqual([true]);
    expect(records).toEqual([recordOf({ outcome: 'timeout', error: 'The model call timed out after 1000 ms.', latencyMs: 1000 })]);
  });

  it('retries a timed-out call when retryTimeouts is set', async () => {
    const { transport, client } = setup(['hang', fakeSteps.text('Second try.')], { retryTimeouts: true });
    const result = settle(client.complete(request, live()));
    await vi.advanceTimersByTimeAsync(1000 + 50);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(result.value?.content).toEqual([{ type: 'text', text: 'Second try.' }]);
    expect(records.map((record) => record.outcome)).toEqual(['timeout', 'ok']);
    expect(transport.calls).toHaveLength(2);
  });

  it('rejects at once when the caller aborts mid-request, cancelling the request', async () => {
    const { transport, client } = setup(['hang']);
    const controller = new AbortController();
    const result = settle(client.complete(request, controller.signal));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(result.done).toBe(true);
    expect(result.error).toMatchObject({ kind: 'aborted', name: 'AbortError', attempts: 1 });
    expect(transport.calls[0]!.cancelled).toBe(true);
    expect(records).toEqual([recordOf({ outcome: 'aborted', error: 'The model call was cancelled.', latencyMs: 10 })]);
  });

  it('rejects at once when the caller aborts during a backoff pause, without another request', async () => {
    const { transport, client } = setup([fakeSteps.rateLimited(5000), fakeSteps.text('unused')]);
    const controller = new AbortController();
    const result = settle(client.complete(request, controller.signal));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(result.done).toBe(true);
    expect(result.error).toMatchObject({ kind: 'aborted', attempts: 1 });
    expect(transport.calls).toHaveLength(1);
  });

  it('makes no request when the signal is already aborted', async () => {
    const { transport, client } = setup([fakeSteps.text('unused')]);
    const controller = new AbortController();
    controller.abort();
    await expect(client.complete(request, controller.signal)).rejects.toMatchObject({ kind: 'aborted', attempts: 0 });
    expect(transport.calls).toHaveLength(0);
    expect(records).toEqual([]);
  });

  it('goes on when the recorder throws, and logs it', async () => {
    const { client } = setup([fakeSteps.text('Fine.')], {
      recordCall: () => {
        throw new Error('database is locked');
      },
    });
    await expect(client.complete(request, live())).resolves.toMatchObject({ stopReason: 'end_turn' });
    expect(warnings).toEqual(['recording an llm call failed']);
  });
});

describe('stream', () => {
  const streamRequest: LlmRequest = { ...request, purpose: 'tutor', model: 'model-large' };
  const streamRecord = (fields: Partial<LlmCallRecord>) => recordOf({ purpose: 'tutor', model: 'model-large', streamed: true, ...fields });

  it('passes text, tool calls and done through, keeps usage and progress to itself, and records the final usage', async () => {
    const { client } = setup([
      {
        events: [
          { type: 'usage', usage: { inputTokens: 40, outputTokens: 1, cacheReadTokens: 1500, cacheWriteTokens: 0 } },
          { type: 'text_delta', text: 'Try ' },
          { type: 'progress' },
          { type: 'text_delta', text: 'this.' },
          { type: 'tool_use', id: 'call-1', name: 'present_choices', input: { prompt: 'Which?' } },
          { type: 'done', usage: { inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 }, stopReason: 'tool_use' },
        ],
      },
    ]);
    expect(await collect(client.stream(streamRequest, live()))).toEqual([
      { type: 'text_delta', text: 'Try ' },
      { type: 'text_delta', text: 'this.' },
      { type: 'tool_use', id: 'call-1', name: 'present_choices', input: { prompt: 'Which?' } },
      { type: 'done', usage: { inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500, cacheWriteTokens: 0 }, stopReason: 'tool_use' },
    ]);
    expect(records).toEqual([streamRecord({ inputTokens: 40, outputTokens: 60, cacheReadTokens: 1500 })]);
  });

  it('retries a stream that failed before anything reached the caller, recording the usage reported before the failure', async () => {
    const { transport, client } = setup([
      { events: [{ type: 'usage', usage: { inputTokens: 30, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } }], then: { fail: new LlmError('overloaded', 'Overloaded') } },
      fakeSteps.streamText(['Hello!']),
    ]);
    const result = settle(collect(client.stream(streamRequest, live())));
    await vi.runAllTimersAsync();
    expect(result.value?.filter((event) => event.type === 'text_delta')).toEqual([{ type: 'text_delta', text: 'Hello!' }]);
    expect(transport.calls).toHaveLength(2);
    expect(records).toEqual([
      streamRecord({ attempt: 1, outcome: 'error', error: 'Overloaded', inputTokens: 30 }),
      streamRecord({ attempt: 2, inputTokens: 10, outputTokens: 5, startedAt: expect.any(Date), latencyMs: expect.any(Number) }),
    ]);
  });

  it('does not retry once text reached the caller: the error follows the text', async () => {
    const { transport, client } = setup([{ events: [{ type: 'text_delta', text: 'Half a sentence' }], then: { fail: new LlmError('connection', 'cut off') } }, fakeSteps.streamText(['unused'])]);
    const events: LlmStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of client.stream(streamRequest, live())) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(events).toEqual([{ type: 'text_delta', text: 'Half a sentence' }]);
    expect(error).toMatchObject({ kind: 'connection', attempts: 1 });
    expect(transport.calls).toHaveLength(1);
  });

  it('treats a transport stream that ends without done as a dropped connection, and retries it', async () => {
    const { transport, client } = setup([{ events: [{ type: 'progress' }] }, fakeSteps.streamText(['Back.'])]);
    const result = settle(collect(client.stream(streamRequest, live())));
    await vi.runAllTimersAsync();
    expect(result.value?.[0]).toEqual({ type: 'text_delta', text: 'Back.' });
    expect(records.map((record) => [record.outcome, record.error])).toEqual([
      ['error', 'The stream ended without a done event.'],
      ['ok', null],
    ]);
    expect(transport.calls).toHaveLength(2);
  });

  it('times out a stream that falls silent for timeoutMs, but not while the caller holds an event', async () => {
    const { transport, client } = setup([{ events: [{ type: 'text_delta', text: 'Hello' }], then: 'hang' }]);
    const iterator = client.stream(streamRequest, live())[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { type: 'text_delta', text: 'Hello' } });
    // The caller takes its time: its own pace does not count against the budget.
    await vi.advanceTimersByTimeAsync(5000);
    expect(transport.calls[0]!.cancelled).toBe(false);
    const result = settle(iterator.next());
    await vi.advanceTimersByTimeAsync(999);
    expect(result.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(result.done).toBe(true));
    expect(result.error).toMatchObject({ kind: 'timeout', attempts: 1 });
    expect(transport.calls[0]!.cancelled).toBe(true);
    expect(records.map((record) => record.outcome)).toEqual(['timeout']);
  });

  it('stops at once when the caller aborts mid-stream', async () => {
    const { transport, client } = setup([{ events: [{ type: 'text_delta', text: 'one ' }], then: 'hang' }]);
    const controller = new AbortController();
    const events: LlmStreamEvent[] = [];
    const result = settle(
      (async () => {
        for await (const event of client.stream(streamRequest, controller.signal)) {
          events.push(event);
          controller.abort();
        }
      })(),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(result.done).toBe(true);
    expect(events).toEqual([{ type: 'text_delta', text: 'one ' }]);
    expect(result.error).toMatchObject({ kind: 'aborted', name: 'AbortError' });
    expect(transport.calls[0]!.cancelled).toBe(true);
    expect(records.map((record) => record.outcome)).toEqual(['aborted']);
  });

  it('cancels the request and records it as aborted when the caller stops reading', async () => {
    const { transport, client } = setup([fakeSteps.streamText(['one ', 'two ', 'three'])]);
    for await (const event of client.stream(streamRequest, live())) {
      expect(event).toEqual({ type: 'text_delta', text: 'one ' });
      break;
    }
    expect(transport.calls[0]!.cancelled).toBe(true);
    expect(records.map((record) => [record.outcome, record.error, record.outputTokens])).toEqual([['aborted', 'The caller stopped reading the stream.', 1]]);
  });
});
