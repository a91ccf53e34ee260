/** A cloze room on the in-memory storage, a fixed clock and seeded ids (SPEC §4.6, §4.2 durable loop). */
import type { ServerEvent, Widget } from '@tutorloop/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wordNet } from '../offline/wordnet';
import { silentLogger } from '../ports';
import { fixedClock, recordingListener, recordingProvider, seededIds } from '../session/test-support';
import { sessionTypeCatalog } from '../session-type-states';
import { createMemoryStorage } from '../storage/memory-storage';
import type { Storage } from '../storage/storage';
import type { ClozeFeedbackWriter } from './cloze-feedback';
import { clozeModule } from './cloze-module';

const clock = fixedClock();
let storage: Storage;
let sessionId: string;

const widgets = (events: ServerEvent[]) => events.flatMap((event) => (event.type === 'widget' ? [event.payload] : []));
const lines = (events: ServerEvent[]) => events.flatMap((event) => (event.type === 'assistant' ? [event.payload.message] : []));

function module(clozeFeedback?: ClozeFeedbackWriter) {
  return clozeModule({ storage, clock, ids: seededIds(`p${Math.random()}`), logger: silentLogger, provider: recordingProvider(), ...(clozeFeedback ? { clozeFeedback } : {}) });
}

async function reviewCount(pointId: string): Promise<number> {
  return storage.read(async (reader) => {
    const card = await reader.cards.get('l1', pointId);
    return card ? (await reader.cards.listReviewLogs(card.id)).length : 0;
  });
}

beforeAll(() => {
  wordNet();
});

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.recallSets.create({ id: 'set1', learnerId: 'l1', name: 'Cells', description: null, createdAt: clock.now() });
    await tx.recallSets.addPoint({ id: 'p1', recallSetId: 'set1', content: 'The mitochondria is the powerhouse of the cell.', context: null, position: 0, createdAt: clock.now() });
    await tx.recallSets.addPoint({ id: 'p2', recallSetId: 'set1', content: 'Capital of France → Paris', context: null, position: 1, createdAt: clock.now() });
  });
  const created = await module().create({ learnerId: 'l1', body: { type: 'cloze', recallSetId: 'set1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
});

describe('ClozeRoom', () => {
  it('a new room picks up a graded answer whose feedback was never sent, and the review is recorded once', async () => {
    // The first process dies between the two steps: its feedback step throws after the answer committed.
    const dying = module(async () => {
      throw new Error('process killed');
    }).openRoom(sessionId, () => {});
    const heard = recordingListener();
    await dying.attach(heard.listener);
    await dying.settled();
    const first: Widget = widgets(heard.events)[0]!;
    await dying.handle({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { text: 'mitochondria' } } }, heard.listener);
    await dying.settled();
    expect(widgets(heard.events)).toHaveLength(1);
    expect(await reviewCount('p1')).toBe(1);

    const next = module().openRoom(sessionId, () => {});
    const resumed = recordingListener();
    await next.attach(resumed.listener);
    await next.settled();
    expect(lines(resumed.events)).toEqual(['Right — "mitochondria".']);
    expect(widgets(resumed.events).at(-1)).toMatchObject({ kind: 'free_text', props: { prompt: 'Capital of France → _____', context: 'Point 2 of 2' } });
    expect(await reviewCount('p1')).toBe(1);

    // A third process finds nothing left to do: no second line, no second review.
    const third = module().openRoom(sessionId, () => {});
    const quiet = recordingListener();
    await third.attach(quiet.listener);
    await third.settled();
    expect(lines(quiet.events)).toEqual([]);
    expect(await reviewCount('p1')).toBe(1);
  });

  it('refuses a stale try and an empty answer without counting them as tries', async () => {
    const room = module().openRoom(sessionId, () => {});
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    const first = widgets(heard.events)[0]!;
    await room.handle({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { text: '   ' } } }, heard.listener);
    await room.handle({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { selectedIndex: 0 } } }, heard.listener);
    await room.handle({ type: 'widget_response', payload: { widgetId: 'nope', response: { text: 'mitochondria' } } }, heard.listener);
    await room.settled();
    expect(heard.events.filter((event) => event.type === 'error').map((event) => event.payload)).toEqual([
      { code: 'invalid_payload', message: 'The answer is empty.' },
      { code: 'invalid_payload', message: 'This widget expects {"text": "..."}.' },
      { code: 'widget_not_pending', message: 'No widget with that id is waiting for an answer.' },
    ]);
    const state = await room.state();
    expect(state).toMatchObject({ status: 'awaiting_client_action', turn: 0, cloze: { done: 0, total: 2, attempt: 1, right: 0 } });
  });
});
