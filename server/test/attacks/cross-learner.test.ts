/**
 * Insecure direct object references (SPEC §8: "a learner reaches only their own sessions,
 * cards and sets, also via REST ids"): every route and the socket, tried by a second learner
 * with the first learner's ids, and with ids that do not exist. Nothing of the first
 * learner's comes back, and nothing of theirs changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecallSetDetail } from '@tutorloop/shared';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
let owner: { token: string; setId: string; recallSessionId: string; assessmentSessionId: string };
let intruder: { token: string };

beforeAll(async () => {
  server = await startTestServer();
  const { token } = await server.register();
  const set = await server.createSet(token, ['mitochondria make ATP', 'ribosomes build proteins'], 'Private cells');
  const recallSessionId = await server.createSession(token, set.id);
  const assessment = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1' } });
  owner = { token, setId: set.id, recallSessionId, assessmentSessionId: assessment.body.sessionId };
  intruder = { token: (await server.register()).token };
});
afterAll(async () => server.close());

describe("another learner's ids", () => {
  it('are refused on every recall-set and card route (as if absent), and the set is unchanged', async () => {
    const { token } = intruder;
    const attempts = [
      await server.api('GET', `/api/recall-sets/${owner.setId}`, { token }),
      await server.api('PUT', `/api/recall-sets/${owner.setId}`, { token, body: { name: 'Mine now', points: [{ content: 'stolen' }] } }),
      await server.api('DELETE', `/api/recall-sets/${owner.setId}`, { token }),
      await server.api('GET', `/api/cards?recallSetId=${owner.setId}`, { token }),
      await server.api('POST', '/api/sessions', { token, body: { type: 'recall', recallSetId: owner.setId } }),
    ];
    expect(attempts.map((attempt) => attempt.status)).toEqual([404, 404, 404, 404, 404]);
    for (const attempt of attempts) expect(JSON.stringify(attempt.body)).not.toContain('mitochondria');
    const list = await server.api<{ recallSets: Array<{ id: string }> }>('GET', '/api/recall-sets', { token });
    expect(list.body.recallSets).toEqual([]);
    const mine = await server.api<RecallSetDetail>('GET', `/api/recall-sets/${owner.setId}`, { token: owner.token });
    expect(mine.body.name).toBe('Private cells');
    expect(mine.body.points.map((point) => point.content)).toEqual(['mitochondria make ATP', 'ribosomes build proteins']);
  });

  it('are refused on every session route, for recall and assessment sessions alike', async () => {
    const { token } = intruder;
    for (const sessionId of [owner.recallSessionId, owner.assessmentSessionId]) {
      const statuses = [
        (await server.api('GET', `/api/sessions/${sessionId}`, { token })).status,
        (await server.api('GET', `/api/sessions/${sessionId}/replay`, { token })).status,
        (await server.api('GET', `/api/sessions/${sessionId}/summary`, { token })).status,
        (await server.api('POST', `/api/sessions/${sessionId}/step`, { token, body: { message: 'hello' } })).status,
        (await server.api('DELETE', `/api/sessions/${sessionId}`, { token })).status,
      ];
      expect(statuses).toEqual([403, 403, 403, 403, 403]);
      const client = await server.connect(sessionId, token);
      expect(await client.waitForClose()).toBe(4403);
      expect(client.events).toEqual([]);
    }
    const list = await server.api<{ sessions: unknown[] }>('GET', '/api/sessions', { token });
    expect(list.body.sessions).toEqual([]);
    // The owner's sessions are all still there.
    const own = await server.api<{ sessions: Array<{ id: string }> }>('GET', '/api/sessions', { token: owner.token });
    expect(own.body.sessions.map((session) => session.id).sort()).toEqual([owner.recallSessionId, owner.assessmentSessionId].sort());
  });

  it('guessed ids answer exactly as absent ones do, so they reveal nothing', async () => {
    const { token } = intruder;
    for (const guess of ['00000000-0000-0000-0000-000000000000', '1', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(90)]) {
      expect((await server.api('GET', `/api/recall-sets/${guess}`, { token })).status).toBe(404);
      expect((await server.api('GET', `/api/sessions/${guess}`, { token })).status).toBe(404);
      const client = await server.connect(guess, token);
      expect(await client.waitForClose()).toBe(4404);
    }
    // An id longer than any real one is refused by the router before any lookup, and a URL
    // that does not decode is refused too, both in the API's own error shape (they once came
    // back as the framework's {error,code,message,statusCode}, echoing the path).
    const long = await server.api<{ error: { code: string; message: string } }>('GET', `/api/sessions/${'x'.repeat(300)}`, { token });
    // Depending on the router's path it is the max-param refusal or the not-found handler: both say not_found, briefly.
    expect(long.status).toBe(404);
    expect(long.body.error.code).toBe('not_found');
    expect(long.body.error.message.length).toBeLessThan(120);
    const undecodable = await server.api('GET', '/api/sessions/%E0%A4%A', { token });
    expect(undecodable).toEqual({ status: 400, body: { error: { code: 'bad_request', message: 'The URL is not valid (check its percent-encoding).' } } });
    const client = await server.connect('x'.repeat(300), token);
    expect(await client.waitForClose()).toBe(4404);
  });
});
