/**
 * Restoring an account export into a new account, over the real server (SPEC §6, §8; issue 25
 * item 4): what a learner exported comes back whole in another account — sets, schedules and
 * review logs, every kind of session with its own state, messages, widgets, assessment items,
 * survey answers, settings and plans — with new ids, and an in-progress recall session goes on
 * over the socket. A file of another version or with a damaged part is refused in plain words
 * and writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountExport, AccountImportResult, StudyPlanContent, StudyPlanDetail } from '@tutorloop/shared';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const points = ['Mitochondria make ATP for the cell', 'Ribosomes build proteins from amino acids', 'The nucleus stores the DNA of the cell'];

const plan: StudyPlanContent = {
  title: 'Halves and quarters',
  topic: 'Fractions',
  audience: 'Grade 3',
  objectives: ['Name halves and quarters'],
  prerequisites: [],
  misconceptions: [],
  teachingApproach: 'Folding paper.',
  allowExtension: false,
  allowBacktrack: false,
  steps: [
    { number: 1, type: 'explain', concept: 'halves', contentHint: 'A half is one of two equal parts.' },
    { number: 2, type: 'check', concept: 'halves', contentHint: 'Check halves.', questions: [{ question: 'How many halves make a whole?', expectedAnswer: '2', acceptedAnswers: ['two'] }] },
  ],
};

/** Sends a chat and waits for the turn's state update. */
async function chat(client: SocketClient, message: string) {
  const from = client.events.length;
  client.send({ type: 'chat', payload: { message } });
  await client.waitFor('assistant', { from, timeoutMs: 15_000 });
  const reply = client.events.findIndex((event, index) => index >= from && event.type === 'assistant');
  return (await client.waitFor('state_update', { from: reply, timeoutMs: 15_000 })).payload.state;
}

/** A learner with something of every kind: returns their token. */
async function busyLearner(): Promise<string> {
  const { token } = await server.register();
  expect((await server.api('PATCH', '/api/me', { token, body: { desiredRetention: 0.85 } })).status).toBe(200);
  const set = await server.createSet(token, points, 'Cells');

  // A recall session finished (every point recalled), then one left half-way.
  const done = await server.connect(await server.createSession(token, set.id), token);
  await done.waitFor('assistant');
  await chat(done, points.join('. '));
  await done.waitFor('session_complete');
  done.close();
  const halfWay = await server.connect(await server.createSession(token, set.id), token);
  await halfWay.waitFor('assistant');
  expect(await chat(halfWay, points[0]!)).toMatchObject({ recalledCount: 1, totalPoints: 3 });
  halfWay.close();

  // An assessment with one item answered, a learning session on the learner's own plan, a survey answer.
  const assessment = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1' } });
  const items = await server.connect(assessment.body.sessionId, token);
  const first = await items.waitFor('widget', { timeoutMs: 15_000 });
  const from = items.events.length;
  items.send({ type: 'widget_response', payload: { widgetId: first.payload.widgetId, response: { selectedIndex: 0 } } });
  await items.waitFor('widget', { from, timeoutMs: 15_000 });
  items.close();

  const ownPlan = await server.api<StudyPlanDetail>('POST', '/api/study-plans', { token, body: { plan } });
  expect(ownPlan.status).toBe(201);
  const learning = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: ownPlan.body.id } });
  const tutor = await server.connect(learning.body.sessionId, token);
  await tutor.waitFor('assistant', { timeoutMs: 10_000 });
  await chat(tutor, 'A half is one of two equal parts, so two halves make a whole.');
  tutor.close();

  const survey = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'survey', surveyId: 'course-feedback' } });
  const form = await server.connect(survey.body.sessionId, token);
  const question = await form.waitFor('widget');
  const next = form.events.length;
  form.send({ type: 'widget_response', payload: { widgetId: question.payload.widgetId, response: { selectedIndex: 0 } } });
  await form.waitFor('widget', { from: next });
  form.close();
  return token;
}

