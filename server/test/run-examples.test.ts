/**
 * Issue 25 item 2 — "Run examples" on a code item, over REST against the real server (SQLite
 * file, real sandbox): the owner runs their code on the item's visible examples and sees each
 * input, expected and actual output; another learner gets a 404; nothing is stored (the item
 * still waits for its answer, no response, no message); runs are rate-limited per learner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunExamplesResponse, Widget } from '@tutorloop/shared';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

type ErrorBody = { error: { code: string; message: string } };

/** Working solutions of the three tasks, written from their descriptions. */
const solutions: Record<string, string> = {
  count_chars: 'def count_chars(s: str) -> int:\n    return len(s)\n',
  count_char: 'def count_char(s: str, ch: str) -> int:\n    return sum(1 for c in s if c == ch)\n',
  count_vowels: "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiouAEIOU')\n",
};

const rateLimit = 6;

describe('POST /api/sessions/{id}/items/{widgetId}/run-examples', () => {
  let server: TestServer;
  let owner: string;
  let sessionId: string;
  let client: SocketClient;
  let widget: Extract<Widget, { kind: 'code_editor' }>;
  let functionName: string;
  let runs = 0;

  const runExamples = async (body: unknown, token = owner, widgetId = widget.widgetId, session = sessionId) => {
    const response = await fetch(`${server.url}/api/sessions/${session}/items/${widgetId}/run-examples`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as never };
  };

  /** What storage holds for the session (read through the storage port): nothing a run may change. */
  const stored = () =>
    server.server.storage.read(async (reader) => {
      const session = await reader.sessions.get(sessionId);
      return {
        responses: (await reader.assessments.listResponses(sessionId)).length,
        messages: await reader.messages.count(sessionId),
        pending: (await reader.pendingActions.getPending(sessionId))?.id ?? null,
        session: { status: session?.status, turn: session?.turn, updatedAt: session?.updatedAt.getTime() },
      };
    });

  beforeAll(async () => {
    // A clock that stands still: the run budget does not refill while the test runs, so exactly
    // `rateLimit` runs are allowed however slow the sandbox's cold start is.
    const now = new Date();
    server = await startTestServer({ env: { CODE_RUN_RATE_LIMIT: String(rateLimit) }, clock: { now: () => new Date(now) } });
    owner = (await server.register()).token;
    const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token: owner, body: { type: 'assessment', blueprintId: 'PYTHON-STRINGS-L1' } });
    sessionId = created.body.sessionId;
    client = await server.connect(sessionId, owner);
    // The three reading items, then the first code item.
    let next = await client.waitFor('widget', { timeoutMs: 15_000 });
    while (next.payload.kind === 'multiple_choice') {
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: next.payload.widgetId, response: { selectedIndex: 0 } } });
      next = await client.waitFor('widget', { from: start, timeoutMs: 15_000 });
    }
    if (next.payload.kind !== 'code_editor') throw new Error('expected the first code item');
    widget = next.payload;
    functionName = /^def (\w+)\(/.exec(widget.props.starterCode ?? '')![1]!;
  }, 60_000);
  afterAll(async () => {
    client.close();
    await server.close();
  });

  it('runs the owner’s code on the visible examples only, with each input, expected and actual output, and stores nothing', async () => {
    const examples = widget.props.examples!;
    expect(examples).toHaveLength(2);
    const before = await stored();

    const right = await runExamples({ code: solutions[functionName], language: 'python' });
    runs++;
    expect(right.status).toBe(200);
    const body = right.body as RunExamplesResponse;
    expect(body).toEqual({
      examples: examples.map((example) => ({ input: example.input, expected: example.expected, actual: example.expected, passed: true, example: true })),
      passed: 2,
      total: 2,
      durationMs: expect.any(Number),
    });

    const constant = await runExamples({ code: `def ${functionName}(*args):\n    print('checking')\n    return 0\n`, language: 'python' });
    runs++;
    expect(constant.status).toBe(200);
    expect(constant.body).toMatchObject({
      examples: examples.map((example) => ({ input: example.input, expected: example.expected, actual: '0', passed: example.expected === '0' })),
      total: 2,
      output: 'checking\nchecking\n',
    });

    // Not an answer: the item still waits, nothing was stored, the session did not move.
    expect(await stored()).toEqual(before);
    const detail = await server.api<{ state: { status: string; pendingWidget?: { widgetId: string }; assessment?: { answered: number } } }>('GET', `/api/sessions/${sessionId}`, { token: owner });
    expect(detail.body.state).toMatchObject({ status: 'awaiting_client_action', pendingWidget: { widgetId: widget.widgetId }, assessment: { answered: 3 } });
    // No event reached the session's socket either.
    const eventsBefore = client.events.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.events.length).toBe(eventsBefore);
  }, 60_000);

  it('reports code that does not load, and refuses the wrong language', async () => {
    const broken = await runExamples({ code: `def ${functionName}(s:\n    return`, language: 'python' });
    runs++;
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({ passed: 0, total: 2, error: { kind: 'syntax' }, examples: [{ actual: null, passed: false }, { actual: null, passed: false }] });

    const javascript = await runExamples({ code: 'function f() {}', language: 'javascript' });
    expect(javascript).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload', message: 'language: this item is answered in Python.' } } });
    const malformed = await runExamples({ code: 42, language: 'python' });
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: 'invalid_payload' } } });
  }, 60_000);

  it('is the owner’s alone: another learner gets the same 404 as for a session that does not exist', async () => {
    const other = (await server.register()).token;
    const before = await stored();
    const foreign = await runExamples({ code: solutions[functionName], language: 'python' }, other);
    const missing = await runExamples({ code: solutions[functionName], language: 'python' }, other, widget.widgetId, '00000000-0000-4000-8000-000000000000');
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: 'not_found', message: 'No session with that id.' } } });
    expect(missing.body).toEqual(foreign.body);
    const unknownItem = await runExamples({ code: solutions[functionName], language: 'python' }, owner, 'no-such-widget');
    expect(unknownItem).toMatchObject({ status: 404, body: { error: { code: 'not_found', message: 'No code item with that id in this session.' } } });
    const signedOut = await fetch(`${server.url}/api/sessions/${sessionId}/items/${widget.widgetId}/run-examples`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(signedOut.status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it(`allows ${rateLimit} runs a minute per learner, then 429 with Retry-After, nothing run`, async () => {
    const before = await stored();
    while (runs < rateLimit) {
      expect((await runExamples({ code: solutions[functionName], language: 'python' })).status).toBe(200);
      runs++;
    }
    const refused = await runExamples({ code: solutions[functionName], language: 'python' });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'rate_limited', message: expect.stringMatching(new RegExp(`^Too many code runs: at most ${rateLimit} per 60 s\\. Retry in \\d+ s\\.$`)) } } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // Another learner has a budget of their own (and still only a 404 here).
    expect((await runExamples({ code: solutions[functionName], language: 'python' }, (await server.register()).token)).status).toBe(404);
    expect(await stored()).toEqual(before);
  }, 60_000);

  it('refuses an item already answered, and after the answer the item is scored as usual', async () => {
    const start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: widget.widgetId, response: { code: solutions[functionName]!, language: 'python' } } });
    await client.waitFor('widget', { from: start, timeoutMs: 30_000 });
    const answered = await runExamples({ code: solutions[functionName], language: 'python' });
    expect(answered).toMatchObject({ status: 409, body: { error: { code: 'widget_not_pending', message: 'That item was already answered: examples run only while it waits for an answer.' } } });
    const response = await server.server.storage.read(async (reader) => {
      const item = (await reader.assessments.listItems(sessionId)).find((candidate) => candidate.widgetId === widget.widgetId);
      return (await reader.assessments.listResponses(sessionId)).find((candidate) => candidate.itemId === item?.id);
    });
    expect(response).toMatchObject({ credit: 1, testsPassed: 9, testsTotal: 9 });
  }, 60_000);
});
