/** Contract: a session snapshot is everything a turn needs, exactly as committed (R8). */
import { describe, expect, it } from 'vitest';
import { newCard } from '../../src/core/scheduler/fsrs';
import type { SessionSnapshot } from '../../src/core/storage/session-snapshot';
import type { ContractContext } from './storage-contract';
import { assessmentSession, at, choiceAction, gate, learnerMessage, seedRecall, settle, storedItem, storedResponse, tutorMessage } from './fixtures';

export function snapshotContract(context: ContractContext): void {
  describe('session snapshots', () => {
    it('is null for an unknown session', async () => {
      expect(await context.storage().loadSessionSnapshot('nothing')).toBeNull();
    });

    it('holds a recall session’s record, checklist, cards, retention, conversation and actions as committed (R8)', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const card = { ...newCard(at(3)), reps: 2 };
      const expected = await storage.transaction(async (tx) => {
        await tx.learners.update(seed.learnerId, { desiredRetention: 0.8 });
        const session = await tx.sessions.update(seed.sessionId, { status: 'awaiting_client_action', turn: 2 }, at(8));
        await tx.checklists.markRecalled(seed.sessionId, 'a-p2', { confidence: 0.95, observation: 'exact', turn: 1, at: at(5) });
        await tx.cards.save({ learnerId: seed.learnerId, pointId: 'a-p2', card, newId: 'card-2' });
        const opening = await tx.messages.append(tutorMessage(seed.sessionId, 't0', 3));
        const first = await tx.messages.append(learnerMessage(seed.sessionId, 'l1', 'client-1', 4));
        await tx.messages.markAnswered('l1', at(5));
        const reply = await tx.messages.append(tutorMessage(seed.sessionId, 't1', 5));
        const second = await tx.messages.append(learnerMessage(seed.sessionId, 'l2', null, 6));
        const cancelled = await tx.pendingActions.create(choiceAction(seed.sessionId, 'w0', 5));
        await tx.pendingActions.resolve('w0', 'cancelled', null, at(6));
        const pending = await tx.pendingActions.create(choiceAction(seed.sessionId, 'w1', 7));
        const snapshot: SessionSnapshot = {
          session,
          desiredRetention: 0.8,
          checklist: await tx.checklists.list(seed.sessionId),
          cards: new Map([['a-p2', { id: 'card-2', ...card }]]),
          messages: [opening, { ...first, answeredAt: at(5) }, reply, second],
          messageCount: 4,
          oldestUnanswered: second,
          pendingAction: pending,
          actions: [{ ...cancelled, status: 'cancelled' }, pending],
          assessment: null,
        };
        return snapshot;
      });
      expect(expected.checklist.map((entry) => entry.status)).toEqual(['pending', 'pending', 'recalled']);
      expect(await storage.loadSessionSnapshot(seed.sessionId)).toEqual(expected);
      expect(await storage.read((reader) => reader.loadSessionSnapshot(seed.sessionId))).toEqual(expected);
      const lastTwo = await storage.loadSessionSnapshot(seed.sessionId, { lastMessages: 2 });
      expect(lastTwo).toEqual({ ...expected, messages: expected.messages.slice(-2) });
    });

    it('holds an assessment’s items and responses, and no checklist', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction(async (tx) => {
        await tx.sessions.create(assessmentSession('x1', seed.learnerId));
        await tx.assessments.addItem(storedItem('x1', 'i1', 1));
        await tx.assessments.addItem(storedItem('x1', 'i2', 2));
        await tx.assessments.addResponse('x1', storedResponse('i1', 20));
      });
      const snapshot = await storage.loadSessionSnapshot('x1');
      expect(snapshot?.checklist).toEqual([]);
      expect(snapshot?.cards).toEqual(new Map());
      expect(snapshot?.assessment).toEqual({ items: [storedItem('x1', 'i1', 1), storedItem('x1', 'i2', 2)], responses: [storedResponse('i1', 20)] });
      expect(snapshot?.session.typeState).toEqual({ type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1', seed: 'seed-x1', timeLimitSeconds: 1800 });
    });

    it('taken while a transaction is open, shows all of it once committed or none of it — never part (R8)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const hold = gate();
      const started = gate();
      const writer = storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(sessionId, 'l1'));
        await tx.checklists.markRecalled(sessionId, 'a-p0', { confidence: 0.7, observation: 'ok', turn: 1, at: at(5) });
        started.open();
        await hold.opened;
        await tx.messages.append(tutorMessage(sessionId, 't1'));
        await tx.sessions.update(sessionId, { turn: 1 }, at(6));
      });
      await started.opened;
      const during = storage.loadSessionSnapshot(sessionId);
      await settle();
      hold.open();
      await writer;
      const seen = await during;
      const summary = (snapshot: SessionSnapshot | null) => ({
        messages: snapshot?.messages.map((message) => message.id),
        recalled: snapshot?.checklist.filter((entry) => entry.status === 'recalled').length,
        turn: snapshot?.session.turn,
      });
      expect([
        { messages: [], recalled: 0, turn: 0 },
        { messages: ['l1', 't1'], recalled: 1, turn: 1 },
      ]).toContainEqual(summary(seen));
      expect(summary(await storage.loadSessionSnapshot(sessionId))).toEqual({ messages: ['l1', 't1'], recalled: 1, turn: 1 });
    });

    it('inside a transaction, shows that transaction’s own writes', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const inside = await storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(sessionId, 'l1'));
        await tx.pendingActions.create(choiceAction(sessionId, 'w1'));
        return tx.loadSessionSnapshot(sessionId, { lastMessages: 10 });
      });
      expect(inside?.messages.map((message) => message.id)).toEqual(['l1']);
      expect(inside?.oldestUnanswered?.id).toBe('l1');
      expect(inside?.pendingAction?.id).toBe('w1');
    });
  });
}
