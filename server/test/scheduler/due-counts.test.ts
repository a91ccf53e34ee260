/**
 * One definition of due and new across every endpoint (SPEC §4.1, §6): the sets list, a set's
 * detail, `GET /api/cards` and a new session's checklist agree — the real server on loopback
 * with a temporary SQLite file and a clock the test moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardList, RecallSetDetail, RecallSetList, SessionState, StepResponse } from '@tutorloop/shared';
import { createScriptedProvider } from '../helpers/scripted-provider';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines, type TestServer } from '../helpers/test-server';

const start = new Date('2026-11-01T09:00:00.000Z').getTime();
let now = start;
const clock = { now: () => new Date(now) };
let server: TestServer;
beforeAll(startTestPostgres, 120_000);
afterAll(stopTestPostgres, 60_000);

describe.each(testEngines)('on %s', (engine) => {
  beforeAll(async () => {
    // Each engine's run starts at the same date (the test moves the clock).
    now = start;
    server = await startTestServer({ engine, provider: createScriptedProvider(), clock });
  });
  afterAll(async () => {
    await server.close();
  });

  async function counts(token: string, setId: string) {
    const list = (await server.api<RecallSetList>('GET', '/api/recall-sets', { token })).body.recallSets.find((set) => set.id === setId)!;
    const detail = (await server.api<RecallSetDetail>('GET', `/api/recall-sets/${setId}`, { token })).body;
    const cards = (await server.api<CardList>('GET', `/api/cards?recallSetId=${setId}`, { token })).body.cards;
    return {
      list: [list.dueCount, list.newCount],
      detail: [detail.dueCount, detail.newCount],
      cards: [cards.filter((card) => card.status !== 'scheduled').length, cards.filter((card) => card.status === 'new').length],
    };
  }

  describe('due and new counts', () => {
    it('are the same on the list, the detail and the cards, before and after a session and when time passes', async () => {
      const { token } = await server.register();
      const set = await server.createSet(token, ['alpha one', 'beta two', 'gamma three', 'delta four', 'epsilon five']);
      expect(await counts(token, set.id)).toEqual({ list: [5, 5], detail: [5, 5], cards: [5, 5] });

      const sessionId = await server.createSession(token, set.id);
      await server.api<StepResponse>('POST', `/api/sessions/${sessionId}/step`, { token, body: { message: 'alpha one' } });
      await server.api('DELETE', `/api/sessions/${sessionId}`, { token });
      // One point reviewed (due in days), four new and due now.
      expect(await counts(token, set.id)).toEqual({ list: [4, 4], detail: [4, 4], cards: [4, 4] });

      now += 30 * 86_400_000;
      expect(await counts(token, set.id)).toEqual({ list: [5, 4], detail: [5, 4], cards: [5, 4] });
      const cards = (await server.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token })).body;
      expect(cards.asOf).toBe(new Date(now).toISOString());
      const reviewed = cards.cards.find((card) => card.content === 'alpha one')!;
      expect(reviewed.status).toBe('due');
      expect(reviewed.retrievability).toBeGreaterThan(0);
      expect(reviewed.retrievability).toBeLessThan(0.9);
      expect(cards.cards.filter((card) => card.status === 'new').every((card) => card.retrievability === null)).toBe(true);
    });

    it('starts an early review, announced in the state, only when nothing is due', async () => {
      const { token } = await server.register();
      const set = await server.createSet(token, ['solo point']);
      const first = await server.createSession(token, set.id);
      const step = await server.api<StepResponse>('POST', `/api/sessions/${first}/step`, { token, body: { message: 'solo point' } });
      expect(step.body.state).not.toHaveProperty('earlyReview');
      expect(await counts(token, set.id)).toEqual({ list: [0, 0], detail: [0, 0], cards: [0, 0] });
      const second = await server.createSession(token, set.id);
      const state = await server.api<{ state: SessionState }>('GET', `/api/sessions/${second}`, { token });
      expect(state.body.state).toMatchObject({ earlyReview: true, totalPoints: 1 });
    });
  });
});
