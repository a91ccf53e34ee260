/**
 * Cloze drills over the public protocol (SPEC §4.6, §5, §6): a whole drill over a real
 * WebSocket against the real server and its SQLite file — right at the first try (Good), at the
 * second (Hard), wrong twice (Again, the answer shown only then) — with the new due dates in
 * the set's schedule at once; the other frames refused in plain words; a reconnect and a
 * restart mid-drill resuming at the same point; ending early; and, with the Anthropic provider
 * against a fake Messages API, the tutor model's sentence added to the feedback while a
 * failing model changes nothing of the grade.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardList, RecallSetDetail, ServerEvent, SessionState, SessionSummary, Widget } from '@tutorloop/shared';
import { startAnthropicTestServer } from './helpers/anthropic-test-server';
import { fakeReplies } from './helpers/fake-anthropic';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const startedAt = new Date('2026-11-27T09:00:00.000Z');
const clock = { now: () => startedAt };

const cellPoint = 'The mitochondria is the powerhouse of the cell.';
const capitalPoint = 'Capital of France → Paris';
const sonnetPoint = 'A sonnet has fourteen lines.';

async function server(dataDir?: string): Promise<TestServer> {
  const started = await startTestServer({ clock, ...(dataDir ? { dataDir } : {}) });
  cleanup.push(() => started.close());
  return started;
}

/** Creates a drill over the set and opens its socket; its first widget. */
async function openDrill(target: TestServer, token: string, recallSetId: string) {
  const created = await target.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'cloze', recallSetId } });
  expect(created.status).toBe(201);
  const client = await target.connect(created.body.sessionId, token);
  cleanup.push(() => client.close());
  const widget = (await client.waitFor('widget')).payload;
  return { sessionId: created.body.sessionId, client, widget };
}

/** Answers the pending try; the tutor's line and the next widget (null once the drill completed). */
async function answer(client: SocketClient, widget: Widget, text: string): Promise<{ line: string; next: Widget | null }> {
  const from = client.events.length;
  client.send({ type: 'widget_response', payload: { widgetId: widget.widgetId, response: { text } } });
  const next = await Promise.race([client.waitFor('widget', { from }).then((event) => event.payload), client.waitFor('session_complete', { from }).then(() => null)]);
  const line = (await client.waitFor('assistant', { from })).payload.message;
  return { line, next };
}

function lastState(client: SocketClient): SessionState {
  return client.events.flatMap((event) => (event.type === 'state_update' ? [event.payload.state] : [])).at(-1)!;
}

const box = (prompt: string, context: string) => ({ kind: 'free_text', props: { prompt, context, placeholder: 'The missing word', maxLength: 200 } });

