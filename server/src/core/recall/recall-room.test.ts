/** A recall room on the in-memory storage with a recording fake tutor, a fixed clock and seeded ids: no server, no database file. */
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../ports';
import { unlimitedModelBudget, type ModelBudget, type ModelBudgetVerdict, type ModelOperation } from '../limits/model-budget';
import type { RoomBase } from '../session/room-base';
import { fixedClock, recordingListener, recordingProvider, seededIds, type RecordingProvider } from '../session/test-support';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { Storage } from '../storage/storage';
import { recallModule } from './recall-module';

let storage: Storage;
let provider: RecordingProvider;
let room: RoomBase;
let sessionId: string;
const clock = fixedClock();

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  provider = recordingProvider();
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.recallSets.create({ id: 'set1', learnerId: 'l1', name: 'Rivers', description: null, createdAt: clock.now() });
    await tx.recallSets.addPoint({ id: 'p1', recallSetId: 'set1', content: 'Rivers flow downhill', context: null, position: 0, createdAt: clock.now() });
    await tx.recallSets.addPoint({ id: 'p2', recallSetId: 'set1', content: 'Deltas form at the mouth', context: null, position: 1, createdAt: clock.now() });
  });
  const recall = recallModule({ storage, provider, clock, ids: seededIds(), logger: silentLogger, modelBudget: unlimitedModelBudget });
  const created = await recall.create({ learnerId: 'l1', body: { type: 'recall', recallSetId: 'set1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
  room = recall.openRoom(sessionId, () => {});
});

const of = <T extends ServerEvent['type']>(events: ServerEvent[], type: T) => events.filter((event): event is Extract<ServerEvent, { type: T }> => event.type === type);

describe('RecallRoom', () => {
  it('sends the opening events, then the opening turn', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    expect(heard.types()).toEqual(['state_update', 'history', 'typing', 'assistant_delta', 'assistant', 'state_update']);
    expect(heard.events[0]).toEqual({
      type: 'state_update',
      payload: { state: { status: 'pending', sessionId, type: 'recall', mode: 'recall', turn: 0, recalledCount: 0, totalPoints: 2, title: 'Rivers' } },
    });
    expect(provider.replies.map((input) => [input.trigger, input.probePoint?.id])).toEqual([['session_start', 'p1']]);
  });

  it('checks off what the evaluator found, reviews its card in the same turn, and tells the tutor', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    provider.scriptedEvaluations.push({ recalledPoints: [{ id: 'p1', confidence: 0.95, observation: 'exact' }], feedback: 'p1 recalled well' });
    await room.handle({ type: 'chat', payload: { message: 'rivers flow downhill' } }, heard.listener);
    await room.settled();

    expect(provider.evaluations.at(-1)!.points.map((point) => point.id)).toEqual(['p1', 'p2']);
    expect(provider.replies.at(-1)).toMatchObject({ trigger: 'learner_message', feedback: 'p1 recalled well', justRecalled: [{ id: 'p1' }], probePoint: { id: 'p2' } });
    expect(of(heard.events, 'state_update').at(-1)!.payload.state).toMatchObject({ status: 'active', turn: 1, recalledCount: 1, totalPoints: 2 });
    const card = await storage.read((reader) => reader.cards.get('l1', 'p1'));
    expect(card).toMatchObject({ reps: 1 });
  });

  it('completes with a summary once every point is recalled, and never evaluates recalled points again', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    provider.scriptedEvaluations.push({ recalledPoints: [{ id: 'p1', confidence: 0.7, observation: '' }], feedback: '' });
    await room.handle({ type: 'chat', payload: { message: 'downhill' } }, heard.listener);
    provider.scriptedEvaluations.push({ recalledPoints: [{ id: 'p2', confidence: 0.7, observation: '' }], feedback: '' });
    await room.handle({ type: 'chat', payload: { message: 'deltas at the mouth' } }, heard.listener);
    await room.settled();

    expect(provider.evaluations.map((input) => input.points.map((point) => point.id))).toEqual([['p1', 'p2'], ['p2']]);
    expect(heard.types().slice(-3)).toEqual(['assistant', 'state_update', 'session_complete']);
    const summary = of(heard.events, 'session_complete')[0]!.payload.summary;
    expect(summary).toMatchObject({ sessionId, type: 'recall', status: 'completed', reason: 'all_recalled', turns: 2, recalledCount: 2, totalPoints: 2 });
    expect(summary.points.every((point) => point.recalled && typeof point.nextDue === 'string')).toBe(true);
    expect(await room.summary()).toEqual(summary);
  });

  it('processes a chat resent with the same clientMessageId once', async () => {
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    await room.handle({ type: 'chat', payload: { message: 'once', clientMessageId: 'c1' } }, heard.listener);
    await room.settled();
    await room.handle({ type: 'chat', payload: { message: 'once', clientMessageId: 'c1' } }, heard.listener);
    await room.settled();
    expect(provider.safetyChecks).toEqual(['once']);
    expect((await room.history()).filter((message) => message.role === 'learner')).toHaveLength(1);
  });
});

