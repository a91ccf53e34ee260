/**
 * Text from clients is made well-formed at the edge (SPEC §8): lone UTF-16 surrogates and
 * invalid UTF-8 become U+FFFD, so what is stored is valid UTF-8 and comes back as sent
 * wherever it was well-formed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecallSetDetail, SessionReplay } from '@tutorloop/shared';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** Every learner message of the session as stored, read back through the storage port (whatever the engine). */
async function storedLearnerMessages(sessionId: string): Promise<string[]> {
  const messages = await server.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
  return messages.filter((message) => message.role === 'learner').map((message) => message.content);
}

/**
 * Whether a string is well-formed UTF-16 (no lone surrogate), i.e. has an exact UTF-8 form:
 * encoding turns a lone surrogate into U+FFFD, so only well-formed text survives the round trip.
 */
function isWellFormed(text: string): boolean {
  return Buffer.from(text, 'utf8').toString('utf8') === text;
}

describe('well-formed text', () => {
  it('stores a chat with a lone surrogate as U+FFFD and keeps the valid emoji beside it', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins']);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant', { timeoutMs: 10_000 });
    const start = client.events.length;
    // Written by hand: JSON.stringify would escape the lone surrogate the same way, the point is the escape.
    client.sendRaw('{"type":"chat","payload":{"message":"broken \\ud83d and whole \\ud83d\\ude00"}}');
    await client.waitFor('assistant', { from: start, timeoutMs: 10_000 });
    const stored = await storedLearnerMessages(sessionId);
    expect(stored).toEqual(['broken \ufffd and whole 😀']);
    // What the engine holds is valid UTF-8 text: read back, it has no lone surrogate.
    expect(stored.every(isWellFormed)).toBe(true);
    const replay = await server.api<SessionReplay>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(replay.body.messages.find((entry) => entry.role === 'learner')?.content).toBe('broken \ufffd and whole 😀');
    client.close();
  });

  it('answers a text frame of invalid UTF-8 on a connection that survives, with the bytes replaced', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins']);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant', { timeoutMs: 10_000 });
    const start = client.events.length;
    const frame = Buffer.concat([Buffer.from('{"type":"chat","payload":{"message":"bad '), Buffer.from([0xff, 0xc3]), Buffer.from(' bytes"}}')]);
    client.sendRaw(frame);
    await client.waitFor('assistant', { from: start, timeoutMs: 10_000 });
    expect(client.closeCode).toBeNull();
    const stored = await storedLearnerMessages(sessionId);
    expect(stored).toEqual(['bad \ufffd\ufffd bytes']);
    expect(stored.every(isWellFormed)).toBe(true);
    client.close();
  });

  it('stores recall points sent over REST with lone surrogates as U+FFFD, and round-trips well-formed text exactly', async () => {
    const { token } = await server.register();
    const response = await server.api<RecallSetDetail>('POST', '/api/recall-sets', {
      token,
      raw: '{"name":"Unicode \\udc00 set","points":[{"content":"naïve café — 日本語 😀"},{"content":"half \\ud800 pair"}]}',
    });
    expect(response.status).toBe(201);
    const detail = await server.api<RecallSetDetail>('GET', `/api/recall-sets/${response.body.id}`, { token });
    expect(detail.body.name).toBe('Unicode \ufffd set');
    expect(detail.body.points.map((point) => point.content)).toEqual(['naïve café — 日本語 😀', 'half \ufffd pair']);
  });
});