describe('a cloze drill over the WebSocket (SPEC §4.6)', () => {
  it('grades each point, shows the answer only once the point is finished, and schedules every point as one review', async () => {
    const target = await server();
    const { token } = await target.register();
    const set = await target.createSet(token, [cellPoint, capitalPoint, sonnetPoint], 'Mixed facts');
    const { sessionId, client, widget } = await openDrill(target, token, set.id);

    expect(client.events.find((event) => event.type === 'assistant')?.payload).toMatchObject({
      message: 'A quick cloze drill on "Mixed facts": 3 points, each with one word missing. Type the missing word in the box.',
    });
    expect(widget).toMatchObject(box('The _____ is the powerhouse of the cell.', 'Point 1 of 3'));
    expect(lastState(client)).toMatchObject({ status: 'awaiting_client_action', type: 'cloze', title: 'Mixed facts', recalledCount: 0, totalPoints: 3, cloze: { done: 0, total: 3, attempt: 1, right: 0 } });

    const first = await answer(client, widget, 'the Mitochondria');
    expect(first.line).toBe('Right — "mitochondria".');
    expect(first.next).toMatchObject(box('Capital of France → _____', 'Point 2 of 3'));

    const retry = await answer(client, first.next!, 'Lyon');
    expect(retry.line).toBe('Not quite, one more try. It starts with "P" and has 5 letters.');
    expect(retry.next).toMatchObject(box('Capital of France → _____', 'Second try — point 2 of 3'));
    expect(lastState(client)).toMatchObject({ recalledCount: 1, cloze: { done: 1, total: 3, attempt: 2, right: 1 } });

    const second = await answer(client, retry.next!, 'paris');
    expect(second.line).toBe('Right on the second try — "Paris".');
    expect(second.next).toMatchObject(box('A _____ has fourteen lines.', 'Point 3 of 3'));

    const wrong = await answer(client, second.next!, 'poem');
    expect(wrong.line).toBe('Not quite, one more try. It starts with "s" and has 6 letters.');
    // Until the point is finished nothing sent holds its answer.
    expect(JSON.stringify(client.events)).not.toMatch(/sonnet/i);
    const last = await answer(client, wrong.next!, 'haiku');
    expect(last.next).toBeNull();
    expect(last.line).toBe('Not this time — the answer was "sonnet". That was the last point: 2 of 3 right. Each one is now scheduled for its next review.');

    const summary: SessionSummary = (await client.waitFor('session_complete')).payload.summary;
    expect(summary).toMatchObject({ sessionId, type: 'cloze', status: 'completed', reason: 'all_answered', recalledCount: 2, totalPoints: 3 });
    expect(summary.cloze).toEqual({
      results: [
        { pointId: set.points[0]!.id, prompt: 'The _____ is the powerhouse of the cell.', answer: 'mitochondria', given: ['the Mitochondria'], rating: 'good' },
        { pointId: set.points[1]!.id, prompt: 'Capital of France → _____', answer: 'Paris', given: ['Lyon', 'paris'], rating: 'hard' },
        { pointId: set.points[2]!.id, prompt: 'A _____ has fourteen lines.', answer: 'sonnet', given: ['poem', 'haiku'], rating: 'again' },
      ],
      good: 1,
      hard: 1,
      again: 1,
    });
    expect(summary.points.map(({ id, content, recalled }) => ({ id, content, recalled }))).toEqual([
      { id: set.points[0]!.id, content: cellPoint, recalled: true },
      { id: set.points[1]!.id, content: capitalPoint, recalled: true },
      { id: set.points[2]!.id, content: sonnetPoint, recalled: false },
    ]);
    expect(lastState(client)).toMatchObject({ status: 'completed', cloze: { done: 3, total: 3, attempt: null, right: 2 } });

    // The set's schedule shows the three reviews at once: nothing due, Good the furthest out.
    const detail = await target.api<RecallSetDetail>('GET', `/api/recall-sets/${set.id}`, { token });
    expect(detail.body).toMatchObject({ dueCount: 0, newCount: 0 });
    const cards = (await target.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token })).body.cards;
    const due = cards.map((card) => new Date(card.due).getTime());
    expect(cards.map((card) => [card.reps, card.status, card.lastReview])).toEqual(Array.from({ length: 3 }, () => [1, 'scheduled', startedAt.toISOString()]));
    expect(cards.map((card) => card.due)).toEqual(summary.points.map((point) => point.nextDue));
    expect(due[0]!).toBeGreaterThan(due[1]!);
    expect(due[1]!).toBeGreaterThanOrEqual(due[2]!);
    expect(due[2]!).toBeGreaterThan(startedAt.getTime());
    expect(cards[2]!.lapses + cards[0]!.lapses).toBe(0);

    // The REST views say what the socket said.
    expect((await target.api<{ summary: SessionSummary }>('GET', `/api/sessions/${sessionId}/summary`, { token })).body.summary).toEqual(summary);
  });

  it('asks only the due points, most overdue first; refuses a set it cannot read or one with no points', async () => {
    const target = await server();
    const { token } = await target.register();
    const other = await target.register();
    const set = await target.createSet(token, [cellPoint, sonnetPoint]);
    const first = await openDrill(target, token, set.id);
    await answer(first.client, first.widget, 'mitochondria');
    first.client.send({ type: 'end_session', payload: {} });
    await first.client.waitFor('session_complete');
    // The reviewed point is not due any more: only the sonnet is asked.
    const next = await openDrill(target, token, set.id);
    expect(next.widget).toMatchObject(box('A _____ has fourteen lines.', 'Point 1 of 1'));

    const missing = await target.api<{ error: { code: string; message: string } }>('POST', '/api/sessions', { token: other.token, body: { type: 'cloze', recallSetId: set.id } });
    expect(missing.status).toBe(404);
    const empty = await target.createSet(token, [], 'Empty');
    const refused = await target.api<{ error: { code: string; message: string } }>('POST', '/api/sessions', { token, body: { type: 'cloze', recallSetId: empty.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: 'invalid_payload', message: 'This recall set has no points yet; add some before drilling it.' });
  });

  it('answers a chat with a pointer to the box, refuses the other frames in plain words, restores the point on reconnect and ends early', async () => {
    const target = await server();
    const { token } = await target.register();
    const set = await target.createSet(token, [cellPoint, capitalPoint]);
    const { sessionId, client, widget } = await openDrill(target, token, set.id);
    const retry = await answer(client, widget, 'nucleus');

    let from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'is it the ribosome?' } });
    expect((await client.waitFor('assistant', { from })).payload.message).toBe('Type the missing word in the box under the point; I grade only what is typed there. You can end the drill at any time.');
    from = client.events.length;
    client.send({ type: 'rabbithole', payload: { action: 'enter', topic: 'ribosomes' } });
    client.send({ type: 'stop', payload: {} });
    client.send({ type: 'retry', payload: { messageId: 'x' } });
    await client.waitFor('error', { from, where: (event) => event.payload.code === 'nothing_to_retry' });
    const errors = client.events.slice(from).filter((event): event is Extract<ServerEvent, { type: 'error' }> => event.type === 'error');
    expect(errors.map((event) => event.payload)).toEqual([
      { code: 'invalid_payload', message: 'A cloze drill has no tangents: type the missing word, or end the drill.' },
      { code: 'nothing_to_stop', message: 'Nothing is being written: each point and its feedback arrive whole.' },
      { code: 'nothing_to_retry', message: 'Cloze feedback is fixed by your answer; there is nothing to produce again.' },
    ]);

    // A new socket gets the same point, second try, and the conversation so far.
    client.close();
    const again = await target.connect(sessionId, token);
    cleanup.push(() => again.close());
    expect((await again.waitFor('widget')).payload).toEqual(retry.next);
    expect(lastState(again)).toMatchObject({ status: 'awaiting_client_action', cloze: { done: 0, total: 2, attempt: 2, right: 0 } });
    const history = (await again.waitFor('history')).payload.messages;
    expect(history.map((message) => [message.role, message.content])).toEqual([
      ['tutor', 'A quick cloze drill on "Test set": 2 points, each with one word missing. Type the missing word in the box.'],
      ['learner', 'nucleus'],
      ['tutor', 'Not quite, one more try. It starts with "m" and has 12 letters.'],
      ['learner', 'is it the ribosome?'],
      ['tutor', 'Type the missing word in the box under the point; I grade only what is typed there. You can end the drill at any time.'],
    ]);

    again.send({ type: 'end_session', payload: {} });
    const summary: SessionSummary = (await again.waitFor('session_complete')).payload.summary;
    // Nothing was finished, so nothing was reviewed.
    expect(summary).toMatchObject({ type: 'cloze', reason: 'ended_by_learner', recalledCount: 0, totalPoints: 0, points: [], cloze: { results: [], good: 0, hard: 0, again: 0 } });
    expect((await target.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token })).body.cards.map((card) => card.status)).toEqual(['new', 'new']);
    from = again.events.length;
    again.send({ type: 'widget_response', payload: { widgetId: retry.next!.widgetId, response: { text: 'mitochondria' } } });
    expect((await again.waitFor('error', { from })).payload).toEqual({ code: 'session_ended', message: 'This session has ended.' });
  });

  it('resumes after a restart at the same point without reviewing a finished point twice', async () => {
    const first = await startTestServer({ clock });
    const { token } = await first.register();
    const set = await first.createSet(token, [cellPoint, capitalPoint]);
    const { sessionId, client, widget } = await openDrill(first, token, set.id);
    const { next } = await answer(client, widget, 'mitochondria');
    client.close();
    await first.server.close();
    cleanup.push(() => rmSync(first.dataDir, { recursive: true, force: true }));

    const second = await server(first.dataDir);
    const resumed = await second.connect(sessionId, token);
    cleanup.push(() => resumed.close());
    expect((await resumed.waitFor('widget')).payload).toEqual(next);
    const { line } = await answer(resumed, next!, 'Paris');
    expect(line).toBe('Right — "Paris". That was the last point: 2 of 2 right. Each one is now scheduled for its next review.');
    const cards = (await second.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token })).body.cards;
    expect(cards.map((card) => card.reps)).toEqual([1, 1]);
  });
});