/** A budget that answers from a script (an empty script admits) and records every charge. */
function scriptedBudget(): ModelBudget & { charges: ModelOperation[]; verdicts: ModelBudgetVerdict[] } {
  const budget = {
    charges: [] as ModelOperation[],
    verdicts: [] as ModelBudgetVerdict[],
    async charge(_learnerId: string, operation: ModelOperation) {
      budget.charges.push(operation);
      return budget.verdicts.shift() ?? { ok: true as const };
    },
    noteUsage() {},
  };
  return budget;
}

const spent: ModelBudgetVerdict = { ok: false, retryAfterMs: 4000, budget: 'operations', reason: 'Too many turns: at most 2 per 60 seconds across all your sessions' };

describe('RecallRoom and the learner’s model budget (SPEC §8)', () => {
  function roomWith(budget: ModelBudget): RoomBase {
    return recallModule({ storage, provider, clock, ids: seededIds('b'), logger: silentLogger, modelBudget: budget }).openRoom(sessionId, () => {});
  }

  it('a refused opening writes nothing and says when to retry; the next attach opens the session', async () => {
    const budget = scriptedBudget();
    budget.verdicts.push(spent);
    const budgeted = roomWith(budget);
    const first = recordingListener();
    await budgeted.attach(first.listener);
    await budgeted.settled();
    expect(first.events.slice(2)).toEqual([
      {
        type: 'error',
        payload: {
          code: 'rate_limited',
          message: 'Too many turns: at most 2 per 60 seconds across all your sessions; the tutor has not opened this session yet — come back to it later, or just write to begin. Retry in 4 s.',
        },
      },
    ]);
    expect(provider.replies).toEqual([]);
    expect(await storage.read(async (reader) => [(await reader.sessions.get(sessionId))?.status, await reader.messages.count(sessionId)])).toEqual(['pending', 0]);

    const second = recordingListener();
    await budgeted.attach(second.listener);
    await budgeted.settled();
    expect(second.types()).toEqual(['state_update', 'history', 'typing', 'assistant_delta', 'assistant', 'state_update']);
    expect(budget.charges).toEqual(['opening', 'opening']);
    // Opened: a third attach charges nothing.
    await budgeted.attach(recordingListener().listener);
    await budgeted.settled();
    expect(budget.charges).toEqual(['opening', 'opening']);
  });

  it('a refused retry keeps the old reply: no model call, nothing superseded', async () => {
    const budget = scriptedBudget();
    const budgeted = roomWith(budget);
    const heard = recordingListener();
    await budgeted.attach(heard.listener);
    await budgeted.settled();
    const opening = of(heard.events, 'assistant')[0]!.payload;
    budget.verdicts.push(spent);
    const asker = recordingListener();
    await budgeted.handle({ type: 'retry', payload: { messageId: opening.messageId } }, asker.listener);
    await budgeted.settled();
    expect(asker.events).toEqual([
      { type: 'error', payload: { code: 'rate_limited', message: 'Too many turns: at most 2 per 60 seconds across all your sessions; the reply was not written again (the one you have stays). Retry in 4 s.' } },
    ]);
    expect(provider.replies).toHaveLength(1);
    const stored = await storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
    expect(stored.map((message) => [message.id, message.supersededBy])).toEqual([[opening.messageId, null]]);

    await budgeted.handle({ type: 'retry', payload: { messageId: opening.messageId } }, asker.listener);
    await budgeted.settled();
    expect(of(heard.events, 'assistant').at(-1)!.payload).toMatchObject({ replaces: opening.messageId });
    expect(budget.charges).toEqual(['opening', 'retry', 'retry']);
  });
});
