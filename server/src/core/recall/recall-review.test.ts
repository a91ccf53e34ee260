/**
 * Reviews written by a recall session (SPEC §4.1, ARCHITECTURE.md "Decisions"), golden with
 * fixed dates: the grade reflects how a point was recalled, only points asked about and
 * failed are Again at the end, an early review is announced and scheduled by FSRS.
 * A real recall room on the in-memory storage with a scripted tutor and evaluator.
 */
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../ports';
import { unlimitedModelBudget } from '../limits/model-budget';
import type { RoomBase } from '../session/room-base';
import { fixedClock, recordingListener, recordingProvider, seededIds, type RecordingProvider } from '../session/test-support';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { Storage } from '../storage/storage';
import { newCard, reviewCard } from '../scheduler/fsrs';
import { recallModule } from './recall-module';

const start = new Date('2026-11-01T09:00:00.000Z');
const points = ['p1', 'p2', 'p3', 'p4', 'p5'];
let storage: Storage;
let provider: RecordingProvider;
let clock: ReturnType<typeof fixedClock>;

beforeEach(async () => {
  clock = fixedClock(start);
  storage = createMemoryStorage(sessionTypeCatalog);
  provider = recordingProvider();
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: start });
    await tx.recallSets.create({ id: 'set1', learnerId: 'l1', name: 'Cells', description: null, createdAt: start });
    for (const [position, id] of points.entries()) {
      await tx.recallSets.addPoint({ id, recallSetId: 'set1', content: `Fact number ${id} about cells`, context: null, position, createdAt: start });
    }
  });
});

