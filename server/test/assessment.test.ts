/**
 * Assessment sessions end to end (SPEC §4.3): blueprints over HTTP, items presented as
 * widgets and scored by the server (choices by exact match, code by tests in the sandbox),
 * IRT-lite abilities stored, a server-enforced time limit, results only after the end —
 * and nothing before the end that gives an answer away, to the learner or to any model.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BlueprintList, SessionSummary } from '@tutorloop/shared';
import type { Clock } from '../src/core/ports';
import type { StoredItem } from '../src/core/storage/assessments';
import { startAnthropicTestServer, type AnthropicTestServer } from './helpers/anthropic-test-server';
import { fakeReplies, type FakeAnthropic } from './helpers/fake-anthropic';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

/** The stored item behind a widget: what the server scores against (read through the storage port). */
async function storedItem(server: TestServer, sessionId: string, widgetId: string): Promise<StoredItem> {
  const items = await server.server.storage.read((reader) => reader.assessments.listItems(sessionId));
  const stored = items.find((candidate) => candidate.widgetId === widgetId);
  if (!stored) throw new Error(`no item for widget ${widgetId}`);
  return stored;
}

/** A string argument as Python writes it (the samples hold no quote, backslash or control character). */
function pythonLiteral(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** Keys and markers that must never reach the learner before the end. */
const secretKeys = ['correctIndex', 'correct_index', 'correctAnswer', 'credit', 'expected', '"tests"', 'fingerprint', 'difficulty', '"params"', 'score'];

async function startAssessment(server: TestServer, blueprintId: string) {
  const { token } = await server.register();
  const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'assessment', blueprintId } });
  expect(created.status).toBe(201);
  const sessionId = created.body.sessionId;
  const client = await server.connect(sessionId, token);
  return { token, sessionId, client };
}

/** Answers the current item; returns the next widget or the completion. */
async function answer(client: SocketClient, response: { selectedIndex: number } | { code: string; language: 'python' }, widgetId: string) {
  const start = client.events.length;
  client.send({ type: 'widget_response', payload: { widgetId, response } });
  const next = await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.status !== 'active', timeoutMs: 15_000 });
  return { start, state: next.payload.state };
}

describe('blueprints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('lists the shipped assessments, and refuses an unknown one clearly', async () => {
    const { token } = await server.register();
    const list = await server.api<BlueprintList>('GET', '/api/blueprints', { token });
    expect(list.status).toBe(200);
    const ids = list.body.blueprints.map((blueprint) => blueprint.id);
    expect(ids).toEqual(expect.arrayContaining(['MATH-FUNDAMENTALS-L1', 'NETWORKING-IPV4-L1', 'PYTHON-STRINGS-L1']));
    const math = list.body.blueprints.find((blueprint) => blueprint.id === 'MATH-FUNDAMENTALS-L1')!;
    expect(math).toMatchObject({ totalItems: 20, timeLimitSeconds: 1800 });
    expect(math.sections).toHaveLength(4);
    const missing = await server.api<{ error: { code: string; message: string } }>('POST', '/api/sessions', { token, body: { type: 'assessment', blueprintId: 'NOPE-1' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('NOPE-1');
    expect((await server.api('GET', '/api/blueprints')).status).toBe(401);
  });
});

