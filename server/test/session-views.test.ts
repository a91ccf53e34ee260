/**
 * The GET routes for a session's state, replay and summary (SPEC §6) answer from the stored
 * session with its type's own views (no room is opened for them): what they say is what the
 * session's sockets are told.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryMessage, SessionState, SessionSummary } from '@tutorloop/shared';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines } from './helpers/test-server';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

beforeAll(startTestPostgres, 120_000);
afterAll(stopTestPostgres, 60_000);

describe.each(testEngines)('on %s', (engine) => {
  describe('a session read over REST', () => {
    it('says what its socket said: the state (also before anyone opened it), the replay and, once it has ended, the summary', async () => {
      const target = await startTestServer({ engine });
      cleanup.push(() => target.close());
      const { token } = await target.register();
      const created = await target.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'survey', surveyId: 'course-feedback' } });
      const { sessionId } = created.body;
      const read = () => target.api<{ state: SessionState }>('GET', `/api/sessions/${sessionId}`, { token });

      expect((await read()).body.state).toMatchObject({ sessionId, status: 'pending', type: 'survey', survey: { answered: 0 } });

      const client = await target.connect(sessionId, token);
      cleanup.push(() => client.close());
      const first = (await client.waitFor('widget')).payload;
      const from = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { selectedIndex: 0 } } });
      await client.waitFor('widget', { from });
      const told = client.events.flatMap((event) => (event.type === 'state_update' ? [event.payload.state] : [])).at(-1);
      expect(told).toMatchObject({ status: 'awaiting_client_action', survey: { answered: 1 } });
      expect((await read()).body.state).toEqual(told);

      // The replay is the history a socket opening now receives.
      const second = await target.connect(sessionId, token);
      cleanup.push(() => second.close());
      const history: HistoryMessage[] = (await second.waitFor('history')).payload.messages;
      const replay = await target.api<{ sessionId: string; messages: HistoryMessage[] }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body).toEqual({ sessionId, messages: history });
      expect(history.filter((message) => message.widgetAnswer).map((message) => message.content)).toEqual(['Yes']);

      const early = await target.api<{ error: { code: string } }>('GET', `/api/sessions/${sessionId}/summary`, { token });
      expect(early.body.error.code).toBe('conflict');

      client.send({ type: 'end_session', payload: {} });
      const complete = await client.waitFor('session_complete');
      const summary = await target.api<{ summary: SessionSummary }>('GET', `/api/sessions/${sessionId}/summary`, { token });
      expect(summary.body.summary).toEqual(complete.payload.summary);
      expect(summary.body.summary).toMatchObject({ type: 'survey', status: 'completed', reason: 'ended_by_learner' });
      expect((await read()).body.state).toMatchObject({ status: 'completed', survey: { answered: 1 } });
    });
  });
});