async function openSession(): Promise<{ room: RoomBase; sessionId: string; heard: ReturnType<typeof recordingListener> }> {
  const recall = recallModule({ storage, provider, clock, ids: seededIds(`s${clock.now().getTime()}`), logger: silentLogger, modelBudget: unlimitedModelBudget });
  const created = await recall.create({ learnerId: 'l1', body: { type: 'recall', recallSetId: 'set1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  const room = recall.openRoom(created.value, () => {});
  const heard = recordingListener();
  await room.attach(heard.listener);
  await room.settled();
  return { room, sessionId: created.value, heard };
}

const recalled = (id: string, confidence = 1) => ({ recalledPoints: [{ id, confidence, observation: '' }], feedback: '' });
const nothing = { recalledPoints: [], feedback: '' };

async function chat(room: RoomBase, heard: ReturnType<typeof recordingListener>, evaluation: unknown, message = 'an answer') {
  provider.scriptedEvaluations.push(evaluation);
  await room.handle({ type: 'chat', payload: { message } }, heard.listener);
  await room.settled();
}

/** Each point's card (due, state) and its review log ratings. */
async function reviews() {
  return storage.read(async (reader) => {
    const out: Record<string, { due: string; state: string; ratings: string[] } | null> = {};
    for (const id of points) {
      const card = await reader.cards.get('l1', id);
      out[id] = card ? { due: card.due.toISOString(), state: card.state, ratings: (await reader.cards.listReviewLogs(card.id)).map((log) => log.rating) } : null;
    }
    return out;
  });
}

const of = <T extends ServerEvent['type']>(events: ServerEvent[], type: T) => events.filter((event): event is Extract<ServerEvent, { type: T }> => event.type === type);

describe('the grade reflects the evidence of recall', () => {
  it('schedules a first-try recall furthest, a recall after a hint sooner, a multiple-choice pick soonest', async () => {
    const { room, heard } = await openSession();
    // p1: recalled at the first cue.
    await chat(room, heard, recalled('p1'));
    // p2: a miss, then recalled after the tutor's hint.
    await chat(room, heard, nothing);
    await chat(room, heard, recalled('p2'));
    // p3: two misses, then picked from a multiple-choice widget.
    await chat(room, heard, nothing);
    provider.scriptedReplies.push([
      { type: 'text_delta', text: 'Which of these is it?' },
      { type: 'widget', toolCallId: 'tc-choice', widget: { kind: 'multiple_choice', props: { prompt: 'Pick one', options: ['Fact number p3 about cells', 'Something else'] } } },
    ]);
    await chat(room, heard, nothing);
    const widget = of(heard.events, 'widget').at(-1)!.payload;
    provider.scriptedEvaluations.push(recalled('p3'));
    await room.handle({ type: 'widget_response', payload: { widgetId: widget.widgetId, response: { selectedIndex: 0 } } }, heard.listener);
    await room.settled();

    expect(await reviews()).toEqual({
      p1: { due: '2026-11-09T09:00:00.000Z', state: 'review', ratings: ['easy'] },
      p2: { due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: ['good'] },
      p3: { due: '2026-11-03T09:00:00.000Z', state: 'review', ratings: ['hard'] },
      p4: null,
      p5: null,
    });
  });
});

describe('ending a session early', () => {
  it('after 1 of 5 points writes a review for the recalled point only: the next point was cued but never answered', async () => {
    const { room, heard } = await openSession();
    await chat(room, heard, recalled('p1', 0.7));
    await room.handle({ type: 'end_session', payload: {} }, heard.listener);
    await room.settled();
    expect(await reviews()).toEqual({
      p1: { due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: ['good'] },
      p2: null,
      p3: null,
      p4: null,
      p5: null,
    });
  });

  it('rates Again the point asked about and failed, and leaves the points never cued as they were', async () => {
    // Every point reviewed once before, due on 2026-11-04.
    await storage.transaction(async (tx) => {
      for (const id of points) await tx.cards.save({ learnerId: 'l1', pointId: id, card: reviewCard(newCard(start), 'good', start).card, newId: `card-${id}` });
    });
    clock.advance(3 * 86_400_000);
    const { room, heard } = await openSession();
    await chat(room, heard, recalled('p1', 0.7));
    await chat(room, heard, nothing, 'no idea');
    await room.handle({ type: 'end_session', payload: {} }, heard.listener);
    await room.settled();
    expect(await reviews()).toEqual({
      p1: { due: '2026-11-18T09:00:00.000Z', state: 'review', ratings: ['good'] },
      p2: { due: '2026-11-05T09:00:00.000Z', state: 'review', ratings: ['again'] },
      p3: { due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: [] },
      p4: { due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: [] },
      p5: { due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: [] },
    });
    const lapsed = await storage.read((reader) => reader.cards.get('l1', 'p2'));
    expect(lapsed).toMatchObject({ lapses: 1, reps: 2 });
  });
});

describe('early review (nothing due)', () => {
  it('is announced in the session state and scheduled by FSRS from the days actually elapsed', async () => {
    await storage.transaction(async (tx) => {
      for (const id of points) await tx.cards.save({ learnerId: 'l1', pointId: id, card: reviewCard(newCard(start), 'good', start).card, newId: `card-${id}` });
    });
    // One day after the reviews, two before anything is due.
    clock.advance(86_400_000);
    const { room, heard } = await openSession();
    const opening = of(heard.events, 'state_update')[0]!.payload.state;
    expect(opening).toMatchObject({ earlyReview: true, totalPoints: 5 });
    await chat(room, heard, recalled('p1', 0.7));
    await room.handle({ type: 'end_session', payload: {} }, heard.listener);
    await room.settled();
    const after = await reviews();
    // Good one day after a Good review: FSRS's early-review interval, counted from today (2026-11-02).
    const expected = reviewCard(reviewCard(newCard(start), 'good', start).card, 'good', clock.now()).card;
    expect(after.p1).toEqual({ due: expected.due.toISOString(), state: 'review', ratings: ['good'] });
    expect(after.p1!.due).toBe('2026-11-09T09:00:00.000Z');
    // Not asked about: untouched.
    expect(after.p2).toEqual({ due: '2026-11-04T09:00:00.000Z', state: 'review', ratings: [] });
  });

  it('is not flagged when something is due', async () => {
    const { heard } = await openSession();
    expect(of(heard.events, 'state_update')[0]!.payload.state).not.toHaveProperty('earlyReview');
  });
});
