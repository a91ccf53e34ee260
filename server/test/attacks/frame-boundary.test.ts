/**
 * Regression tests for attacks on the WebSocket and HTTP edge (SPEC §8: "no input, however
 * formed, ends the process"). The server runs as its own process, so a crash is a dead
 * child, not a failed assertion somewhere else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, RecallSetDetail } from '@tutorloop/shared';
import { postJson, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { SocketClient } from '../helpers/test-server';

let dataDir: string;
let server: ServerProcess;
let token: string;
let sessionId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-attack-'));
  server = await startServerProcess(dataDir, { WS_RATE_LIMIT: '10000', TURN_RATE_LIMIT: '10000' });
  ({ token } = await postJson<AuthResponse>(server.url, '/api/auth/register', { username: 'mallory', password: 'correct horse battery' }));
  const set = await postJson<RecallSetDetail>(server.url, '/api/recall-sets', { name: 'Cells', points: [{ content: 'mitochondria make ATP' }, { content: 'ribosomes build proteins' }] }, token);
  ({ sessionId } = await postJson<{ sessionId: string }>(server.url, '/api/sessions', { type: 'recall', recallSetId: set.id }, token));
}, 30_000);

afterAll(() => {
  server?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function connect(): Promise<SocketClient> {
  const client = await SocketClient.open(`${server.url.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${encodeURIComponent(token)}`);
  await client.waitFor('history');
  return client;
}

/** The process is alive and still answers a learner's chat over the same socket. */
async function expectStillServing(client: SocketClient, message: string) {
  expect(server.child.exitCode).toBeNull();
  const start = client.events.length;
  client.send({ type: 'chat', payload: { message } });
  await client.waitFor('assistant', { from: start, timeoutMs: 10_000 });
  expect(client.closeCode).toBeNull();
}

describe('frames that once killed the server', () => {
  it('refuses a `type` nested 6,000 arrays deep (RangeError: Maximum call stack size exceeded) and keeps serving', async () => {
    const client = await connect();
    await client.waitFor('assistant', { timeoutMs: 10_000 });
    const start = client.events.length;
    client.sendRaw(`{"type":${'['.repeat(6000)}${']'.repeat(6000)},"payload":{}}`);
    const error = await client.waitFor('error', { from: start });
    expect(error.payload).toEqual({ code: 'invalid_payload', message: 'Frame nests deeper than 16 levels.' });
    await expectStillServing(client, 'I am not sure yet');
    client.close();
  });

  it('refuses a `type` that is a deeply nested object, and one nested just under the limit that is still not a type', async () => {
    const client = await connect();
    const start = client.events.length;
    client.sendRaw(`{"type":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)},"payload":{}}`);
    client.sendRaw(`{"type":${'['.repeat(10)}${']'.repeat(10)},"payload":{}}`);
    client.sendRaw(JSON.stringify({ type: 'x'.repeat(10_000), payload: {} }));
    await client.waitFor('error', { from: start, where: (event) => event.payload.message.includes('"xxx') });
    const errors = client.events.slice(start).filter((event) => event.type === 'error');
    expect(errors.map((event) => event.payload)).toEqual([
      { code: 'invalid_payload', message: 'Frame nests deeper than 16 levels.' },
      { code: 'unknown_type', message: 'Unknown message type an array; expected one of chat, widget_response, rabbithole, end_session, stop, retry.' },
      { code: 'unknown_type', message: `Unknown message type "${'x'.repeat(40)}…"; expected one of chat, widget_response, rabbithole, end_session, stop, retry.` },
    ]);
    await expectStillServing(client, 'Could you give me a hint?');
    client.close();
  });

  it('refuses deep nesting inside a payload, prototype keys and wrong types without effect', async () => {
    const client = await connect();
    const start = client.events.length;
    client.sendRaw(`{"type":"chat","payload":{"message":${'['.repeat(100)}${']'.repeat(100)}}}`);
    client.sendRaw('{"type":"chat","payload":{"message":"hello","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}');
    await client.waitFor('assistant', { from: start, timeoutMs: 10_000 });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    const errors = client.events.slice(start).filter((event) => event.type === 'error');
    expect(errors.map((event) => event.payload.code)).toEqual(['invalid_payload']);
    expect(server.child.exitCode).toBeNull();
    client.close();
  });
});

describe('HTTP bodies', () => {
  it('answers a body nested 100,000 levels deep with 400 and keeps serving', async () => {
    const response = await fetch(`${server.url}/api/recall-sets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid_payload', message: 'Request body nests deeper than 32 levels.' } });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
