/**
 * Contract: what the account actions and the stop/retry frames need of storage (SPEC §5, §6):
 * a learner's password hash and token version change; deleting a learner takes everything of
 * theirs and nothing of anyone else's; a stopped reply and a superseded one are kept, and the
 * current conversation leaves the superseded out.
 */
import { describe, expect, it } from 'vitest';
import { newCard } from '../../src/core/scheduler/fsrs';
import type { ContractContext } from './storage-contract';
import { agentLog, at, seedRecall, studyPlanContent, tutorMessage } from './fixtures';

export function accountContract(context: ContractContext): void {
  describe('learner account', () => {
    it('changes the password hash and token version, leaving the rest as it was', async () => {
      const storage = context.storage();
      const { learnerId } = await seedRecall(storage, 'a');
      const before = await storage.read((reader) => reader.learners.get(learnerId));
      const updated = await storage.transaction((tx) => tx.learners.update(learnerId, { passwordHash: 'new-hash', tokenVersion: 3 }));
      expect(updated).toEqual({ ...before, passwordHash: 'new-hash', tokenVersion: 3 });
      expect(await storage.read((reader) => reader.learners.get(learnerId))).toEqual(updated);
      // Only what is named changes.
      expect(await storage.transaction((tx) => tx.learners.update(learnerId, { desiredRetention: 0.85 }))).toEqual({ ...updated, desiredRetention: 0.85 });
    });

    it('deletes a learner with their sets, cards, review logs, sessions, messages, model calls, plans and logs — and nothing of another learner', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      await storage.transaction(async (tx) => {
        for (const seed of [a, b]) {
          const cardId = await tx.cards.save({ learnerId: seed.learnerId, pointId: seed.pointIds[0]!, card: newCard(at(5)), newId: `card-${seed.learnerId}` });
          await tx.cards.addReviewLog(`log-${seed.learnerId}`, { cardId, sessionId: seed.sessionId, rating: 'good', confidence: 0.7, previous: newCard(at(5)), reviewedAt: at(5) });
          await tx.messages.append(tutorMessage(seed.sessionId, `m-${seed.learnerId}`));
          await tx.agentLogs.append(agentLog(`agent-${seed.learnerId}`, seed.sessionId, seed.learnerId, 1));
          await tx.studyPlans.create({ id: `plan-${seed.learnerId}`, ownerId: seed.learnerId, shared: false, plan: studyPlanContent(), createdAt: at(1) });
          await tx.llmCalls.add({ id: `call-${seed.learnerId}`, sessionId: seed.sessionId, learnerId: seed.learnerId, purpose: 'tutor', provider: 'offline', model: 'offline', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, latencyMs: 1, outcome: 'ok', error: null, createdAt: at(5) });
          // A call of a session deleted earlier: it belongs to the learner still.
          await tx.llmCalls.add({ id: `orphan-call-${seed.learnerId}`, sessionId: `gone-${seed.learnerId}`, learnerId: seed.learnerId, purpose: 'tutor', provider: 'offline', model: 'offline', inputTokens: 2, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, latencyMs: 1, outcome: 'ok', error: null, createdAt: at(5) });
        }
        // b's card on a's point goes with a's set.
        await tx.cards.save({ learnerId: b.learnerId, pointId: a.pointIds[1]!, card: newCard(at(5)), newId: 'card-b-on-a' });
      });

      expect(await storage.transaction((tx) => tx.learners.delete(a.learnerId))).toBe(true);
      expect(await storage.transaction((tx) => tx.learners.delete(a.learnerId))).toBe(false);

      const left = await storage.read(async (reader) => ({
        learnerA: await reader.learners.get(a.learnerId),
        setA: await reader.recallSets.get(a.setId),
        sessionA: await reader.sessions.get(a.sessionId),
        messagesA: await reader.messages.list(a.sessionId, { includeSuperseded: true }),
        callsA: await reader.llmCalls.listBySession(a.sessionId),
        tokensA: await reader.llmCalls.tokensUsedSince(a.learnerId, at(0)),
        cardsA: await reader.scheduler.reviewHistory(a.learnerId),
        plansA: (await reader.studyPlans.listVisibleTo(b.learnerId)).filter((plan) => plan.ownerId === a.learnerId),
        agentA: await reader.agentLogs.listForSession(a.sessionId),
        learnerB: await reader.learners.get(b.learnerId),
        sessionB: await reader.sessions.get(b.sessionId),
        messagesB: (await reader.messages.list(b.sessionId)).map((message) => message.id),
        callsB: (await reader.llmCalls.listBySession(b.sessionId)).map((call) => call.id),
        tokensB: await reader.llmCalls.tokensUsedSince(b.learnerId, at(0)),
        cardsB: (await reader.scheduler.reviewHistory(b.learnerId)).map((history) => [history.cardId, history.reviews.length]),
        plansB: (await reader.studyPlans.listVisibleTo(b.learnerId)).filter((plan) => plan.ownerId === b.learnerId).map((plan) => plan.id),
      }));
      expect(left).toEqual({
        learnerA: null,
        setA: null,
        sessionA: null,
        messagesA: [],
        callsA: [],
        tokensA: 0,
        cardsA: [],
        plansA: [],
        agentA: [],
        learnerB: expect.objectContaining({ id: b.learnerId }),
        sessionB: expect.objectContaining({ id: b.sessionId }),
        messagesB: ['m-b-learner'],
        callsB: ['call-b-learner'],
        tokensB: 6,
        cardsB: [['card-b-learner', 1]],
        plansB: ['plan-b-learner'],
      });
      // The username is free again.
      expect((await storage.transaction((tx) => tx.learners.create({ id: 'again', username: 'user-a-learner', passwordHash: 'h', createdAt: at(9) }))).ok).toBe(true);
    });
  });

  describe('stopped and superseded replies', () => {
    it('keeps a stopped reply marked, and leaves a superseded one out of the current conversation but not out of the store', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage, 'a');
      await storage.transaction(async (tx) => {
        await tx.messages.append({ ...tutorMessage(sessionId, 'old', 4), stopped: true });
        await tx.messages.append(tutorMessage(sessionId, 'new', 5));
        await tx.messages.markSuperseded('old', 'new');
      });
      const current = await storage.read((reader) => reader.messages.list(sessionId));
      expect(current.map((message) => [message.id, message.seq, message.stopped, message.supersededBy])).toEqual([['new', 2, false, null]]);
      expect((await storage.read((reader) => reader.messages.list(sessionId, { last: 5 }))).map((message) => message.id)).toEqual(['new']);
      const everything = await storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
      expect(everything.map((message) => [message.id, message.seq, message.stopped, message.supersededBy])).toEqual([
        ['old', 1, true, 'new'],
        ['new', 2, false, null],
      ]);
      expect((await storage.loadSessionSnapshot(sessionId))!.messages.map((message) => message.id)).toEqual(['new']);
      await expect(storage.transaction((tx) => tx.messages.markSuperseded('nope', 'new'))).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}
