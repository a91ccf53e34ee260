/**
 * Regression tests for attacks on authentication and on the per-learner budgets (SPEC §8):
 * tokens without an expiry, login errors that revealed the sign-up policy, and floods
 * spread over many sockets.
 */
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '@tutorloop/shared';
import { startTestServer, type SocketClient, type TestServer } from '../helpers/test-server';

const secret = 's'.repeat(40);
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function subjectOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
}

describe('tokens', () => {
  it('refuses a token signed with the right secret but without exp, or without iat, over REST and WebSocket', async () => {
    server = await startTestServer({ env: { JWT_SECRET: secret } });
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP']);
    const sessionId = await server.createSession(token, set.id);
    const key = new TextEncoder().encode(secret);
    const base = () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(subjectOf(token)).setIssuer('tutorloop');
    const withoutExp = await base().setIssuedAt().sign(key);
    const withoutIat = await base().setExpirationTime('1h').sign(key);
    const complete = await base().setIssuedAt().setExpirationTime('1h').sign(key);

    for (const bad of [withoutExp, withoutIat]) {
      expect((await server.api('GET', '/api/me', { token: bad })).status).toBe(401);
      const client = await server.connect(sessionId, bad);
      expect(await client.waitForClose()).toBe(4401);
      expect(client.events).toEqual([]);
    }
    // The same claims with both present are accepted: the refusal is about exp and iat.
    expect((await server.api('GET', '/api/me', { token: complete })).status).toBe(200);
  });
});

describe('login', () => {
  it('answers 401 for a wrong password of any length and for an unknown learner; 400 only for a malformed body', async () => {
    server = await startTestServer();
    const { learner } = await server.register();
    const wrong = { error: { code: 'unauthorized', message: 'Wrong username or password.' } };
    for (const password of ['x', 'short', 'a much longer but wrong password']) {
      const response = await server.api('POST', '/api/auth/login', { body: { username: learner.username, password } });
      expect(response).toEqual({ status: 401, body: wrong });
    }
    expect(await server.api('POST', '/api/auth/login', { body: { username: 'no such learner!', password: 'x' } })).toEqual({ status: 401, body: wrong });
    expect((await server.api('POST', '/api/auth/login', { body: { username: learner.username, password: 42 } })).status).toBe(400);
    expect((await server.api('POST', '/api/auth/login', { body: { username: learner.username, password: 'correct horse battery' } })).status).toBe(200);
    // Sign-up keeps its policy.
    const signUp = await server.api<{ error: { code: string; message: string } }>('POST', '/api/auth/register', { body: { username: 'newcomer', password: 'short' } });
    expect(signUp.status).toBe(400);
    expect(signUp.body.error.message).toContain('password must be at least 8 characters');
  });
});

