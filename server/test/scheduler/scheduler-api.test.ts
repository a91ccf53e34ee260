/**
 * The scheduler endpoints (issue 17) on the real server with a temporary SQLite file: a
 * learner with a synthetic review history optimises on demand (202, then the queued run in
 * a worker thread), gets parameters that predict their history better than the defaults and
 * rescheduled cards; another learner stays on the defaults; the simulator answers per retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardList, SchedulerStatus, SimulationResponse } from '@tutorloop/shared';
import { uuidGenerator } from '../../src/core/ports';
import { defaultSchedulerSettings } from '../../src/core/scheduler/fsrs';
import { syntheticReviewLog, syntheticTrueWeights } from '../../src/core/scheduler/synthetic-log';
import { writeHistory } from '../../src/core/scheduler/write-history';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines, type TestServer } from '../helpers/test-server';

const now = new Date('2026-11-01T09:00:00.000Z');
let server: TestServer;
beforeAll(startTestPostgres, 120_000);
afterAll(stopTestPostgres, 60_000);

describe.each(testEngines)('on %s', (engine) => {
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: { now: () => now } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function waitForIdle(token: string): Promise<SchedulerStatus> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const status = (await server.api<SchedulerStatus>('GET', '/api/me/scheduler', { token })).body;
      if (status.optimization.state === 'idle' || status.optimization.state === 'failed') return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('optimisation did not finish');
  }

  describe('scheduler API', () => {
    it('optimises a learner with a synthetic history, keeps better parameters and reschedules their cards only', async () => {
      const ada = await server.register();
      const bob = await server.register();
      const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: 100, reviewsPerCard: 5, seed: 'api', start: new Date('2026-01-01T00:00:00.000Z'), spreadDays: 60 })
        .map((reviews) => reviews.filter((review) => review.reviewedAt < now));
      const set = await server.createSet(ada.token, log.map((_, index) => `synthetic point ${index}`));
      await server.server.storage.transaction(async (tx) => {
        for (const [index, reviews] of log.entries()) {
          await writeHistory(tx, { learnerId: ada.learner.id, pointId: set.points[index]!.id, reviews }, defaultSchedulerSettings, uuidGenerator);
        }
      });
      const reviewCount = log.flat().length;

      const fresh = (await server.api<SchedulerStatus>('GET', '/api/me/scheduler', { token: ada.token })).body;
      expect(fresh).toMatchObject({ desiredRetention: 0.9, parameters: { source: 'default', run: null }, reviewCount, optimization: { state: 'idle' }, runs: [] });
      const cardsBefore = (await server.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token: ada.token })).body.cards;

      const accepted = await server.api<SchedulerStatus>('POST', '/api/me/scheduler/optimize', { token: ada.token });
      expect(accepted.status).toBe(202);
      expect(['queued', 'running', 'idle']).toContain(accepted.body.optimization.state);
      const done = await waitForIdle(ada.token);
      expect(done.parameters.source).toBe('optimised');
      expect(done.parameters.run).toMatchObject({ reviewCount, kept: true, previousSource: 'default' });
      expect(done.parameters.run!.metrics.logLoss).toBeLessThan(done.parameters.run!.previousMetrics.logLoss);
      expect(done.runs).toHaveLength(1);

      const cardsAfter = (await server.api<CardList>('GET', `/api/cards?recallSetId=${set.id}`, { token: ada.token })).body.cards;
      expect(cardsAfter.some((card, index) => card.due !== cardsBefore[index]!.due)).toBe(true);

      // Bob has no history and stays on the defaults; he cannot optimise yet.
      expect((await server.api<SchedulerStatus>('GET', '/api/me/scheduler', { token: bob.token })).body.parameters.source).toBe('default');
      const refused = await server.api('POST', '/api/me/scheduler/optimize', { token: bob.token });
      expect(refused).toEqual({ status: 409, body: { error: { code: 'conflict', message: 'Optimising needs at least 100 reviews; you have 0. Keep reviewing and try again.' } } });

      // Help me decide: more retention, more reviews.
      const simulated = await server.api<SimulationResponse>('POST', '/api/me/scheduler/simulate', { token: ada.token, body: { retentions: [0.95, 0.8, 0.9], days: 30 } });
      expect(simulated.status).toBe(200);
      expect(simulated.body.points.map((point) => point.retention)).toEqual([0.8, 0.9, 0.95]);
      expect(simulated.body.cardCount).toBe(100);
      const perDay = simulated.body.points.map((point) => point.reviewsPerDay);
      expect(perDay[0]!).toBeLessThan(perDay[1]!);
      expect(perDay[1]!).toBeLessThan(perDay[2]!);
    }, 60_000);

    it('refuses a bad simulation body with field: message', async () => {
      const { token } = await server.register();
      const bad = await server.api('POST', '/api/me/scheduler/simulate', { token, body: { retentions: [1.5], days: 3 } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: { code: 'invalid_payload' } });
      expect((bad.body as { error: { message: string } }).error.message).toMatch(/^retentions\.0: .*; days: /);
    });
  });
});