async function exportOf(token: string): Promise<AccountExport> {
  const response = await server.api<AccountExport>('GET', '/api/me/export', { token });
  expect(response.status).toBe(200);
  return response.body;
}

const byKey = <T>(key: (value: T) => string) => (left: T, right: T) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0);

/**
 * The export with its ids and learner taken out: arrays put in an order that does not depend on
 * ids, then every id replaced by its place in that order (so references stay comparable).
 */
function canonical(data: AccountExport): unknown {
  const pointKey = new Map(data.recallSets.flatMap((set) => set.points.map((point) => [point.id, `${set.name}/${point.position}`] as const)));
  const ordered = {
    settings: data.settings,
    recallSets: [...data.recallSets].sort(byKey((set) => set.name)),
    studyPlans: [...data.studyPlans].sort(byKey((entry) => entry.title)),
    surveys: [...data.surveys].sort(byKey((entry) => entry.title)),
    sessions: [...data.sessions].sort(byKey((session) => `${session.createdAt}/${session.type}`)).map((session) => ({
      ...session,
      pendingActions: [...session.pendingActions].sort(byKey((action) => `${action.createdAt}/${action.kind}`)),
      surveyResponses: [...session.surveyResponses].sort(byKey((response) => `${response.answeredAt}/${response.questionId}`)),
    })),
    cards: [...data.cards]
      .sort(byKey((card) => pointKey.get(card.pointId) ?? ''))
      .map((card) => ({ ...card, reviews: [...card.reviews].sort(byKey((review) => `${review.reviewedAt}/${review.rating}`)) })),
  };
  const labels = new Map<string, string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      for (const [key, entry] of Object.entries(value)) {
        if (key === 'id' && typeof entry === 'string' && !labels.has(entry)) labels.set(entry, `#${labels.size}`);
        collect(entry);
      }
    }
  };
  collect(ordered);
  const relabel = (value: unknown): unknown => {
    if (typeof value === 'string') return labels.get(value) ?? value;
    if (Array.isArray(value)) return value.map(relabel);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, relabel(entry)]));
    return value;
  };
  return relabel(ordered);
}