describe('floods across sockets', () => {
  async function learnerWithSession(target: TestServer) {
    const { token } = await target.register();
    const set = await target.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA']);
    const sessionId = await target.createSession(token, set.id);
    return { token, sessionId };
  }

  /** Every learner message stored for the session, retried-over turns included, through the storage port. */
  async function learnerMessages(target: TestServer, sessionId: string): Promise<string[]> {
    const messages = await target.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
    return messages.filter((message) => message.role === 'learner').map((message) => message.content);
  }

  it('counts turns per learner: 10 sockets sending 20 chats each store at most the budget, each socket told when to retry', async () => {
    server = await startTestServer({ env: { TURN_RATE_LIMIT: '8', WS_RATE_LIMIT: '1000' } });
    const { token, sessionId } = await learnerWithSession(server);
    const clients: SocketClient[] = [];
    for (let index = 0; index < 10; index += 1) {
      const client = await server.connect(sessionId, token);
      await client.waitFor('history');
      clients.push(client);
    }
    await clients[0]!.waitFor('assistant', { timeoutMs: 10_000 });
    const starts = clients.map((client) => client.events.length);
    for (let round = 0; round < 20; round += 1) {
      for (const [index, client] of clients.entries()) client.send({ type: 'chat', payload: { message: `flood ${index}-${round}` } });
    }
    for (const [index, client] of clients.entries()) {
      await client.waitFor('error', { from: starts[index], where: (event) => event.payload.code === 'rate_limited' });
    }
    // Let the admitted turns finish.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stored = await learnerMessages(server, sessionId);
    expect(stored.length).toBeLessThanOrEqual(8);
    expect(stored.length).toBeGreaterThan(0);
    const limited = clients.flatMap((client, index) => client.events.slice(starts[index]).filter((event): event is Extract<ServerEvent, { type: 'error' }> => event.type === 'error' && event.payload.code === 'rate_limited'));
    // One error per socket per burst, not one per refused frame, and each says when to retry.
    expect(limited).toHaveLength(10);
    for (const error of limited) expect(error.payload.message).toMatch(/^Too many turns: at most 8 per 60 seconds across all your sessions; this message was not sent\. Retry in \d+ s\.$/);
    for (const client of clients) {
      expect(client.closeCode).toBeNull();
      client.close();
    }
  });

  it('counts frames per learner across sockets, and a second learner is not slowed by the first', async () => {
    server = await startTestServer({ env: { WS_RATE_LIMIT: '6', TURN_RATE_LIMIT: '1000' } });
    const flooder = await learnerWithSession(server);
    const other = await learnerWithSession(server);
    const first = await server.connect(flooder.sessionId, flooder.token);
    const second = await server.connect(flooder.sessionId, flooder.token);
    await first.waitFor('history');
    await second.waitFor('history');
    for (let index = 0; index < 4; index += 1) {
      first.sendRaw('{bad');
      second.sendRaw('{bad');
    }
    await second.waitFor('error', { where: (event) => event.payload.code === 'rate_limited' });
    const codes = [...first.events, ...second.events].filter((event) => event.type === 'error').map((event) => event.payload.code);
    expect(codes.filter((code) => code === 'invalid_json')).toHaveLength(6);

    const bystander = await server.connect(other.sessionId, other.token);
    await bystander.waitFor('history');
    bystander.sendRaw('{bad');
    await bystander.waitFor('error');
    expect(bystander.events.filter((event) => event.type === 'error').map((event) => event.payload.code)).toEqual(['invalid_json']);
    for (const client of [first, second, bystander]) client.close();
  });

  it('announces every burst once: a second flood after the budget refilled gets its own rate_limited (fuzzer finding)', async () => {
    server = await startTestServer({ env: { WS_RATE_LIMIT: '3', TURN_RATE_LIMIT: '1000' } });
    const { token, sessionId } = await learnerWithSession(server);
    const client = await server.connect(sessionId, token);
    await client.waitFor('history');
    const codes = () => client.events.filter((event) => event.type === 'error').map((event) => event.payload.code);
    for (let index = 0; index < 5; index += 1) client.sendRaw('{bad');
    await client.waitFor('error', { where: (event) => event.payload.code === 'rate_limited' });
    expect(codes()).toEqual(['invalid_json', 'invalid_json', 'invalid_json', 'rate_limited']);
    // 3 frames per 10 s: one token is back after 3.34 s.
    await new Promise((resolve) => setTimeout(resolve, 3600));
    for (let index = 0; index < 3; index += 1) client.sendRaw('{bad');
    const deadline = Date.now() + 5000;
    while (codes().length < 6 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(codes()).toEqual(['invalid_json', 'invalid_json', 'invalid_json', 'rate_limited', 'invalid_json', 'rate_limited']);
    client.close();
  });

  it('charges HTTP steps to the same turn budget: 429 with Retry-After', async () => {
    server = await startTestServer({ env: { TURN_RATE_LIMIT: '2' } });
    const { token, sessionId } = await learnerWithSession(server);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let index = 0; index < 3; index += 1) {
      const response = await fetch(`${server.url}/api/sessions/${sessionId}/step`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ message: `step ${index}` }),
      });
      statuses.push(response.status);
      if (response.status === 429) {
        retryAfter = response.headers.get('retry-after');
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      } else {
        await response.arrayBuffer();
      }
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });
});
