/**
 * SPEC §11: `DATABASE_URL=postgres://…` serves the product on PostgreSQL — the real server on
 * loopback, a real PostgreSQL (helpers/postgres-server.ts), a recall turn over `ws`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from './helpers/scripted-provider';
import { startPostgresServer, type PostgresServer } from './helpers/postgres-server';
import { startTestServer, type TestServer } from './helpers/test-server';

let database: PostgresServer;
let url = '';
const servers: TestServer[] = [];

beforeAll(async () => {
  database = await startPostgresServer();
  url = await database.createDatabase('server');
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await database?.stop();
}, 60_000);

async function start(): Promise<TestServer> {
  const server = await startTestServer({ provider: createScriptedProvider(), env: { DATABASE_URL: url } });
  servers.push(server);
  return server;
}

describe('the server on PostgreSQL', () => {
  it('runs a recall turn, keeps it in PostgreSQL (no SQLite file), and a second instance on the database serves it too', async () => {
    const server = await start();
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins'], 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'I think mitochondria make ATP', clientMessageId: 'c1' } });
    await client.waitFor('state_update', { from, where: (event) => event.payload.state.recalledCount === 1 });
    client.close();

    expect(existsSync(path.join(server.dataDir, 'tutorloop.sqlite'))).toBe(false);
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    try {
      const stored = await direct.query<{ role: string; content: string }>('SELECT role, content FROM messages WHERE session_id = $1 ORDER BY seq', [sessionId]);
      expect(stored.rows.map((row) => [row.role, row.content])).toEqual([
        ['tutor', 'Tutor reply for turn 0.'],
        ['learner', 'I think mitochondria make ATP'],
        ['tutor', 'Tutor reply for turn 1.'],
      ]);
    } finally {
      await direct.end();
    }

    // Another instance started on the same database finds the learner, their session and its history.
    const other = await start();
    const login = await other.api<{ token: string }>('POST', '/api/auth/login', { body: { username: (await server.api<{ learner: { username: string } }>('GET', '/api/me', { token })).body.learner.username, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const sessions = await other.api<{ sessions: Array<{ id: string; recalledCount: number }> }>('GET', '/api/sessions', { token: login.body.token });
    expect(sessions.body.sessions.map((session) => [session.id, session.recalledCount])).toEqual([[sessionId, 1]]);
    const again = await other.connect(sessionId, login.body.token);
    const history = await again.waitFor('history');
    expect(history.payload.messages.map((message) => [message.role, message.content])).toEqual([
      ['tutor', 'Tutor reply for turn 0.'],
      ['learner', 'I think mitochondria make ATP'],
      ['tutor', 'Tutor reply for turn 1.'],
    ]);
    again.close();
  });

  it('refuses text PostgreSQL cannot store (a NUL character) with a plain 400, storing nothing', async () => {
    const server = await start();
    const { token } = await server.register();
    const refused = await server.api<{ error: { code: string; message: string } }>('POST', '/api/recall-sets', {
      token,
      body: { name: 'Nul\u0000set', points: [{ content: 'water boils at 100 degrees' }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: 'bad_request', message: 'Text cannot contain the NUL character (U+0000); remove it and try again.' });
    const sets = await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token });
    expect(sets.body.recallSets).toEqual([]);
  });
});
