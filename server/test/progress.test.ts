/**
 * The progress API (SPEC §6: history, stats, scorecard, subtopic progress) on the real server
 * with a temporary SQLite file and a fixed clock. Sessions are created over HTTP; what their
 * turns would have stored (checklist marks, cards and review logs, assessment responses and
 * abilities, learning mastery) is written through the storage port at chosen times, so every
 * figure below is worked out by hand in its comment. A second learner's data, built to change
 * every figure if it leaked, never appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SessionType,
  type BlueprintList,
  type CardList,
  type ProgressStats,
  type Scorecard,
  type SessionHistory,
  type SessionStatus,
  type StudyPlanDetail,
  type StudyPlanList,
  type SubtopicProgress,
} from '@tutorloop/shared';
import { newCard, type CardRecord, type RatingName } from '../src/core/scheduler/fsrs';
import { storedItem, storedResponse } from './storage-contract/fixtures';
import { startTestPostgres, startTestServer, stopTestPostgres, testEngines, type TestServer } from './helpers/test-server';

let current = new Date('2026-03-10T15:00:00.000Z');
const now = new Date('2026-03-10T15:00:00.000Z');
let server: TestServer;

const at = (time: string) => new Date(`2026-${time}Z`);

/** Runs a request with the server's clock at `time`. */
async function atTime<T>(time: Date, work: () => Promise<T>): Promise<T> {
  current = time;
  try {
    return await work();
  } finally {
    current = now;
  }
}

async function createSession(token: string, body: object, createdAt: Date): Promise<string> {
  const response = await atTime(createdAt, () => server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body }));
  if (response.status !== 201) throw new Error(`create session failed: ${JSON.stringify(response.body)}`);
  return response.body.sessionId;
}

/** Sets a session's status as its room would have, its last change at `changedAt` (and its end, when `ended`). */
async function setStatus(sessionId: string, status: SessionStatus, changedAt: Date, ended: boolean): Promise<void> {
  await server.server.storage.transaction((tx) => tx.sessions.update(sessionId, { status, endedAt: ended ? changedAt : null }, changedAt));
}

async function markRecalled(sessionId: string, pointIds: string[], when: Date): Promise<void> {
  await server.server.storage.transaction(async (tx) => {
    for (const pointId of pointIds) await tx.checklists.markRecalled(sessionId, pointId, { confidence: 0.9, observation: 'said it', turn: 1, at: when });
  });
}

function card(state: CardRecord['state'], due: Date, stability: number): CardRecord {
  return { ...newCard(at('01-01T00:00:00')), state, due, stability, difficulty: 5, reps: 1, scheduledDays: 1, lastReview: at('01-01T00:00:00') };
}

let logCounter = 0;
/** The learner's card for the point as given, and its reviews, each `[time, previous state, rating]`. */
async function seedCard(learnerId: string, pointId: string, stored: CardRecord, reviews: Array<[string, CardRecord['state'], RatingName]>): Promise<void> {
  await server.server.storage.transaction(async (tx) => {
    const cardId = await tx.cards.save({ learnerId, pointId, card: stored, newId: `card-${pointId}` });
    for (const [time, state, rating] of reviews) {
      logCounter += 1;
      const reviewedAt = at(time);
      await tx.cards.addReviewLog(`log-${logCounter}`, { cardId, sessionId: 'seeded', rating, confidence: null, previous: card(state, reviewedAt, 1), reviewedAt });
    }
  });
}

async function scoreAssessment(sessionId: string, learnerId: string, credits: number[], abilities?: { overall: number; domains: Record<string, number> }): Promise<void> {
  await server.server.storage.transaction(async (tx) => {
    for (const [index, credit] of credits.entries()) {
      const item = storedItem(sessionId, `${sessionId}-item-${index}`, index + 1, `${sessionId}-fp-${index}`);
      await tx.assessments.addItem(item);
      await tx.assessments.addResponse(sessionId, storedResponse(item.id, 20 + index, credit));
    }
    if (abilities) {
      await tx.assessments.saveAbilities(
        sessionId,
        learnerId,
        {
          overall: { ability: abilities.overall, standardError: 0.5, responses: credits.length },
          domains: Object.entries(abilities.domains).map(([domain, ability]) => ({ domain, ability, standardError: 0.7, responses: 1 })),
        },
        at('03-09T12:10:00'),
      );
    }
  });
}