describe('MATH-FUNDAMENTALS-L1 over the WebSocket', () => {
  let fake: FakeAnthropic;
  let server: TestServer;
  let running: AnthropicTestServer;
  beforeAll(async () => {
    // An Anthropic provider is configured, so any model call would be seen by the fake.
    running = await startAnthropicTestServer();
    ({ fake, server } = running);
    fake.setDefault('tutor', fakeReplies.text('A model was asked to speak.'));
  });
  afterAll(async () => running.close());

  it('presents 20 unique items, scores them on the server, and reveals nothing before the end', async () => {
    const { token, sessionId, client } = await startAssessment(server, 'MATH-FUNDAMENTALS-L1');
    let widget = await client.waitFor('widget');
    const stems = new Set<string>();
    let expectedScore = 0;
    const wrongPositions = new Set([2, 7, 13]);
    let summary: SessionSummary | null = null;
    // A chat question mid-assessment gets no hint, and changes nothing.
    let start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'Can you give me a hint for this one?' } });
    const chatReply = await client.waitFor('assistant', { from: start });
    expect(chatReply.payload.message).toContain('can’t give hints');

    for (let position = 1; position <= 20; position += 1) {
      if (widget.payload.kind !== 'multiple_choice') throw new Error(`item ${position} is ${widget.payload.kind}`);
      const state = client.events.filter((event) => event.type === 'state_update').at(-1)!.payload.state;
      expect(state.assessment).toMatchObject({ answered: position - 1, totalItems: 20, currentPosition: position });
      stems.add(widget.payload.props.prompt);
      const item = await storedItem(server, sessionId, widget.payload.widgetId);
      expect(item.position).toBe(position);
      const options = widget.payload.props.options;
      expect(new Set(options).size).toBe(options.length);
      const correct = item.item.correctIndex!;
      const pick = wrongPositions.has(position) ? (correct + 1) % options.length : correct;
      if (pick === correct) expectedScore += 1;
      start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: pick } } });
      if (position < 20) {
        widget = await client.waitFor('widget', { from: start });
      } else {
        summary = (await client.waitFor('session_complete', { from: start })).payload.summary;
      }
    }
    expect(stems.size).toBe(20);

    // Before the completion: no frame carries an answer, a score or a test.
    const completeAt = client.events.findIndex((event) => event.type === 'session_complete');
    const before = JSON.stringify(client.events.slice(0, completeAt));
    for (const key of secretKeys) expect(before).not.toContain(key);
    // No model was ever asked anything in an assessment, so no answer entered a model context.
    expect(fake.requests).toEqual([]);

    expect(summary!.reason).toBe('all_answered');
    const results = summary!.assessment!;
    expect(results).toMatchObject({ blueprintId: 'MATH-FUNDAMENTALS-L1', score: expectedScore, maxScore: 20, answered: 20 });
    expect(results.percent).toBeCloseTo(expectedScore / 20, 4);
    expect(results.domains).toHaveLength(4);
    expect(results.domains.reduce((sum, domain) => sum + domain.score, 0)).toBe(expectedScore);
    expect(results.items).toHaveLength(20);
    const items = await server.server.storage.read((reader) => reader.assessments.listItems(sessionId));
    for (const review of results.items) {
      const stored = items.find((candidate) => candidate.position === review.position)!;
      expect(review.correctAnswer).toBe(stored.item.correctAnswer);
      expect(review.credit).toBe(wrongPositions.has(review.position) ? 0 : 1);
      expect(review.learnerAnswer).not.toBeNull();
    }
    // The same results over HTTP; abilities were stored after each response.
    const viaHttp = await server.api<{ summary: SessionSummary }>('GET', `/api/sessions/${sessionId}/summary`, { token });
    expect(viaHttp.body.summary.assessment!.score).toBe(expectedScore);
    const abilities = await server.server.storage.read((reader) => reader.assessments.listAbilities(sessionId));
    expect(abilities.find((row) => row.domain === '*')!.responses).toBe(20);
    expect(abilities).toHaveLength(5);
    client.close();
  });

  it('refuses invalid and stale answers without losing the item, and restores it on reconnect', async () => {
    const { token, sessionId, client } = await startAssessment(server, 'MATH-FUNDAMENTALS-L1');
    const widget = await client.waitFor('widget');
    if (widget.payload.kind !== 'multiple_choice') throw new Error('expected multiple choice');
    let start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 99 } } });
    expect((await client.waitFor('error', { from: start })).payload.code).toBe('invalid_payload');
    start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: 'not-a-widget', response: { selectedIndex: 0 } } });
    expect((await client.waitFor('error', { from: start })).payload.code).toBe('widget_not_pending');
    start = client.events.length;
    client.send({ type: 'rabbithole', payload: { action: 'enter', topic: 'carries' } });
    expect((await client.waitFor('error', { from: start })).payload.code).toBe('invalid_payload');
    client.close();

    const again = await server.connect(sessionId, token);
    const restored = await again.waitFor('widget');
    expect(restored.payload).toEqual(widget.payload);
    const first = await answer(again, { selectedIndex: 0 }, restored.payload.widgetId);
    expect(first.state.assessment).toMatchObject({ answered: 1, currentPosition: 2 });
    const list = await server.api<{ sessions: Array<{ id: string; type: string; recalledCount: number; totalPoints: number }> }>('GET', '/api/sessions', { token });
    expect(list.body.sessions.find((row) => row.id === sessionId)).toMatchObject({ type: 'assessment', recalledCount: 1, totalPoints: 20 });
    // A second submit of the same item is processed once.
    start = again.events.length;
    again.send({ type: 'widget_response', payload: { widgetId: restored.payload.widgetId, response: { selectedIndex: 1 } } });
    expect((await again.waitFor('error', { from: start })).payload.code).toBe('widget_not_pending');
    again.close();
  });
});

