/** Contract: messages, pending actions, assessments, model call records, and deleting a session. */
import { describe, expect, it } from 'vitest';
import { newCard } from '../../src/core/scheduler/fsrs';
import type { StoredLlmCall } from '../../src/core/storage/llm-calls';
import type { ContractContext } from './storage-contract';
import { isStorageError } from '../../src/core/storage/storage-error';
import { agentLog, assessmentSession, at, choiceAction, generatedItem, learnerMessage, rejection, seedRecall, storedItem, storedResponse, tutorMessage } from './fixtures';

function llmCall(id: string, sessionId: string | null, minute: number, learnerId: string | null = null): StoredLlmCall {
  return {
    id,
    sessionId,
    learnerId,
    purpose: 'evaluator',
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    inputTokens: 812,
    outputTokens: 64,
    cacheReadTokens: 700,
    cacheWriteTokens: 0,
    latencyMs: 431,
    outcome: minute % 2 === 0 ? 'ok' : 'timeout',
    error: minute % 2 === 0 ? null : 'timed out after 30s',
    createdAt: at(minute),
  };
}

export function conversationContract(context: ContractContext): void {
  describe('messages', () => {
    it('numbers messages 1, 2, 3… per session and lists them in that order, or the last N (R1)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      const appended = await storage.transaction(async (tx) => [
        await tx.messages.append(learnerMessage(a.sessionId, 'a1', 'client-1')),
        await tx.messages.append(tutorMessage(b.sessionId, 'b1')),
        await tx.messages.append(tutorMessage(a.sessionId, 'a2')),
        await tx.messages.append(learnerMessage(a.sessionId, 'a3', null, 5)),
      ]);
      expect(appended.map((message) => [message.id, message.seq])).toEqual([['a1', 1], ['b1', 1], ['a2', 2], ['a3', 3]]);
      expect(appended[0]).toEqual({ ...learnerMessage(a.sessionId, 'a1', 'client-1'), seq: 1, answeredAt: null, stopped: false, supersededBy: null });
      await storage.read(async (reader) => {
        expect(await reader.messages.list(a.sessionId)).toEqual([appended[0], appended[2], appended[3]]);
        expect(await reader.messages.list(a.sessionId, { last: 2 })).toEqual([appended[2], appended[3]]);
        expect(await reader.messages.list(a.sessionId, { last: 10 })).toHaveLength(3);
        expect(await reader.messages.list(a.sessionId, { last: 0 })).toEqual([]);
        expect(await reader.messages.count(a.sessionId)).toBe(3);
        expect(await reader.messages.count('nothing')).toBe(0);
      });
    });

    it('round-trips a tool call and a widget answer', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const call = { ...tutorMessage(sessionId, 't1'), toolCall: { id: 'call-1', name: 'present_choices', input: { prompt: 'Which?', options: ['A', 'B'], nested: { deep: [1, null] } } } };
      const answer = { ...learnerMessage(sessionId, 'r1'), role: 'tool_result' as const, content: 'B', toolCallId: 'call-1', widgetAnswer: { widgetId: 'w1', response: { selectedIndex: 1 } } };
      await storage.transaction(async (tx) => {
        await tx.messages.append(call);
        await tx.messages.append(answer);
      });
      expect(await storage.read((reader) => reader.messages.list(sessionId))).toEqual([
        { ...call, seq: 1, answeredAt: null, stopped: false, supersededBy: null },
        { ...answer, seq: 2, answeredAt: null, stopped: false, supersededBy: null },
      ]);
    });

    it('keeps a clientMessageId unique within its session, not across sessions; null ids never clash (R2)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      await storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(a.sessionId, 'a1', 'same'));
        await tx.messages.append(learnerMessage(b.sessionId, 'b1', 'same'));
        await tx.messages.append(learnerMessage(a.sessionId, 'a2', null));
        await tx.messages.append(learnerMessage(a.sessionId, 'a3', null));
      });
      const duplicate = await rejection(storage.transaction((tx) => tx.messages.append(learnerMessage(a.sessionId, 'a4', 'same'))));
      expect(isStorageError(duplicate, 'conflict')).toBe(true);
      const sameId = await rejection(storage.transaction((tx) => tx.messages.append(learnerMessage(b.sessionId, 'a1'))));
      expect(isStorageError(sameId, 'conflict')).toBe(true);
      await storage.read(async (reader) => {
        expect((await reader.messages.findByClientId(a.sessionId, 'same'))?.id).toBe('a1');
        expect((await reader.messages.findByClientId(b.sessionId, 'same'))?.id).toBe('b1');
        expect(await reader.messages.findByClientId(a.sessionId, 'other')).toBeNull();
        expect(await reader.messages.count(a.sessionId)).toBe(3);
      });
      const noSession = await rejection(storage.transaction((tx) => tx.messages.append(learnerMessage('ghost', 'g1'))));
      expect(isStorageError(noSession, 'missing_reference')).toBe(true);
    });

    it('finds the oldest learner message or tool result without a reply; tutor messages never count (R3)', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      expect(await storage.read((reader) => reader.messages.findOldestUnanswered(sessionId))).toBeNull();
      await storage.transaction(async (tx) => {
        await tx.messages.append(tutorMessage(sessionId, 't0'));
        await tx.messages.append(learnerMessage(sessionId, 'l1'));
        await tx.messages.append({ ...learnerMessage(sessionId, 'r2'), role: 'tool_result', toolCallId: 'call-1' });
        await tx.messages.append(learnerMessage(sessionId, 'l3'));
      });
      const oldest = async () => (await storage.read((reader) => reader.messages.findOldestUnanswered(sessionId)))?.id ?? null;
      expect(await oldest()).toBe('l1');
      await storage.transaction((tx) => tx.messages.markAnswered('l1', at(6)));
      expect(await oldest()).toBe('r2');
      await storage.transaction(async (tx) => {
        await tx.messages.markAnswered('r2', at(7));
        await tx.messages.markAnswered('l3', at(8));
      });
      expect(await oldest()).toBeNull();
      expect((await storage.read((reader) => reader.messages.list(sessionId))).map((message) => message.answeredAt)).toEqual([null, at(6), at(7), at(8)]);
      expect(isStorageError(await rejection(storage.transaction((tx) => tx.messages.markAnswered('ghost', at(9)))), 'not_found')).toBe(true);
    });
  });

  describe('pending actions', () => {
    it('round-trips an action; resolving changes only a pending one', async () => {
      const storage = context.storage();
      const { sessionId } = await seedRecall(storage);
      const created = await storage.transaction((tx) => tx.pendingActions.create(choiceAction(sessionId, 'w1')));
      expect(created).toEqual({ ...choiceAction(sessionId, 'w1'), status: 'pending' });
      expect(await storage.read((reader) => reader.pendingActions.getPending(sessionId))).toEqual(created);
      const resolved = await storage.transaction(async (tx) => [
        await tx.pendingActions.resolve('w1', 'answered', { selectedIndex: 1 }, at(6)),
        await tx.pendingActions.resolve('w1', 'cancelled', null, at(7)),
        await tx.pendingActions.resolve('ghost', 'cancelled', null, at(7)),
      ]);
      expect(resolved).toEqual([true, false, false]);
      await storage.read(async (reader) => {
        expect(await reader.pendingActions.getPending(sessionId)).toBeNull();
        expect(await reader.pendingActions.list(sessionId)).toEqual([{ ...created, status: 'answered' }]);
      });
    });

    it('holds at most one pending action per session (R4)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      await storage.transaction(async (tx) => {
        await tx.pendingActions.create(choiceAction(a.sessionId, 'w1'));
        await tx.pendingActions.create(choiceAction(b.sessionId, 'w2'));
      });
      const second = await rejection(storage.transaction((tx) => tx.pendingActions.create(choiceAction(a.sessionId, 'w3', 5))));
      expect(isStorageError(second, 'conflict')).toBe(true);
      await storage.transaction(async (tx) => {
        await tx.pendingActions.resolve('w1', 'cancelled', null, at(5));
        await tx.pendingActions.create(choiceAction(a.sessionId, 'w3', 5));
      });
      expect((await storage.read((reader) => reader.pendingActions.list(a.sessionId))).map((action) => [action.id, action.status])).toEqual([
        ['w1', 'cancelled'],
        ['w3', 'pending'],
      ]);
    });
  });

  describe('assessments', () => {
    it('round-trips items (choice and code), responses and ability estimates', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      const { options: _options, correctIndex: _correctIndex, ...choice } = generatedItem('fp-code');
      const codeItem = {
        ...choice,
        kind: 'code' as const,
        correctAnswer: 'def count(s): return len(s)',
        code: {
          language: 'python' as const,
          functionName: 'count',
          starterCode: 'def count(s):\n    pass',
          tests: [{ args: ['abc'], expected: 3, visible: true }, { args: [''], expected: 0 }],
          timeoutSeconds: 2,
          partialCredit: true,
        },
      };
      const items = [storedItem('x1', 'i2', 2, 'fp-code', codeItem), storedItem('x1', 'i1', 1)];
      const responses = [storedResponse('i2', 30, 0.5), storedResponse('i1', 20)];
      responses[0] = {
        ...responses[0]!,
        answerText: 'def count(s): return 3',
        testsPassed: 1,
        testsTotal: 2,
        note: 'one test failed',
        testOutcomes: [{ passed: true, actual: '3' }, { passed: false, actual: '3' }],
      };
      const report = {
        overall: { ability: 0.4, standardError: 0.8, responses: 2 },
        domains: [{ domain: 'arithmetic', ability: 0.4, standardError: 0.8, responses: 2 }, { domain: 'networking', ability: 0, standardError: 1, responses: 0 }],
      };
      await storage.transaction(async (tx) => {
        await tx.sessions.create(assessmentSession('x1', seed.learnerId));
        for (const item of items) await tx.assessments.addItem(item);
        for (const response of responses) await tx.assessments.addResponse('x1', response);
        await tx.assessments.saveAbilities('x1', seed.learnerId, report, at(20));
        await tx.assessments.saveAbilities('x1', seed.learnerId, { ...report, overall: { ability: 0.5, standardError: 0.7, responses: 2 } }, at(31));
      });
      await storage.read(async (reader) => {
        expect(await reader.assessments.listItems('x1')).toEqual([items[1], items[0]]);
        expect(await reader.assessments.listResponses('x1')).toEqual([responses[1], responses[0]]);
        expect(await reader.assessments.listAbilities('x1')).toEqual([
          { domain: '*', ability: 0.5, standardError: 0.7, responses: 2, updatedAt: at(31) },
          { domain: 'arithmetic', ability: 0.4, standardError: 0.8, responses: 2, updatedAt: at(31) },
          { domain: 'networking', ability: 0, standardError: 1, responses: 0, updatedAt: at(31) },
        ]);
        expect(await reader.assessments.listItems(seed.sessionId)).toEqual([]);
      });
      const codeBack = (await storage.read((reader) => reader.assessments.listItems('x1')))[1]!.item;
      expect('options' in codeBack || 'correctIndex' in codeBack).toBe(false);
    });

    it('keeps items unique by position and by fingerprint within a session, and one response per item', async () => {
      const storage = context.storage();
      const seed = await seedRecall(storage);
      await storage.transaction(async (tx) => {
        await tx.sessions.create(assessmentSession('x1', seed.learnerId));
        await tx.sessions.create(assessmentSession('x2', seed.learnerId));
        await tx.assessments.addItem(storedItem('x1', 'i1', 1, 'fp-1'));
        await tx.assessments.addItem(storedItem('x2', 'j1', 1, 'fp-1'));
        await tx.assessments.addResponse('x1', storedResponse('i1', 20));
      });
      const codeOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as { code?: string }).code;
      expect(await codeOf(storage.transaction((tx) => tx.assessments.addItem(storedItem('x1', 'i2', 1, 'fp-2'))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.assessments.addItem(storedItem('x1', 'i2', 2, 'fp-1'))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.assessments.addResponse('x1', storedResponse('i1', 21))))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.assessments.addResponse('x1', storedResponse('ghost', 21))))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.assessments.addItem(storedItem('ghost', 'i3', 1))))).toBe('missing_reference');
    });
  });

  describe('llm calls', () => {
    it('round-trips records per session, oldest first; a record needs no session row', async () => {
      const storage = context.storage();
      await storage.transaction(async (tx) => {
        await tx.llmCalls.add(llmCall('c2', 'any-session', 9));
        await tx.llmCalls.add(llmCall('c1', 'any-session', 4));
        await tx.llmCalls.add(llmCall('c3', null, 5));
      });
      expect(await storage.read((reader) => reader.llmCalls.listBySession('any-session'))).toEqual([llmCall('c1', 'any-session', 4), llmCall('c2', 'any-session', 9)]);
    });

    it('lists a learner’s calls with or without a session, oldest first, of one purpose when asked', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      const documentCall = { ...llmCall('doc', null, 3, a.learnerId), purpose: 'document_points' };
      await storage.transaction(async (tx) => {
        await tx.llmCalls.add(llmCall('later', a.sessionId, 9, a.learnerId));
        await tx.llmCalls.add(documentCall);
        await tx.llmCalls.add(llmCall('first', a.sessionId, 1, a.learnerId));
        await tx.llmCalls.add(llmCall('other', b.sessionId, 2, b.learnerId));
        await tx.llmCalls.add(llmCall('nobody', null, 2, null));
      });
      const listed = await storage.read(async (reader) => [await reader.llmCalls.listByLearner(a.learnerId), await reader.llmCalls.listByLearner(a.learnerId, 'document_points')]);
      expect(listed[0]!.map((call) => call.id)).toEqual(['first', 'doc', 'later']);
      expect(listed[1]).toEqual([documentCall]);
    });

    it('sums a learner’s input + output tokens since a moment, deleted sessions included (the daily token budget, SPEC §8)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      await storage.transaction(async (tx) => {
        await tx.llmCalls.add(llmCall('before', a.sessionId, 2, a.learnerId));
        await tx.llmCalls.add(llmCall('at-since', a.sessionId, 4, a.learnerId));
        await tx.llmCalls.add(llmCall('later', a.sessionId, 9, a.learnerId));
        await tx.llmCalls.add(llmCall('no-session', null, 6, a.learnerId));
        await tx.llmCalls.add(llmCall('other-learner', b.sessionId, 5, b.learnerId));
        await tx.llmCalls.add(llmCall('no-learner', a.sessionId, 5, null));
      });
      // 812 input + 64 output per call; the one made exactly at `since` counts.
      const sums = () =>
        storage.read(async (reader) => [
          await reader.llmCalls.tokensUsedSince(a.learnerId, at(4)),
          await reader.llmCalls.tokensUsedSince(a.learnerId, at(10)),
          await reader.llmCalls.tokensUsedSince(b.learnerId, at(0)),
          await reader.llmCalls.tokensUsedSince('nobody', at(0)),
        ]);
      expect(await sums()).toEqual([3 * 876, 0, 876, 0]);
      // Deleting the session (or its calls' session never existing) does not give the tokens back.
      await storage.transaction((tx) => tx.sessions.delete(a.sessionId));
      expect(await sums()).toEqual([3 * 876, 0, 876, 0]);
    });

    it('sums only the calls of one purpose when asked (the daily cap on documents, SPEC §4.7)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      await storage.transaction(async (tx) => {
        await tx.llmCalls.add(llmCall('evaluating', a.sessionId, 4, a.learnerId));
        await tx.llmCalls.add({ ...llmCall('document-1', null, 5, a.learnerId), purpose: 'document_points' });
        await tx.llmCalls.add({ ...llmCall('document-2', null, 6, a.learnerId), purpose: 'document_points' });
      });
      expect(
        await storage.read(async (reader) => [
          await reader.llmCalls.tokensUsedSince(a.learnerId, at(0), 'document_points'),
          await reader.llmCalls.tokensUsedSince(a.learnerId, at(0)),
        ]),
      ).toEqual([2 * 876, 3 * 876]);
    });
  });

  describe('deleting a session', () => {
    it('removes its checklist, messages, actions, items, responses, estimates and agent logs; keeps cards, review logs, call records and other sessions (R5)', async () => {
      const storage = context.storage();
      const a = await seedRecall(storage, 'a');
      const b = await seedRecall(storage, 'b');
      await storage.transaction(async (tx) => {
        await tx.messages.append(learnerMessage(a.sessionId, 'a1'));
        await tx.messages.append(learnerMessage(b.sessionId, 'b1'));
        await tx.pendingActions.create(choiceAction(a.sessionId, 'w1'));
        await tx.pendingActions.create(choiceAction(b.sessionId, 'w2'));
        const cardId = await tx.cards.save({ learnerId: a.learnerId, pointId: 'a-p0', card: newCard(at(5)), newId: 'card-a' });
        await tx.cards.addReviewLog('log-a', { cardId, sessionId: a.sessionId, rating: 'good', confidence: 0.7, previous: newCard(at(5)), reviewedAt: at(5) });
        await tx.llmCalls.add(llmCall('c1', a.sessionId, 4));
        await tx.agentLogs.append(agentLog('log-entry-a', a.sessionId, a.learnerId, 1));
        await tx.agentLogs.append(agentLog('log-entry-b', b.sessionId, b.learnerId, 1));
        await tx.sessions.create(assessmentSession('x1', a.learnerId));
        await tx.assessments.addItem(storedItem('x1', 'i1', 1));
        await tx.assessments.addResponse('x1', storedResponse('i1', 20));
        await tx.assessments.saveAbilities('x1', a.learnerId, { overall: { ability: 1, standardError: 0.5, responses: 1 }, domains: [] }, at(20));
      });
      const deleted = await storage.transaction(async (tx) => [await tx.sessions.delete(a.sessionId), await tx.sessions.delete('x1'), await tx.sessions.delete('x1')]);
      expect(deleted).toEqual([true, true, false]);
      await storage.read(async (reader) => {
        expect(await reader.sessions.get(a.sessionId)).toBeNull();
        expect(await reader.checklists.list(a.sessionId)).toEqual([]);
        expect(await reader.messages.list(a.sessionId)).toEqual([]);
        expect(await reader.pendingActions.list(a.sessionId)).toEqual([]);
        expect(await reader.assessments.listItems('x1')).toEqual([]);
        expect(await reader.assessments.listResponses('x1')).toEqual([]);
        expect(await reader.assessments.listAbilities('x1')).toEqual([]);
        expect(await reader.agentLogs.listForSession(a.sessionId)).toEqual([]);
        expect((await reader.agentLogs.listForSession(b.sessionId)).map((entry) => entry.id)).toEqual(['log-entry-b']);
        expect(await reader.loadSessionSnapshot(a.sessionId)).toBeNull();
        expect((await reader.cards.get(a.learnerId, 'a-p0'))?.id).toBe('card-a');
        expect((await reader.cards.listReviewLogs('card-a')).map((log) => log.id)).toEqual(['log-a']);
        expect((await reader.llmCalls.listBySession(a.sessionId)).map((call) => call.id)).toEqual(['c1']);
        expect(await reader.messages.count(b.sessionId)).toBe(1);
        expect((await reader.pendingActions.getPending(b.sessionId))?.id).toBe('w2');
        expect(await reader.checklists.list(b.sessionId)).toHaveLength(3);
        expect((await reader.recallSets.listPoints(a.setId)).length).toBe(3);
      });
    });
  });
}