async function setMastery(sessionId: string, mastery: Record<string, number>, planComplete: boolean, changedAt: Date, status: SessionStatus): Promise<void> {
  await server.server.storage.transaction(async (tx) => {
    const session = await tx.sessions.get(sessionId);
    if (session?.type !== 'learning') throw new Error('not a learning session');
    await tx.sessions.update(sessionId, { status, endedAt: status === 'completed' ? changedAt : null, typeState: { ...session.typeState, mastery, planComplete } }, changedAt);
  });
}

interface World {
  ada: { token: string; id: string };
  bob: { token: string; id: string };
  sessions: Record<'L1' | 'A1' | 'R1' | 'A2' | 'R2' | 'L2', string>;
  capitals: string;
  rivers: string;
  blueprint: { id: string; title: string; totalItems: number };
  plan: { id: string; title: string; concepts: string[] };
}
let world: World;

beforeAll(startTestPostgres, 120_000);
afterAll(stopTestPostgres, 60_000);

describe.each(testEngines)('on %s', (engine) => {
  beforeAll(async () => {
    server = await startTestServer({ engine, clock: { now: () => current } });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeAll(async () => {
    const adaAuth = await server.register();
    const bobAuth = await server.register();
    const ada = { token: adaAuth.token, id: adaAuth.learner.id };
    const bob = { token: bobAuth.token, id: bobAuth.learner.id };

    // Ada's sets: Capitals (p0, p1, p2) at 14:00, Rivers (r0) at 14:10 — so Rivers is the most recently updated.
    const capitals = await atTime(at('03-10T14:00:00'), () => server.createSet(ada.token, ['Paris is the capital of France', 'Rome is the capital of Italy', 'Bern is the capital of Switzerland'], 'Capitals'));
    const rivers = await atTime(at('03-10T14:10:00'), () => server.createSet(ada.token, ['The Danube flows into the Black Sea'], 'Rivers'));
    const [p0, p1, p2] = capitals.points.map((point) => point.id) as [string, string, string];
    const r0 = rivers.points[0]!.id;

    const blueprint = (await server.api<BlueprintList>('GET', '/api/blueprints', { token: ada.token })).body.blueprints[0]!;
    const builtIn = (await server.api<StudyPlanList>('GET', '/api/study-plans', { token: ada.token })).body.studyPlans.find((plan) => plan.builtIn)!;
    const planDetail = (await server.api<StudyPlanDetail>('GET', `/api/study-plans/${builtIn.id}`, { token: ada.token })).body;
    const concepts = [...new Set(planDetail.plan.steps.map((step) => step.concept))];
    expect(concepts.length).toBeGreaterThanOrEqual(3);

    // Ada's sessions, created over HTTP at these times (newest last).
    const L1 = await createSession(ada.token, { type: 'learning', studyPlanId: builtIn.id }, at('03-07T10:00:00'));
    const A1 = await createSession(ada.token, { type: 'assessment', blueprintId: blueprint.id }, at('03-08T10:00:00'));
    const R1 = await createSession(ada.token, { type: 'recall', recallSetId: capitals.id }, at('03-09T10:00:00'));
    const A2 = await createSession(ada.token, { type: 'assessment', blueprintId: blueprint.id }, at('03-09T12:00:00'));
    const R2 = await createSession(ada.token, { type: 'recall', recallSetId: rivers.id }, at('03-10T09:00:00'));
    const L2 = await createSession(ada.token, { type: 'learning', studyPlanId: builtIn.id }, at('03-10T11:00:00'));

    // L1 still open, last change 15 min in (900 s); L2 completed the plan after 20 min (1200 s).
    await setMastery(L1, { [concepts[0]!]: 0.9, [concepts[1]!]: 0.3 }, false, at('03-07T10:15:00'), 'active');
    await setMastery(L2, { [concepts[0]!]: 0.5 }, true, at('03-10T11:20:00'), 'completed');
    // A1: 12 min, credits 1 + 1 + 0.5 = 2.5. A2: 10 min, credits 1 + 0 = 1, with abilities (the latest attempt).
    await scoreAssessment(A1, ada.id, [1, 1, 0.5]);
    await setStatus(A1, 'completed', at('03-08T10:12:00'), true);
    await scoreAssessment(A2, ada.id, [1, 0], { overall: -0.25, domains: { arithmetic: 0.4, algebra: -0.8 } });
    await setStatus(A2, 'completed', at('03-09T12:10:00'), true);
    // R1: 5 min, p0 and p1 recalled of three. R2: abandoned after 2.5 min, r0 recalled.
    await markRecalled(R1, [p0, p1], at('03-09T10:03:00'));
    await setStatus(R1, 'completed', at('03-09T10:05:00'), true);
    await markRecalled(R2, [r0], at('03-10T09:01:00'));
    await setStatus(R2, 'abandoned', at('03-10T09:02:30'), true);

    // Ada's cards: p0 due three hours ago, p1 due the day after tomorrow, r0 due later today, p2 never reviewed.
    await seedCard(ada.id, p0, card('review', at('03-10T12:00:00'), 4), [
      ['03-01T10:00:00', 'new', 'good'],
      ['03-08T10:00:00', 'review', 'again'],
      ['03-09T10:00:00', 'review', 'good'],
    ]);
    await seedCard(ada.id, p1, card('review', at('03-12T00:00:00'), 10), [
      ['03-03T10:00:00', 'new', 'good'],
      ['03-09T18:00:00', 'review', 'easy'],
      ['03-10T09:00:00', 'review', 'good'],
    ]);
    await seedCard(ada.id, r0, card('review', at('03-10T20:00:00'), 2.5), [
      ['01-15T10:00:00', 'review', 'hard'],
      ['02-01T10:00:00', 'review', 'good'],
      ['02-02T10:00:00', 'review', 'again'],
      ['02-03T10:00:00', 'review', 'good'],
      ['02-04T10:00:00', 'review', 'good'],
    ]);

    // Bob: built so that any leak changes Ada's figures — a review today (Ada's streak, retention),
    // a better score on the same blueprint, and the newest mastery of the same plan's first concept.
    const bobSet = await atTime(at('03-10T14:30:00'), () => server.createSet(bob.token, ['Bob remembers this'], 'Bob set'));
    const bobPoint = bobSet.points[0]!.id;
    await seedCard(bob.id, bobPoint, card('review', at('03-10T13:00:00'), 30), [
      ['03-05T10:00:00', 'new', 'good'],
      ['03-10T10:00:00', 'review', 'again'],
    ]);
    const bobRecall = await createSession(bob.token, { type: 'recall', recallSetId: bobSet.id }, at('03-10T12:00:00'));
    await markRecalled(bobRecall, [bobPoint], at('03-10T12:01:00'));
    await setStatus(bobRecall, 'completed', at('03-10T12:02:00'), true);
    const bobAssessment = await createSession(bob.token, { type: 'assessment', blueprintId: blueprint.id }, at('03-10T12:30:00'));
    await scoreAssessment(bobAssessment, bob.id, [1, 1, 1, 1], { overall: 2, domains: { arithmetic: 2 } });
    await setStatus(bobAssessment, 'completed', at('03-10T12:40:00'), true);
    const bobLearning = await createSession(bob.token, { type: 'learning', studyPlanId: builtIn.id }, at('03-10T13:00:00'));
    await setMastery(bobLearning, { [concepts[0]!]: 1, [concepts[2]!]: 0.95 }, true, at('03-10T13:30:00'), 'completed');

    world = {
      ada,
      bob,
      sessions: { L1, A1, R1, A2, R2, L2 },
      capitals: capitals.id,
      rivers: rivers.id,
      blueprint: { id: blueprint.id, title: blueprint.title, totalItems: blueprint.totalItems },
      plan: { id: builtIn.id, title: planDetail.plan.title, concepts },
    };
  });

  describe('GET /api/sessions/stats', () => {
    it('returns the figures worked out by hand', async () => {
      const response = await server.api<ProgressStats>('GET', '/api/sessions/stats', { token: world.ada.token });
      expect(response.status).toBe(200);
      const minutes: Record<string, [number, number, number]> = {
        recall: [2, 1, 7.5], // R1 300 s + R2 150 s; only R1 completed
        assessment: [2, 2, 22], // 720 s + 600 s
        learning: [2, 1, 35], // L1 open, 900 s to its last change + L2 1200 s
      };
      expect(response.body).toEqual({
        asOf: '2026-03-10T15:00:00.000Z',
        timeZone: 'UTC',
        sessions: {
          total: 6,
          minutes: 64.5,
          byType: SessionType.options.map((type) => {
            const [sessions, completed, typeMinutes] = minutes[type] ?? [0, 0, 0];
            return { type, sessions, completed, minutes: typeMinutes };
          }),
        },
        pointsRecalled: 3, // p0, p1 in R1; r0 in R2
        reviews: {
          done: 11, // 3 + 3 + 5
          dueNow: 2, // p0 (due 12:00) and p2 (new)
          dueToday: 3, // + r0 at 20:00
          dueNext7Days: 4, // + p1 on the 12th
          newPoints: 1, // p2
          // p0, p1, r0 were last reviewed on 1 Jan, 68 days ago, more than each one's stability (4, 10,
          // 2.5 days): recall probability is 0.9 when the days elapsed equal the stability, so all three
          // are below the desired 0.9. p2 was never reviewed and has no probability.
          belowDesiredRetention: 3,
        },
        // Reviews of review-state cards after 8 Feb 15:00: p0 again, p0 good, p1 easy, p1 good → 3 of 4.
        retention: { windowDays: 30, reviews: 4, passed: 3, rate: 0.75, desired: 0.9 },
        // Review days: 15 Jan; 1–4 Feb (4); 1 Mar; 3 Mar; 8–10 Mar (3, ending today).
        streak: { current: 3, longest: 4, lastReviewDay: '2026-03-10' },
        activity: expect.any(Array),
      });
      // 9 Feb … 10 Mar. Reviews: 1 Mar (p0), 3 Mar (p1), 8 Mar (p0), 9 Mar (p0, p1), 10 Mar (p1); r0's
      // are before the window. Sessions on the day they began: L1 (15 min) on the 7th, A1 (12) on the
      // 8th, R1 (5) and A2 (10) on the 9th, R2 (2.5) and L2 (20) today.
      const active: Record<string, [number, number, number]> = {
        '2026-03-01': [1, 0, 0],
        '2026-03-03': [1, 0, 0],
        '2026-03-07': [0, 1, 15],
        '2026-03-08': [1, 1, 12],
        '2026-03-09': [2, 2, 15],
        '2026-03-10': [1, 2, 22.5],
      };
      const activity = response.body.activity;
      expect(activity).toHaveLength(30);
      expect(activity[0]!.day).toBe('2026-02-09');
      expect(activity[29]!.day).toBe('2026-03-10');
      for (const entry of activity) {
        const [reviews, sessions, minutes] = active[entry.day] ?? [0, 0, 0];
        expect(entry, entry.day).toEqual({ day: entry.day, reviews, sessions, minutes });
      }
    });

    it('counts below the learner’s own desired retention, the same points the schedule shows below it', async () => {
      const cards = async () => {
        const lists = await Promise.all([world.capitals, world.rivers].map((id) => server.api<CardList>('GET', `/api/cards?recallSetId=${id}`, { token: world.ada.token })));
        return lists.flatMap((list) => list.body.cards.map((entry) => entry.retrievability));
      };
      const probabilities = await cards();
      expect(probabilities.filter((value) => value !== null)).toHaveLength(3);
      const changed = await server.api('PATCH', '/api/me', { token: world.ada.token, body: { desiredRetention: 0.7 } });
      expect(changed.status).toBe(200);
      try {
        const response = await server.api<ProgressStats>('GET', '/api/sessions/stats', { token: world.ada.token });
        expect(response.body.retention.desired).toBe(0.7);
        // The schedule's recall probabilities, compared with 0.7 by hand, give the dashboard's count.
        const below = (await cards()).filter((value) => value !== null && value < 0.7).length;
        expect(response.body.reviews.belowDesiredRetention).toBe(below);
      } finally {
        await server.api('PATCH', '/api/me', { token: world.ada.token, body: { desiredRetention: 0.9 } });
      }
    });

    it('counts days in the time zone asked for, and refuses an unknown one by name', async () => {
      // 15:00 UTC on 10 March is 08:00 in Los Angeles (UTC−7), 00:00 on the 11th in Tokyo (UTC+9).
      const la = await server.api<ProgressStats>('GET', '/api/sessions/stats?timeZone=America/Los_Angeles', { token: world.ada.token });
      expect(la.status).toBe(200);
      expect(la.body.timeZone).toBe('America/Los_Angeles');
      // Review times in Los Angeles: p1's 09:00 UTC review on the 10th was 02:00 on the 10th there, and
      // p1's 9 March 18:00 UTC was 11:00 on the 9th; the 8th's and 1st's stay. Days: 1, 3, 8, 9, 10 March.
      expect(la.body.streak).toEqual({ current: 3, longest: 4, lastReviewDay: '2026-03-10' });
      expect(la.body.activity.at(-1)!.day).toBe('2026-03-10');
      const tokyo = await server.api<ProgressStats>('GET', '/api/sessions/stats?timeZone=Asia/Tokyo', { token: world.ada.token });
      // In Tokyo it is already the 11th, with no review yet: yesterday's run is still alive.
      expect(tokyo.body.activity.at(-1)).toEqual({ day: '2026-03-11', reviews: 0, sessions: 0, minutes: 0 });
      expect(tokyo.body.streak.lastReviewDay).toBe('2026-03-10');
      // Due by the end of Tokyo's 11th (15:00 UTC on the 11th): p0, p2, r0 — p1 is due on the 12th UTC.
      expect(tokyo.body.reviews.dueToday).toBe(3);
      const bad = await server.api('GET', '/api/sessions/stats?timeZone=Mars/Olympus_Mons', { token: world.ada.token });
      expect(bad).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'timeZone: must be an IANA time zone such as Europe/Paris' } } });
    });

    it('gives the other learner only their own figures', async () => {
      const bob = (await server.api<ProgressStats>('GET', '/api/sessions/stats', { token: world.bob.token })).body;
      expect(bob.sessions.total).toBe(3);
      expect(bob.pointsRecalled).toBe(1);
      // Bob's card (stability 30) was last reviewed 68 days ago: below 0.9.
      expect(bob.reviews).toEqual({ done: 2, dueNow: 1, dueToday: 1, dueNext7Days: 1, newPoints: 0, belowDesiredRetention: 1 });
      expect(bob.retention).toEqual({ windowDays: 30, reviews: 1, passed: 0, rate: 0, desired: 0.9 });
      expect(bob.activity.filter((day) => day.reviews + day.sessions > 0)).toEqual([
        { day: '2026-03-05', reviews: 1, sessions: 0, minutes: 0 },
        // Three sessions today: recall 2 min, assessment 10 min, learning 30 min.
        { day: '2026-03-10', reviews: 1, sessions: 3, minutes: 42 },
      ]);
      expect(bob.streak).toEqual({ current: 1, longest: 1, lastReviewDay: '2026-03-10' });
    });

    it('moves with the clock: tomorrow, yesterday’s streak is still alive and r0 is due', async () => {
      const response = await atTime(at('03-11T08:00:00'), () => server.api<ProgressStats>('GET', '/api/sessions/stats', { token: world.ada.token }));
      expect(response.body.streak).toEqual({ current: 3, longest: 4, lastReviewDay: '2026-03-10' });
      // p0, p2 and r0 due; by the end of the 11th the same; p1 (12th) within the week.
      expect(response.body.reviews).toEqual({ done: 11, dueNow: 3, dueToday: 3, dueNext7Days: 4, newPoints: 1, belowDesiredRetention: 3 });
      // The activity window moved a day: 11 Mar is last and idle, 10 Feb first.
      expect(response.body.activity[0]!.day).toBe('2026-02-10');
      expect(response.body.activity[29]).toEqual({ day: '2026-03-11', reviews: 0, sessions: 0, minutes: 0 });
      const later = await atTime(at('03-12T08:00:00'), () => server.api<ProgressStats>('GET', '/api/sessions/stats', { token: world.ada.token }));
      expect(later.body.streak.current).toBe(0);
    });
  });

  describe('GET /api/sessions/scorecard', () => {
    it('returns recall rates, mastery per concept, best scores and abilities worked out by hand', async () => {
      const response = await server.api<Scorecard>('GET', '/api/sessions/scorecard', { token: world.ada.token });
      expect(response.status).toBe(200);
      const [first, second, ...rest] = world.plan.concepts;
      expect(response.body).toEqual({
        asOf: '2026-03-10T15:00:00.000Z',
        recallSets: [
          // Most recently updated first. Rivers: 5 reviews, 1 Again → 0.8; r0 due at 20:00, not now.
          { recallSetId: world.rivers, name: 'Rivers', pointCount: 1, reviewedPoints: 1, dueNow: 0, reviews: 5, recalled: 4, recallRate: 0.8, meanStability: 2.5 },
          // Capitals: 6 reviews, 1 Again → 0.8333; stability (4 + 10) / 2 = 7; due: p0 and new p2.
          { recallSetId: world.capitals, name: 'Capitals', pointCount: 3, reviewedPoints: 2, dueNow: 2, reviews: 6, recalled: 5, recallRate: 0.8333, meanStability: 7 },
        ],
        studyPlans: [
          {
            studyPlanId: world.plan.id,
            title: world.plan.title,
            sessions: 2,
            completed: true,
            lastStudiedAt: '2026-03-10T11:00:00.000Z',
            // (0.5 + 0.3 + 0 × the rest) / the number of concepts
            meanMastery: Math.round((0.8 / world.plan.concepts.length) * 1000) / 1000,
            concepts: [
              { concept: first, mastery: 0.5, level: 'developing' }, // L2's, the most recent evidence (not L1's 0.9)
              { concept: second, mastery: 0.3, level: 'learning' }, // only L1 has evidence
              ...rest.map((concept) => ({ concept, mastery: null, level: 'not_started' })),
            ],
          },
        ],
        assessments: [
          {
            blueprintId: world.blueprint.id,
            title: world.blueprint.title,
            attempts: 2,
            best: { sessionId: world.sessions.A1, score: 2.5, maxScore: world.blueprint.totalItems, percent: Math.round((2.5 / world.blueprint.totalItems) * 10_000) / 10_000, endedAt: '2026-03-08T10:12:00.000Z' },
            abilities: {
              sessionId: world.sessions.A2,
              overall: { ability: -0.25, standardError: 0.5, responses: 2 },
              domains: [
                { domain: 'algebra', ability: -0.8, standardError: 0.7, responses: 1 },
                { domain: 'arithmetic', ability: 0.4, standardError: 0.7, responses: 1 },
              ],
            },
          },
        ],
      });
    });

    it('leaves a running assessment out: no score before the end (SPEC §4.3)', async () => {
      const running = await createSession(world.bob.token, { type: 'assessment', blueprintId: world.blueprint.id }, at('03-10T14:50:00'));
      await scoreAssessment(running, world.bob.id, [1, 1, 1, 1, 1]);
      const bob = (await server.api<Scorecard>('GET', '/api/sessions/scorecard', { token: world.bob.token })).body;
      expect(bob.assessments).toHaveLength(1);
      expect(bob.assessments[0]).toMatchObject({ attempts: 1, best: { score: 4 }, abilities: { overall: { ability: 2 } } });
      expect(bob.recallSets.map((set) => set.name)).toEqual(['Bob set']);
      expect(bob.studyPlans[0]!.concepts[0]).toEqual({ concept: world.plan.concepts[0], mastery: 1, level: 'mastered' });
      await server.api('DELETE', `/api/sessions/${running}`, { token: world.bob.token });
    });
  });

  describe('GET /api/sessions/subtopic-progress', () => {
    it('maps each concept to its mastery and level', async () => {
      const response = await server.api<SubtopicProgress>('GET', '/api/sessions/subtopic-progress', { token: world.ada.token });
      expect(response.status).toBe(200);
      const [first, second, ...rest] = world.plan.concepts;
      expect(response.body).toEqual({
        asOf: '2026-03-10T15:00:00.000Z',
        concepts: {
          [first!]: { mastery: 0.5, level: 'developing', studyPlanIds: [world.plan.id] },
          [second!]: { mastery: 0.3, level: 'learning', studyPlanIds: [world.plan.id] },
          ...Object.fromEntries(rest.map((concept) => [concept, { mastery: null, level: 'not_started', studyPlanIds: [world.plan.id] }])),
        },
      });
      const bob = (await server.api<SubtopicProgress>('GET', '/api/sessions/subtopic-progress', { token: world.bob.token })).body;
      expect(bob.concepts[world.plan.concepts[2]!]).toEqual({ mastery: 0.95, level: 'mastered', studyPlanIds: [world.plan.id] });
    });
  });

  describe('GET /api/sessions/history', () => {
    const ids = (history: SessionHistory) => history.sessions.map((session) => session.id);

    it('pages newest first by cursor, with turns and durations', async () => {
      const { L1, A1, R1, A2, R2, L2 } = world.sessions;
      const first = await server.api<SessionHistory>('GET', '/api/sessions/history?limit=4', { token: world.ada.token });
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual([L2, R2, A2, R1]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      expect(first.body.sessions[3]).toEqual({
        id: R1,
        type: 'recall',
        status: 'completed',
        mode: 'recall',
        title: 'Capitals',
        recallSetId: world.capitals,
        recalledCount: 2,
        totalPoints: 3,
        createdAt: '2026-03-09T10:00:00.000Z',
        endedAt: '2026-03-09T10:05:00.000Z',
        turns: 0,
        durationSeconds: 300,
      });
      const second = await server.api<SessionHistory>('GET', `/api/sessions/history?limit=4&cursor=${first.body.nextCursor}`, { token: world.ada.token });
      expect(ids(second.body)).toEqual([A1, L1]);
      expect(second.body.nextCursor).toBeNull();
      expect(second.body.sessions[1]).toMatchObject({ id: L1, status: 'active', endedAt: null, durationSeconds: 900 });
    });

    it('filters by type, status and creation dates', async () => {
      const { A1, R1, A2, R2, L2 } = world.sessions;
      const get = async (query: string) => ids((await server.api<SessionHistory>('GET', `/api/sessions/history?${query}`, { token: world.ada.token })).body);
      expect(await get('type=recall')).toEqual([R2, R1]);
      expect(await get('status=completed')).toEqual([L2, A2, R1, A1]);
      expect(await get('from=2026-03-09&to=2026-03-09')).toEqual([A2, R1]);
      expect(await get('type=assessment&from=2026-03-09T00:00:00Z')).toEqual([A2]);
      expect(await get('to=2026-03-08T10:00:00%2B00:00&status=completed')).toEqual([A1]);
    });

    it('refuses bad parameters with field: message', async () => {
      const refused = async (query: string) => (await server.api('GET', `/api/sessions/history?${query}`, { token: world.ada.token })) as { status: number; body: { error: { code: string; message: string } } };
      expect(await refused('limit=0')).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'limit: Too small: expected number to be >=1' } } });
      expect((await refused('type=chess')).body.error.message).toMatch(/^type: /);
      expect((await refused('from=yesterday')).body.error.message).toBe('from: must be an ISO date (2026-01-05) or date-time (2026-01-05T09:00:00Z)');
      expect((await refused('from=2026-03-10&to=2026-03-09')).body.error.message).toBe('to: must not be before from');
      expect(await refused('cursor=bm90LWEtY3Vyc29y')).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'cursor: not a cursor this API gave out (use nextCursor of the page before)' } } });
    });

    it('shows each learner only their own sessions, and needs a token', async () => {
      const bob = (await server.api<SessionHistory>('GET', '/api/sessions/history', { token: world.bob.token })).body;
      expect(bob.sessions).toHaveLength(3);
      expect(bob.sessions.some((session) => Object.values(world.sessions).includes(session.id))).toBe(false);
      for (const route of ['history', 'stats', 'scorecard', 'subtopic-progress']) {
        expect((await server.api('GET', `/api/sessions/${route}`)).status).toBe(401);
      }
    });
  });

  describe('routing', () => {
    it('never takes history, stats, scorecard or subtopic-progress for a session id; /api/sessions/{id} still works', async () => {
      // Static segments win over `:id` in Fastify's router whatever the registration order.
      for (const route of ['history', 'stats', 'scorecard', 'subtopic-progress']) {
        const response = await server.api<Record<string, unknown>>('GET', `/api/sessions/${route}`, { token: world.ada.token });
        expect(response.status).toBe(200);
        expect(response.body).not.toHaveProperty('error');
      }
      const detail = await server.api<{ session: { id: string } }>('GET', `/api/sessions/${world.sessions.R1}`, { token: world.ada.token });
      expect(detail.status).toBe(200);
      expect(detail.body.session.id).toBe(world.sessions.R1);
      expect((await server.api('GET', `/api/sessions/${world.sessions.R1}`, { token: world.bob.token })).status).toBe(403);
    });
  });
});