describe('restore an account export (issue 25 item 4)', () => {
  it('brings everything back into a new account, with new ids, and the half-done recall session goes on', { timeout: 90_000 }, async () => {
    const first = await exportOf(await busyLearner());
    expect(first.sessions.map((session) => session.type).sort()).toEqual(['assessment', 'learning', 'recall', 'recall', 'survey']);
    expect(first.sessions.filter((session) => session.status === 'completed').map((session) => session.type)).toEqual(['recall']);
    const assessment = first.sessions.find((session) => session.type === 'assessment')!;
    expect([assessment.items.length, assessment.responses.length, assessment.pendingActions.length]).toEqual([2, 1, 2]);
    expect(first.sessions.find((session) => session.type === 'survey')!.surveyResponses).toHaveLength(1);
    expect(first.sessions.filter((session) => session.type === 'recall').map((session) => session.checklist.length)).toEqual([3, 3]);

    const { token, learner } = await server.register();
    const restored = await server.api<AccountImportResult>('POST', '/api/me/import', { token, body: first });
    expect(restored).toEqual({
      status: 201,
      body: { recallSets: 1, points: 3, cards: 3, reviews: first.cards.reduce((sum, card) => sum + card.reviews.length, 0), sessions: 5, studyPlans: 1, surveys: 0 },
    });
    expect(restored.body.reviews).toBeGreaterThanOrEqual(4);

    const second = await exportOf(token);
    // The account stays itself; the restored settings are the exported ones.
    expect(second.learner).toEqual({ ...learner, desiredRetention: 0.85 });
    expect(canonical(second)).toEqual(canonical(first));
    // Nothing kept an old id.
    const oldIds = [first.recallSets[0]!.id, ...first.sessions.map((session) => session.id), ...first.cards.map((card) => card.id), first.studyPlans[0]!.id];
    const text = JSON.stringify(second);
    for (const id of oldIds) expect(text).not.toContain(id);

    // The half-done recall session goes on where it was, in the new account.
    const halfWay = second.sessions.find((session) => session.type === 'recall' && session.status !== 'completed')!;
    const socket = await server.connect(halfWay.id, token);
    const history = await socket.waitFor('history');
    expect(history.payload.messages.length).toBe(halfWay.messages.filter((message) => message.role !== 'tool_result' && message.supersededBy === null).length);
    expect(await chat(socket, points[1]!)).toMatchObject({ status: 'active', recalledCount: 2, totalPoints: 3 });
    expect(await chat(socket, points[2]!)).toMatchObject({ status: 'completed', recalledCount: 3 });
    socket.close();

    // Restoring the same file again clashes with nothing: everything twice.
    const again = await server.api<AccountImportResult>('POST', '/api/me/import', { token, body: first });
    expect(again.status).toBe(201);
    const sets = await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token });
    expect(sets.body.recallSets).toHaveLength(2);
  });

  it('refuses an older format, something else, or a damaged part in plain words, and writes nothing', { timeout: 30_000 }, async () => {
    const { token: source } = await server.register();
    const set = await server.createSet(source, points, 'Cells');
    const session = await server.connect(await server.createSession(source, set.id), source);
    await session.waitFor('assistant');
    await chat(session, points[0]!);
    session.close();
    const data = await exportOf(source);
    const { token } = await server.register();
    const before = canonical(await exportOf(token));

    const refusals: Array<[unknown, string]> = [
      [{ ...data, version: 1 }, 'This export is format version 1; this server restores version 2 only. Export your data again from an up-to-date tutorloop and restore that file.'],
      [{ recallSets: [] }, 'This file is not a tutorloop account export (it should be the JSON file that "Export my data" saves).'],
      [
        { ...data, cards: data.cards.map((card) => ({ ...card, pointId: 'no-such-point' })) },
        'The export is damaged: cards[0] refers to a recall point that is not in the file. Nothing was restored.',
      ],
      [
        { ...data, sessions: data.sessions.map((entry) => ({ ...entry, typeState: { ...entry.typeState, probeIndex: -1 } })) },
        'The export is damaged: the recall state of sessions[0] ("Cells") does not fit (probeIndex — Too small: expected number to be >=0). Nothing was restored.',
      ],
      [{ ...data, recallSets: [{ ...data.recallSets[0]!, name: '' }] }, 'The export is damaged: recallSets[0].name — Too small: expected string to have >=1 characters. Nothing was restored.'],
    ];
    for (const [body, message] of refusals) {
      expect(await server.api('POST', '/api/me/import', { token, body })).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message } } });
    }
    expect(canonical(await exportOf(token))).toEqual(before);
  });

  it('takes an export far over the 1 MiB body limit of other routes, and refuses one over its own 32 MiB', { timeout: 60_000 }, async () => {
    const { token } = await server.register();
    const empty = await exportOf(token);
    const at = new Date('2026-03-03T09:00:00.000Z').toISOString();
    // Two full sets of long points: about 2 MB of JSON.
    const recallSets = [0, 1].map((set) => ({
      id: `set-${set}`,
      name: `Long set ${set}`,
      description: null,
      createdAt: at,
      updatedAt: at,
      points: Array.from({ length: 500 }, (_, index) => ({ id: `point-${set}-${index}`, content: `${index} `.padEnd(2000, 'x'), context: null, position: index, createdAt: at })),
    }));
    const large = { ...empty, recallSets };
    expect(JSON.stringify(large).length).toBeGreaterThan(2_000_000);
    expect(await server.api('POST', '/api/me/import', { token, body: large })).toMatchObject({ status: 201, body: { recallSets: 2, points: 1000 } });

    const tooLarge = await server.api<{ error: { code: string } }>('POST', '/api/me/import', { token, raw: JSON.stringify({ ...empty, padding: 'x'.repeat(33 * 1024 * 1024) }) });
    expect(tooLarge.status).toBe(413);
    expect((await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token })).body.recallSets).toHaveLength(2);
  });
});
