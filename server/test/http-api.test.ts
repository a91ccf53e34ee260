/** SPEC §6 against the real server on loopback with a temporary SQLite file. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardList, RecallSetDetail, RecallSetList, SessionReplay, StepResponse } from '@tutorloop/shared';
import { createScriptedProvider } from './helpers/scripted-provider';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ provider: createScriptedProvider() });
});
afterAll(async () => {
  await server.close();
});

describe('auth', () => {
  it('registers, logs in, rejects a taken name and a wrong password', async () => {
    const registered = await server.api<{ token: string; learner: { username: string } }>('POST', '/api/auth/register', {
      body: { username: 'Ada_L', password: 'analytical engine' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.learner).toMatchObject({ username: 'Ada_L', desiredRetention: 0.9 });
    expect(JSON.stringify(registered.body)).not.toContain('analytical engine');

    const taken = await server.api('POST', '/api/auth/register', { body: { username: 'ada_l', password: 'something else' } });
    expect(taken).toEqual({ status: 409, body: { error: { code: 'conflict', message: 'That username is taken.' } } });

    const login = await server.api<{ token: string }>('POST', '/api/auth/login', { body: { username: 'ADA_L', password: 'analytical engine' } });
    expect(login.status).toBe(200);
    const me = await server.api<{ learner: { username: string } }>('GET', '/api/me', { token: login.body.token });
    expect(me.body.learner.username).toBe('Ada_L');

    const wrong = await server.api('POST', '/api/auth/login', { body: { username: 'ada_l', password: 'wrong password' } });
    expect(wrong).toEqual({ status: 401, body: { error: { code: 'unauthorized', message: 'Wrong username or password.' } } });
  });

  it('validates bodies with clear messages', async () => {
    const short = await server.api('POST', '/api/auth/register', { body: { username: 'ab', password: 'x' } });
    expect(short).toEqual({
      status: 400,
      body: { error: { code: 'invalid_payload', message: 'username: username must be at least 3 characters; password: password must be at least 8 characters' } },
    });
    const broken = await server.api('POST', '/api/auth/register', { raw: '{"username":' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ error: { code: 'invalid_json' } });
  });

  it('requires a valid token on every route but auth and health', async () => {
    expect((await server.api('GET', '/api/health')).body).toEqual({ status: 'ok', tutor: 'offline', version: '0.1.0' });
    for (const [method, route] of [['GET', '/api/recall-sets'], ['GET', '/api/sessions'], ['GET', '/api/me'], ['POST', '/api/sessions']] as const) {
      const response = await server.api(method, route);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect((await server.api('GET', '/api/recall-sets', { token: 'not.a.jwt' })).status).toBe(401);
  });
});

describe('recall sets', () => {
  it('creates, lists with due counts, updates keeping point ids, and deletes', async () => {
    const { token } = await server.register();
    const created = await server.api<RecallSetDetail>('POST', '/api/recall-sets', {
      token,
      body: { name: 'Capitals', description: 'Europe', points: [{ content: 'Paris is the capital of France' }, { content: 'Rome is the capital of Italy', context: 'Lazio' }] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Capitals', description: 'Europe', pointCount: 2, dueCount: 2, newCount: 2 });
    expect(created.body.points.map((point) => [point.content, point.context])).toEqual([
      ['Paris is the capital of France', null],
      ['Rome is the capital of Italy', 'Lazio'],
    ]);

    const list = await server.api<RecallSetList>('GET', '/api/recall-sets', { token });
    expect(list.body.recallSets.map((set) => [set.name, set.pointCount, set.dueCount])).toEqual([['Capitals', 2, 2]]);

    const [paris] = created.body.points;
    const updated = await server.api<RecallSetDetail>('PUT', `/api/recall-sets/${created.body.id}`, {
      token,
      body: { name: 'European capitals', points: [{ id: paris!.id, content: 'Paris is the capital of France' }, { content: 'Berlin is the capital of Germany' }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('European capitals');
    expect(updated.body.points[0]!.id).toBe(paris!.id);
    expect(updated.body.points.map((point) => point.content)).toEqual(['Paris is the capital of France', 'Berlin is the capital of Germany']);

    const cards = await server.api<CardList>('GET', `/api/cards?recallSetId=${created.body.id}`, { token });
    expect(cards.body.cards.map((card) => [card.content, card.state, card.reps])).toEqual([
      ['Paris is the capital of France', 'new', 0],
      ['Berlin is the capital of Germany', 'new', 0],
    ]);

    expect((await server.api('DELETE', `/api/recall-sets/${created.body.id}`, { token })).status).toBe(204);
    expect((await server.api('GET', `/api/recall-sets/${created.body.id}`, { token })).status).toBe(404);
  });

  it('imports Markdown and CSV, and explains a bad import', async () => {
    const { token } = await server.register();
    const markdown = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import', {
      token,
      body: { format: 'markdown', text: '# Planets\n- Mercury is closest to the Sun\n- Jupiter is the largest planet — gas giant\n' },
    });
    expect(markdown.status).toBe(201);
    expect(markdown.body.name).toBe('Planets');
    expect(markdown.body.points.map((point) => [point.content, point.context])).toEqual([
      ['Mercury is closest to the Sun', null],
      ['Jupiter is the largest planet', 'gas giant'],
    ]);
    const csv = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import', {
      token,
      body: { format: 'csv', name: 'Elements', text: 'content,context\nH is hydrogen,gas\n"Fe is iron, a metal",\n' },
    });
    expect(csv.body.points.map((point) => point.content)).toEqual(['H is hydrogen', 'Fe is iron, a metal']);
    const bad = await server.api('POST', '/api/recall-sets/import', { token, body: { format: 'markdown', text: 'no bullets here' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 'invalid_payload', message: 'Markdown import: no points found. Write one point per "- " list item.' } });
    const list = await server.api<RecallSetList>('GET', '/api/recall-sets', { token });
    expect(list.body.recallSets).toHaveLength(2);
  });

  it("never reaches another learner's sets or cards", async () => {
    const owner = await server.register();
    const other = await server.register();
    const set = await server.createSet(owner.token, ['a secret point']);
    expect((await server.api('GET', `/api/recall-sets/${set.id}`, { token: other.token })).status).toBe(404);
    expect((await server.api('PUT', `/api/recall-sets/${set.id}`, { token: other.token, body: { name: 'mine now' } })).status).toBe(404);
    expect((await server.api('DELETE', `/api/recall-sets/${set.id}`, { token: other.token })).status).toBe(404);
    expect((await server.api('GET', `/api/cards?recallSetId=${set.id}`, { token: other.token })).status).toBe(404);
    expect((await server.api('POST', '/api/sessions', { token: other.token, body: { type: 'recall', recallSetId: set.id } })).status).toBe(404);
    expect((await server.api<RecallSetList>('GET', '/api/recall-sets', { token: other.token })).body.recallSets).toEqual([]);
    expect((await server.api<RecallSetDetail>('GET', `/api/recall-sets/${set.id}`, { token: owner.token })).body.name).toBe('Test set');
  });
});

describe('sessions over HTTP', () => {
  it('runs turns with /step, replays, summarises, lists and deletes', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, ['water boils at 100 degrees', 'ice melts at 0 degrees']);
    const sessionId = await server.createSession(token, set.id);

    const first = await server.api<StepResponse>('POST', `/api/sessions/${sessionId}/step`, { token, body: { message: 'water boils at 100 degrees' } });
    expect(first.status).toBe(200);
    expect(first.body.reply?.message).toBe('Tutor reply for turn 1.');
    expect(first.body.state).toMatchObject({ status: 'active', turn: 1, recalledCount: 1, totalPoints: 2 });
    expect(first.body.summary).toBeNull();

    const early = await server.api('GET', `/api/sessions/${sessionId}/summary`, { token });
    expect(early.status).toBe(409);

    const second = await server.api<StepResponse>('POST', `/api/sessions/${sessionId}/step`, { token, body: { message: 'and ice melts at 0 degrees' } });
    expect(second.body.state.status).toBe('completed');
    expect(second.body.summary).toMatchObject({ reason: 'all_recalled', recalledCount: 2, totalPoints: 2 });

    const replay = await server.api<SessionReplay>('GET', `/api/sessions/${sessionId}/replay`, { token });
    // The learner spoke before any greeting was produced, so the tutor answers that first message instead.
    expect(replay.body.messages.map((message) => message.role)).toEqual(['learner', 'tutor', 'learner', 'tutor']);
    expect(JSON.stringify(replay.body)).not.toContain('SECRET-FEEDBACK');

    const summary = await server.api<{ summary: { points: Array<{ recalled: boolean; nextDue?: string }> } }>('GET', `/api/sessions/${sessionId}/summary`, { token });
    expect(summary.body.summary.points.every((point) => point.recalled && point.nextDue)).toBe(true);

    const cards = await server.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token });
    expect(cards.body.cards.every((card) => card.reps === 1 && card.state !== 'new')).toBe(true);
    const sets = await server.api<RecallSetList>('GET', '/api/recall-sets', { token });
    expect(sets.body.recallSets[0]).toMatchObject({ dueCount: 0, newCount: 0 });

    const list = await server.api<{ sessions: Array<{ id: string; status: string; recalledCount: number }> }>('GET', '/api/sessions', { token });
    expect(list.body.sessions).toEqual([expect.objectContaining({ id: sessionId, status: 'completed', recalledCount: 2 })]);

    const other = await server.register();
    for (const route of ['', '/replay', '/summary']) {
      expect((await server.api('GET', `/api/sessions/${sessionId}${route}`, { token: other.token })).status).toBe(403);
    }
    expect((await server.api('POST', `/api/sessions/${sessionId}/step`, { token: other.token, body: { message: 'hi' } })).status).toBe(403);
    expect((await server.api('DELETE', `/api/sessions/${sessionId}`, { token: other.token })).status).toBe(403);

    expect((await server.api('DELETE', `/api/sessions/${sessionId}`, { token })).status).toBe(204);
    expect((await server.api('GET', `/api/sessions/${sessionId}`, { token })).status).toBe(404);
  });

  it('refuses a session on an empty set and unknown session types with clear errors', async () => {
    const { token } = await server.register();
    const empty = await server.api<RecallSetDetail>('POST', '/api/recall-sets', { token, body: { name: 'Empty' } });
    const response = await server.api('POST', '/api/sessions', { token, body: { type: 'recall', recallSetId: empty.body.id } });
    expect(response).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'This recall set has no points yet; add some first.' } } });
    const unknown = await server.api('POST', '/api/sessions', { token, body: { type: 'quiz' } });
    expect(unknown.status).toBe(400);
  });
});