describe('a cloze drill with a model (SPEC §4.6, §7)', () => {
  it('adds the tutor model’s sentence to a finished point’s line, and grades the same when the model fails', async () => {
    const started = await startAnthropicTestServer({ clock });
    cleanup.push(() => started.close());
    const { fake, server: target } = started;
    const { token } = await target.register();
    const set = await target.createSet(token, [cellPoint, capitalPoint]);
    fake.enqueue('other', fakeReplies.text('Picture a tiny power plant humming inside every cell. It runs on sugar.'), fakeReplies.badRequest('no'));
    const { client, widget } = await openDrill(target, token, set.id);

    const first = await answer(client, widget, 'mitochondria');
    expect(first.line).toBe('Right — "mitochondria". Picture a tiny power plant humming inside every cell.');
    const asked = fake.requestsFor('other');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 80 });
    expect(JSON.stringify(asked[0]!.body.messages)).toContain('Missing word: mitochondria');

    // A wrong first try asks no model (its answer must not show yet); the failed call after the second leaves the fixed line.
    const retry = await answer(client, first.next!, 'Lyon');
    expect(retry.line).toBe('Not quite, one more try. It starts with "P" and has 5 letters.');
    expect(fake.requestsFor('other')).toHaveLength(1);
    const last = await answer(client, retry.next!, 'Marseille');
    expect(last.line).toBe('Not this time — the answer was "Paris". That was the last point: 1 of 2 right. Each one is now scheduled for its next review.');
    const summary: SessionSummary = (await client.waitFor('session_complete')).payload.summary;
    expect(summary.cloze).toMatchObject({ good: 1, hard: 0, again: 1 });
  });
});