describe('the time limit', () => {
  let now = Date.parse('2026-11-22T09:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(async () => server.close());

  it('is the server’s: an answer after the deadline ends the session and only earlier answers count', async () => {
    const { sessionId, client } = await startAssessment(server, 'MATH-FUNDAMENTALS-L1');
    let widget = await client.waitFor('widget');
    const state = client.events.filter((event) => event.type === 'state_update').at(-1)!.payload.state;
    expect(state.assessment!.deadline).toBe(new Date(now + 30 * 60_000).toISOString());
    expect(state.assessment!.remainingSeconds).toBe(1800);
    let correct = 0;
    for (let position = 1; position <= 3; position += 1) {
      now += 60_000;
      const item = await storedItem(server, sessionId, widget.payload.widgetId);
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: item.item.correctIndex! } } });
      correct += 1;
      widget = await client.waitFor('widget', { from: start });
    }
    now += 30 * 60_000;
    const start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 0 } } });
    const complete = await client.waitFor('session_complete', { from: start });
    expect((await client.waitFor('error', { from: start })).payload.code).toBe('session_ended');
    expect(complete.payload.summary).toMatchObject({ reason: 'time_expired', recalledCount: 3, totalPoints: 20 });
    expect(complete.payload.summary.assessment).toMatchObject({ score: correct, answered: 3 });
    // The item on screen at expiry is in the review, unanswered.
    expect(complete.payload.summary.assessment!.items.at(-1)).toMatchObject({ position: 4, learnerAnswer: null, credit: 0 });
    client.close();
  });
});

describe('PYTHON-STRINGS-L1: code scored by tests in the sandbox', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());
  const cleanup: Array<() => void> = [];
  afterEach(() => cleanup.splice(0).forEach((step) => step()));

  it('gives full credit to a working function and the share of tests passed to a wrong one', async () => {
    const { client, sessionId } = await startAssessment(server, 'PYTHON-STRINGS-L1');
    cleanup.push(() => client.close());
    let widget = await client.waitFor('widget');
    const expectedCredits: number[] = [];
    const codeTests = new Map<number, Array<{ args: unknown[]; expected: unknown; visible?: boolean }>>();
    for (let position = 1; position <= 6; position += 1) {
      const item = await storedItem(server, sessionId, widget.payload.widgetId);
      const start = client.events.length;
      if (widget.payload.kind === 'multiple_choice') {
        expectedCredits.push(1);
        client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: item.item.correctIndex! } } });
      } else {
        expect(widget.payload).toMatchObject({ kind: 'code_editor', props: { language: 'python' } });
        const task = item.item.code!;
        // The widget shows the task and its visible examples (issue 25), never a hidden test.
        const visible = task.tests.filter((test) => test.visible);
        expect(visible.length).toBeGreaterThan(0);
        expect(widget.payload.kind === 'code_editor' && widget.payload.props.examples).toEqual(
          visible.map((test) => ({ input: `${task.functionName}(${test.args.map((arg) => pythonLiteral(arg)).join(', ')})`, expected: String(test.expected) })),
        );
        const hidden = task.tests.filter((test) => !test.visible && test.args.some((arg) => arg !== '')).map((test) => `${task.functionName}(${test.args.map((arg) => pythonLiteral(arg)).join(', ')})`);
        for (const call of hidden) expect(JSON.stringify(widget.payload)).not.toContain(JSON.stringify(call).slice(1, -1));
        codeTests.set(position, task.tests);
        if (position === 4) {
          expectedCredits.push(1);
          client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { code: item.item.correctAnswer, language: 'python' } } });
        } else {
          // Always 0: right exactly where the expected count is 0 (e.g. the empty string).
          const zeros = task.tests.filter((test) => test.expected === 0).length;
          expectedCredits.push(zeros / task.tests.length);
          const code = `def ${task.functionName}(*args):\n    return 0\n`;
          client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { code, language: 'python' } } });
        }
      }
      if (position < 6) widget = await client.waitFor('widget', { from: start, timeoutMs: 20_000 });
      else {
        const complete = await client.waitFor('session_complete', { from: start, timeoutMs: 20_000 });
        const items = complete.payload.summary.assessment!.items;
        expect(items.map((review) => review.credit)).toEqual(expectedCredits.map((credit) => expect.closeTo(credit, 5)));
        const full = items.find((review) => review.position === 4)!;
        expect(full.tests!.passed).toBe(full.tests!.total);
        // Once it is over, every test of each code item: input, expected and actual output (issue 25 item 2).
        for (const [codePosition, tests] of codeTests) {
          const review = items.find((candidate) => candidate.position === codePosition)!;
          const zeroSolution = codePosition !== 4;
          expect(review.tests!.cases).toEqual(
            tests.map((test) => ({
              input: expect.stringMatching(/^count_\w+\(/),
              expected: String(test.expected),
              actual: zeroSolution ? '0' : String(test.expected),
              passed: zeroSolution ? test.expected === 0 : true,
              example: test.visible === true,
            })),
          );
        }
      }
    }
  }, 60_000);
});
