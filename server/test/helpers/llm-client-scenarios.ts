/**
 * What every vendor transport must do the same way inside the resilient client (SPEC §7):
 * time out a hanging call, stop at once when the session's signal aborts (mid-request, in a
 * backoff pause, or before anything was sent), retry a server that is not there, and survive
 * a failing call recorder. Each provider's client suite runs these against its own fake API;
 * what differs per wire (mapping, streaming formats) stays in that suite.
 */
import { expect, it } from 'vitest';
import { LlmError, type LlmCallRecord, type LlmClient, type LlmRequest, type LlmStreamEvent } from '../../src/llm/llm-client';

/** Rejection of `promise` as an LlmError (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected a rejection');
}

export async function collect(iterable: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** A provider's fake API as these scenarios drive it. */
interface ScenarioFake<Reply> {
  enqueue(route: 'other', ...replies: Reply[]): void;
  readonly requests: ReadonlyArray<{ clientClosedEarly: boolean }>;
  waitForRequests(count: number): Promise<unknown>;
}

export interface ClientScenarioContext<Reply> {
  /** The current test's fake (a fresh one per test). */
  fake(): ScenarioFake<Reply>;
  replies: { hang(): Reply; text(text: string): Reply; rateLimited(retryAfterSeconds: number): Reply };
  /** A fake started and closed at once: nothing listens at its URL. */
  goneUrl(): Promise<string>;
  makeClient(overrides?: { timeoutMs?: number; retryMaxDelayMs?: number; baseURL?: string; recordCall?: (record: LlmCallRecord) => void }): LlmClient;
  request: LlmRequest;
  /** The calls the current test's client recorded. */
  records(): LlmCallRecord[];
  /** The record of a call to `request`, with `fields` over it. */
  okRecord(fields: Partial<LlmCallRecord>): unknown;
}

const live = () => new AbortController().signal;

/** The scenarios, as `it` blocks of the caller's `describe('complete')`. */
export function clientCancellationScenarios<Reply>(context: ClientScenarioContext<Reply>): void {
  const { replies, makeClient, request, records, okRecord } = context;

  it('times out a hanging call within roughly the timeout, without retrying it', async () => {
    const fake = context.fake();
    fake.enqueue('other', replies.hang(), replies.text('unused'));
    const started = Date.now();
    const error = await failure(makeClient({ timeoutMs: 300 }).complete(request, live()));
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.name).toBe('TimeoutError');
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1200);
    expect(fake.requests).toHaveLength(1);
    expect(records()).toEqual([okRecord({ outcome: 'timeout', error: expect.stringContaining('timed out'), inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })]);
    await expect.poll(() => fake.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('rejects promptly when the session signal aborts mid-request, and cancels it on the wire', async () => {
    const fake = context.fake();
    fake.enqueue('other', replies.hang());
    const controller = new AbortController();
    const pending = failure(makeClient().complete(request, controller.signal));
    await fake.waitForRequests(1);
    const aborted = Date.now();
    controller.abort();
    const error = await pending;
    expect(Date.now() - aborted).toBeLessThan(200);
    expect({ kind: error.kind, name: error.name }).toEqual({ kind: 'aborted', name: 'AbortError' });
    expect(records().map((record) => record.outcome)).toEqual(['aborted']);
    await expect.poll(() => fake.requests[0]!.clientClosedEarly).toBe(true);
  });

  it('rejects promptly when the signal aborts during a backoff pause', async () => {
    const fake = context.fake();
    fake.enqueue('other', replies.rateLimited(30));
    const controller = new AbortController();
    const pending = failure(makeClient({ retryMaxDelayMs: 60_000 }).complete(request, controller.signal));
    await expect.poll(() => records().length).toBe(1);
    const aborted = Date.now();
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(Date.now() - aborted).toBeLessThan(200);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries connection failures (nothing listening) and then rejects with a connection error', async () => {
    const url = await context.goneUrl();
    const error = await failure(makeClient({ baseURL: url }).complete(request, live()));
    expect({ kind: error.kind, attempts: error.attempts }).toEqual({ kind: 'connection', attempts: 3 });
    expect(records().map((record) => [record.attempt, record.outcome])).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'error'],
    ]);
  });

  it('makes no request when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(makeClient().complete(request, controller.signal));
    expect(error.kind).toBe('aborted');
    expect(context.fake().requests).toHaveLength(0);
  });

  it('survives a recordCall that throws', async () => {
    const client = makeClient({
      recordCall: () => {
        throw new Error('database is locked');
      },
    });
    await expect(client.complete(request, live())).resolves.toMatchObject({ stopReason: 'end_turn' });
  });
}
