/** An assessment room on the in-memory storage with a fixed clock, seeded ids and a fake code runner: no server, no database file. */
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../assessment';
import { silentLogger } from '../ports';
import type { RoomBase } from '../session/room-base';
import { fixedClock, recordingListener, seededIds } from '../session/test-support';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { Storage } from '../storage/storage';
import { assessmentModule } from './assessment-module';

const catalog = loadCatalog();
let storage: Storage;
let room: RoomBase;
let sessionId: string;
const clock = fixedClock();

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  await storage.transaction((tx) => tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() }));
  const assessment = assessmentModule({
    storage,
    catalog,
    codeRunner: { run: async () => ({ passed: 0, total: 0 }) },
    clock,
    ids: seededIds(),
    logger: silentLogger,
  });
  const created = await assessment.create({ learnerId: 'l1', body: { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
  room = assessment.openRoom(sessionId, () => {});
});

const of = <T extends ServerEvent['type']>(events: ServerEvent[], type: T) => events.filter((event): event is Extract<ServerEvent, { type: T }> => event.type === type);

describe('AssessmentRoom', () => {
  it('refuses an unknown blueprint with not_found', async () => {
    const assessment = assessmentModule({ storage, catalog, codeRunner: { run: async () => ({ passed: 0, total: 0 }) }, clock, ids: seededIds(), logger: silentLogger });
    expect(await assessment.create({ learnerId: 'l1', body: { type: 'assessment', blueprintId: 'NOPE' }, now: clock.now() })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No assessment blueprint "NOPE"; GET /api/blueprints lists them.' },
    });
  });

  it('presents the first item as a widget, stored before it is shown', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    expect(heard.types()).toEqual(['state_update', 'history', 'typing', 'assistant', 'state_update', 'widget']);
    const widget = of(heard.events, 'widget')[0]!.payload;
    const items = await storage.read((reader) => reader.assessments.listItems(sessionId));
    expect(items.map((item) => [item.position, item.widgetId])).toEqual([[1, widget.widgetId]]);
    expect(of(heard.events, 'state_update').at(-1)!.payload.state).toMatchObject({ status: 'awaiting_client_action', assessment: { answered: 0, totalItems: 20, currentPosition: 1 } });
  });

  it('scores an answer on the server without telling whether it was right, then presents the next item', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    const first = of(heard.events, 'widget')[0]!.payload;
    const [item] = await storage.read((reader) => reader.assessments.listItems(sessionId));
    const correctIndex = item!.item.options!.indexOf(item!.item.correctAnswer);
    clock.advance(12_000);
    await room.handle({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { selectedIndex: correctIndex } } }, heard.listener);
    await room.settled();

    const responses = await storage.read((reader) => reader.assessments.listResponses(sessionId));
    expect(responses).toMatchObject([{ itemId: item!.id, credit: 1, responseSeconds: 12 }]);
    expect(JSON.stringify(heard.events)).not.toContain('"credit"');
    expect(of(heard.events, 'widget')).toHaveLength(2);
  });

  it('ends on request with the results and the per-item review', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    await room.handle({ type: 'end_session', payload: {} }, heard.listener);
    await room.settled();
    expect(heard.types().slice(-2)).toEqual(['state_update', 'session_complete']);
    const summary = of(heard.events, 'session_complete')[0]!.payload.summary;
    expect(summary).toMatchObject({ sessionId, type: 'assessment', status: 'completed', reason: 'ended_by_learner', recalledCount: 0, totalPoints: 20 });
    expect(summary.assessment?.items).toHaveLength(1);
    expect(await room.summary()).toEqual(summary);
  });
});
