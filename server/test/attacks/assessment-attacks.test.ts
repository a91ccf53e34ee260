/**
 * Regression tests for what an outside learner found in assessments (SPEC §4.3, §8):
 * a code answer in flight when the server was killed mid-scoring was lost, and the review
 * of a fixed form's first attempt answered its second attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, SessionSummary } from '@tutorloop/shared';
import { sessionTypeCatalog } from '../../src/core/session-type-states';
import type { Storage } from '../../src/core/storage/storage';
import { openSqliteStorage } from '../../src/db/sqlite-storage';
import { postJson, startServerProcess } from '../helpers/server-process';
import { SocketClient, startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The storage port on the data folder of a server process, opened the way the server opens it:
 * the test reads what the server stored (while it runs, and after it was killed) through the
 * port, never with SQL of its own. WAL lets this connection read beside the server's.
 */
function openStoredData(dataDir: string): Storage {
  return openSqliteStorage(path.join(dataDir, 'tutorloop.sqlite'), sessionTypeCatalog);
}

describe('a code answer in flight when the server is killed', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => cleanup.splice(0).forEach((step) => step()));

  it('is stored before it is scored, and scored after the restart without the learner retyping it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-midscore-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServerProcess(dataDir);
    cleanup.push(() => void first.child.kill('SIGKILL'));
    const { token } = await postJson<AuthResponse>(first.url, '/api/auth/register', { username: 'midscore', password: 'correct horse battery' });
    const { sessionId } = await postJson<{ sessionId: string }>(first.url, '/api/sessions', { type: 'assessment', blueprintId: 'PYTHON-STRINGS-L1' }, token);
    const socketUrl = (base: string) => `${base.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${encodeURIComponent(token)}`;
    const client = await SocketClient.open(socketUrl(first.url));
    cleanup.push(() => client.close());

    // The three reading items, then the first code item.
    let widget = await client.waitFor('widget', { timeoutMs: 15_000 });
    while (widget.payload.kind === 'multiple_choice') {
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 0 } } });
      widget = await client.waitFor('widget', { from: start, timeoutMs: 15_000 });
    }
    const codeWidgetId = widget.payload.widgetId;
    // Opened once, after the server created the file: the poll below must see the answer the moment it commits.
    const stored = openStoredData(dataDir);
    cleanup.push(() => void stored.close());
    const item = (await stored.read((reader) => reader.assessments.listItems(sessionId))).find((candidate) => candidate.widgetId === codeWidgetId);
    if (!item) throw new Error('the code item was not stored before its widget was shown');
    const correctAnswer = item.item.correctAnswer;
    client.send({ type: 'widget_response', payload: { widgetId: codeWidgetId, response: { code: correctAnswer, language: 'python' } } });

    // Kill the moment the answer is stored: the sandbox has not even booted (the first run pays the cold start).
    const answerStored = async () =>
      (await stored.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }))).some((message) => message.role === 'tool_result' && message.content === correctAnswer);
    const deadline = Date.now() + 10_000;
    while (!(await answerStored())) {
      if (Date.now() > deadline) throw new Error('the code answer was never stored');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const responsesTo = async (itemId: string) => (await stored.read((reader) => reader.assessments.listResponses(sessionId))).filter((response) => response.itemId === itemId);
    expect(await responsesTo(item.id)).toHaveLength(0);

    const second = await startServerProcess(dataDir);
    cleanup.push(() => void second.child.kill('SIGKILL'));
    const again = await SocketClient.open(socketUrl(second.url));
    cleanup.push(() => again.close());
    // The stored answer is in the history, and the session moves on to the next item by itself.
    const history = await again.waitFor('history');
    expect(history.payload.messages.some((message) => message.content === correctAnswer)).toBe(true);
    const next = await again.waitFor('widget', { where: (event) => event.payload.widgetId !== codeWidgetId, timeoutMs: 60_000 });
    expect(next.payload.kind).toBe('code_editor');
    const response = await responsesTo(item.id);
    expect(response).toHaveLength(1);
    expect(response[0]).toMatchObject({ answerText: correctAnswer, credit: 1 });
    expect(response[0]!.testsPassed).toBe(response[0]!.testsTotal);
  }, 180_000);
});

describe('a fixed form attempted twice', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  async function attempt(token: string, answerFor: (stem: string) => number | string | undefined) {
    const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'assessment', blueprintId: 'PYTHON-STRINGS-L1' } });
    const sessionId = created.body.sessionId;
    const client = await server.connect(sessionId, token);
    let widget = await client.waitFor('widget');
    const stems: string[] = [];
    let summary: SessionSummary | undefined;
    for (let position = 1; position <= 6; position += 1) {
      const prompt = (widget.payload.props as { prompt: string }).prompt;
      stems.push(prompt);
      const known = answerFor(prompt);
      const start = client.events.length;
      const response =
        widget.payload.kind === 'multiple_choice'
          ? { selectedIndex: typeof known === 'number' ? known : 0 }
          : { code: typeof known === 'string' ? known : 'def nothing():\n    pass\n', language: 'python' as const };
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response } });
      if (position < 6) widget = await client.waitFor('widget', { from: start, timeoutMs: 60_000 });
      else summary = (await client.waitFor('session_complete', { from: start, timeoutMs: 60_000 })).payload.summary;
    }
    client.close();
    return { stems, summary: summary! };
  }

  it('gives the second attempt fresh variants, so the first review does not answer it', async () => {
    const { token } = await server.register();
    const first = await attempt(token, () => undefined);
    // What a learner copies from the first review: each item's stem and its correct answer.
    const review = new Map(first.summary.assessment!.items.map((reviewed) => [reviewed.stem, reviewed]));
    expect(review.size).toBe(6);
    // The review names items by the very prompts the widgets showed, so a repeat would be recognised.
    expect([...review.keys()].sort()).toEqual([...first.stems].sort());
    const second = await attempt(token, (stem) => {
      const reviewed = review.get(stem);
      if (!reviewed) return undefined;
      return reviewed.options ? reviewed.options.indexOf(reviewed.correctAnswer) : reviewed.correctAnswer;
    });
    expect(second.stems.filter((stem) => review.has(stem))).toEqual([]);
    expect(second.summary.assessment!.items).toHaveLength(6);
  }, 180_000);
});
