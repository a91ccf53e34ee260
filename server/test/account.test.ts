/**
 * The learner's own account over the real server (SPEC §6, §8): a new password (the current
 * one required), sign out everywhere (tokens issued before are refused, REST and WebSocket),
 * export my data, delete my account with all its data (typed confirmation).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountExport, CloseCodes, type AuthResponse } from '@tutorloop/shared';
import { createScriptedProvider } from './helpers/scripted-provider';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer({ provider: createScriptedProvider() });
});
afterEach(async () => {
  await server.close();
});

const password = 'correct horse battery';

async function login(username: string, secret: string) {
  return server.api<AuthResponse>('POST', '/api/auth/login', { body: { username, password: secret } });
}

describe('change password', () => {
  it('requires the current password, then signs in only with the new one and refuses older tokens', async () => {
    const { token, learner } = await server.register();
    const other = await login(learner.username, password);

    const wrong = await server.api('POST', '/api/me/password', { token, body: { currentPassword: 'not it at all', newPassword: 'a brand new secret' } });
    expect(wrong).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'currentPassword: that is not your current password.' } } });
    const short = await server.api('POST', '/api/me/password', { token, body: { currentPassword: password, newPassword: 'short' } });
    expect(short).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'newPassword: newPassword must be at least 8 characters' } } });
    // Refusals changed nothing.
    expect((await login(learner.username, password)).status).toBe(200);

    const changed = await server.api<AuthResponse>('POST', '/api/me/password', { token, body: { currentPassword: password, newPassword: 'a brand new secret' } });
    expect(changed.status).toBe(200);
    expect(changed.body.learner).toEqual(learner);
    expect((await login(learner.username, password)).status).toBe(401);
    expect((await login(learner.username, 'a brand new secret')).status).toBe(200);
    // Tokens issued before (this device's old one, another device's) are refused; the new one works.
    expect((await server.api('GET', '/api/me', { token })).status).toBe(401);
    expect((await server.api('GET', '/api/me', { token: other.body.token })).status).toBe(401);
    expect(await server.api('GET', '/api/me', { token: changed.body.token })).toEqual({ status: 200, body: { learner } });
  });

  it('closes the sockets the old tokens opened; the new token reconnects to the same session', async () => {
    const { token, learner } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP'], 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const open = await server.connect(sessionId, token);
    await open.waitFor('assistant');
    const changed = await server.api<AuthResponse>('POST', '/api/me/password', { token, body: { currentPassword: password, newPassword: 'a brand new secret' } });
    expect(changed.status).toBe(200);
    expect(await open.waitForClose()).toBe(CloseCodes.unauthorized);
    const again = await server.connect(sessionId, changed.body.token);
    const history = await again.waitFor('history');
    expect(history.payload.messages.length).toBeGreaterThan(0);
    again.close();
    expect((await login(learner.username, 'a brand new secret')).status).toBe(200);
  });
});

describe('sign out everywhere', () => {
  it('refuses every token issued before over REST and WebSocket; a new sign-in works', async () => {
    const { token, learner } = await server.register();
    const second = (await login(learner.username, password)).body.token;
    const set = await server.createSet(token, ['mitochondria make ATP'], 'Cells');
    const sessionId = await server.createSession(token, set.id);
    // A socket open before the sign-out, and another learner's, which must stay open.
    const before = await server.connect(sessionId, token);
    await before.waitFor('assistant');
    const bystander = await server.register();
    const bystanderSet = await server.createSet(bystander.token, ['ribosomes build proteins'], 'Other');
    const bystanderSocket = await server.connect(await server.createSession(bystander.token, bystanderSet.id), bystander.token);
    await bystanderSocket.waitFor('assistant');

    expect((await server.api('POST', '/api/me/sign-out-everywhere', { token: second })).status).toBe(204);
    // The open socket is closed at once, as unauthorized, not left open until it reconnects.
    expect(await before.waitForClose()).toBe(CloseCodes.unauthorized);
    expect(before.closeReason).toBe('Signed out: sign in again');
    const from = bystanderSocket.events.length;
    bystanderSocket.send({ type: 'chat', payload: { message: 'ribosomes build proteins' } });
    await bystanderSocket.waitFor('assistant', { from });
    expect(bystanderSocket.closeCode).toBeNull();
    bystanderSocket.close();
    for (const old of [token, second]) {
      expect(await server.api('GET', '/api/recall-sets', { token: old })).toEqual({
        status: 401,
        body: { error: { code: 'unauthorized', message: 'Sign in first: missing, invalid or expired token.' } },
      });
    }
    const socket = await server.connect(sessionId, token);
    expect(await socket.waitForClose()).toBe(CloseCodes.unauthorized);
    expect(socket.events).toEqual([]);

    const fresh = (await login(learner.username, password)).body.token;
    expect((await server.api('GET', '/api/recall-sets', { token: fresh })).status).toBe(200);
    const again = await server.connect(sessionId, fresh);
    await again.waitFor('history');
    again.close();
  });
});

describe('export my data', () => {
  it('returns every set, point, card with its review log, and session with its messages, as one JSON document', async () => {
    const { token, learner } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins'], 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
    await client.waitFor('state_update', { from, where: (event) => event.payload.state.recalledCount === 1 });
    client.close();
    // Someone else's data never appears.
    const stranger = await server.register();
    await server.createSet(stranger.token, ['not mine'], 'Theirs');

    const response = await fetch(`${server.url}/api/me/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="tutorloop-${learner.username}-\\d{4}-\\d{2}-\\d{2}\\.json"$`));
    const exported = AccountExport.parse(await response.json());
    expect(exported.learner).toEqual(learner);
    expect(exported.recallSets).toEqual([
      expect.objectContaining({ id: set.id, name: 'Cells', points: [expect.objectContaining({ content: 'mitochondria make ATP' }), expect.objectContaining({ content: 'ribosomes build proteins' })] }),
    ]);
    expect(exported.cards).toHaveLength(1);
    expect(exported.cards[0]).toMatchObject({ pointId: set.points[0]!.id, reps: 1, reviews: [{ sessionId, rating: expect.any(String) }] });
    expect(exported.sessions).toHaveLength(1);
    expect(exported.sessions[0]!.messages.map((message) => [message.role, message.content])).toEqual([
      ['tutor', 'Tutor reply for turn 0.'],
      ['learner', 'mitochondria make ATP'],
      ['tutor', 'Tutor reply for turn 1.'],
    ]);
    expect(JSON.stringify(exported)).not.toContain('not mine');
    expect(JSON.stringify(exported)).not.toContain('scrypt');
  });
});

describe('delete my account', () => {
  it('needs the username typed, then deletes the learner and all their data in one go', async () => {
    const { token, learner } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP'], 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'mitochondria make ATP' } });
    await client.waitFor('session_complete', { from });
    const stranger = await server.register();
    const theirSet = await server.createSet(stranger.token, ['not mine'], 'Theirs');
    // What storage holds of the learner, read through the storage port.
    const pointIds = set.points.map((point) => point.id);
    const holdings = () =>
      server.server.storage.read(async (reader) => ({
        learners: (await reader.learners.get(learner.id)) ? 1 : 0,
        sets: (await reader.recallSets.listByLearner(learner.id)).length,
        cards: (await reader.cards.listFor(learner.id, pointIds)).size,
        reviews: (await reader.cards.listReviewLogsByLearner(learner.id)).length,
        sessions: (await reader.sessions.listByLearner(learner.id)).length,
        messages: await reader.messages.count(sessionId),
        llmCalls: (await reader.llmCalls.listBySession(sessionId)).length,
      }));
    expect(await holdings()).toMatchObject({ learners: 1, sets: 1, cards: 1, reviews: 1, sessions: 1, messages: 3 });

    const missing = await server.api('DELETE', '/api/me', { token, body: {} });
    expect(missing.status).toBe(400);
    const wrong = await server.api('DELETE', '/api/me', { token, body: { confirmUsername: 'someone-else' } });
    expect(wrong).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: `confirmUsername: type your username (${learner.username}) to confirm.` } } });
    expect((await server.api('GET', `/api/recall-sets/${set.id}`, { token })).status).toBe(200);

    expect((await server.api('DELETE', '/api/me', { token, body: { confirmUsername: ` ${learner.username.toUpperCase()} ` } })).status).toBe(204);
    expect((await server.api('GET', '/api/me', { token })).status).toBe(401);
    expect((await login(learner.username, password)).status).toBe(401);
    expect(await holdings()).toEqual({ learners: 0, sets: 0, cards: 0, reviews: 0, sessions: 0, messages: 0, llmCalls: 0 });
    // The username is free again; others keep everything.
    expect((await server.api('POST', '/api/auth/register', { body: { username: learner.username, password } })).status).toBe(201);
    expect((await server.api('GET', `/api/recall-sets/${theirSet.id}`, { token: stranger.token })).status).toBe(200);
  });
});
