/** Contract: surveys (own, shared, built-in) and their responses (R11). */
import { describe, expect, it } from 'vitest';
import type { SurveyContent } from '@tutorloop/shared';
import { isStorageError } from '../../src/core/storage/storage-error';
import type { StoredSurvey, StoredSurveyResponse } from '../../src/core/storage/surveys';
import type { ContractContext } from './storage-contract';
import { at, newLearner, recallSession, rejection } from './fixtures';

const codeOf = async (promise: Promise<unknown>) => ((await rejection(promise)) as { code?: string }).code;

function surveyContent(title = 'Course feedback'): SurveyContent {
  return {
    title,
    questions: [
      { id: 'enjoyed', kind: 'multiple_choice', prompt: 'Did you enjoy it?', options: ['Yes', 'No'], required: true, skip: [{ when: { equals: 'No' }, goTo: 'end' }] },
      { id: 'clarity', kind: 'rating', prompt: 'How clear was it?', min: 1, max: 5, required: true, skip: [] },
      { id: 'comments', kind: 'free_text', prompt: 'Anything else?', maxLength: 500, required: false, skip: [] },
    ],
  };
}

function response(id: string, sessionId: string, learnerId: string, questionId: string, minute: number, overrides: Partial<StoredSurveyResponse> = {}): StoredSurveyResponse {
  return { id, surveyId: 's-a', sessionId, learnerId, questionId, answer: { selectedIndex: 0 }, answerText: 'Yes', answeredAt: at(minute), ...overrides };
}

export function surveyContract(context: ContractContext): void {
  describe('surveys', () => {
    async function seedSurveys() {
      const storage = context.storage();
      await storage.transaction(async (tx) => {
        await tx.learners.create(newLearner('a'));
        await tx.learners.create(newLearner('b'));
        await tx.surveys.create({ id: 's-a', ownerId: 'a', shared: false, survey: surveyContent('A private'), createdAt: at(1) });
        await tx.surveys.create({ id: 's-shared', ownerId: 'a', shared: true, survey: surveyContent('A shared'), createdAt: at(2) });
        await tx.surveys.create({ id: 's-b', ownerId: 'b', shared: false, survey: surveyContent('B private'), createdAt: at(3) });
        await tx.surveys.upsertBuiltIn({ id: 'course-feedback', survey: surveyContent('Built-in') }, at(0));
        await tx.sessions.create(recallSession('session-1', 'b', null, 4));
        await tx.sessions.create(recallSession('session-2', 'a', null, 4));
      });
      return storage;
    }

    it('round-trips a survey; a learner sees their own, the shared and the built-in ones, never another’s private one (R11)', async () => {
      const storage = await seedSurveys();
      const expected: StoredSurvey = { id: 's-a', ownerId: 'a', builtIn: false, shared: false, title: 'A private', survey: surveyContent('A private'), createdAt: at(1), updatedAt: at(1) };
      await storage.read(async (reader) => {
        expect(await reader.surveys.get('s-a')).toEqual(expected);
        expect(await reader.surveys.get('nothing')).toBeNull();
        expect((await reader.surveys.listVisibleTo('a')).map((survey) => survey.id)).toEqual(['s-shared', 's-a', 'course-feedback']);
        expect((await reader.surveys.listVisibleTo('b')).map((survey) => survey.id)).toEqual(['s-b', 's-shared', 'course-feedback']);
        expect((await reader.surveys.listBuiltIn()).map((survey) => [survey.id, survey.ownerId, survey.builtIn, survey.shared])).toEqual([['course-feedback', null, true, true]]);
      });
    });

    it('updates, refuses what is invalid, unknown or built in, and installs a built-in survey only when it changed', async () => {
      const storage = await seedSurveys();
      const updated = await storage.transaction((tx) => tx.surveys.update('s-a', { survey: surveyContent('A renamed'), shared: true }, at(30)));
      expect(updated).toEqual({ id: 's-a', ownerId: 'a', builtIn: false, shared: true, title: 'A renamed', survey: surveyContent('A renamed'), createdAt: at(1), updatedAt: at(30) });
      const invalid = { ...surveyContent(), questions: [] };
      expect(await codeOf(storage.transaction((tx) => tx.surveys.create({ id: 'bad', ownerId: 'a', shared: false, survey: invalid, createdAt: at(5) })))).toBe('invalid_value');
      expect(await codeOf(storage.transaction((tx) => tx.surveys.create({ id: 'bad', ownerId: 'ghost', shared: false, survey: surveyContent(), createdAt: at(5) })))).toBe('missing_reference');
      expect(await codeOf(storage.transaction((tx) => tx.surveys.create({ id: 's-b', ownerId: 'a', shared: false, survey: surveyContent(), createdAt: at(5) })))).toBe('conflict');
      expect(await codeOf(storage.transaction((tx) => tx.surveys.update('ghost', { shared: true }, at(5))))).toBe('not_found');
      expect(await codeOf(storage.transaction((tx) => tx.surveys.update('course-feedback', { shared: false }, at(5))))).toBe('invalid_value');
      expect(await codeOf(storage.transaction((tx) => tx.surveys.upsertBuiltIn({ id: 's-a', survey: surveyContent() }, at(5))))).toBe('conflict');
      expect(await storage.transaction((tx) => tx.surveys.upsertBuiltIn({ id: 'course-feedback', survey: surveyContent('Built-in') }, at(50)))).toMatchObject({ updatedAt: at(0) });
      expect(await storage.transaction((tx) => tx.surveys.upsertBuiltIn({ id: 'course-feedback', survey: surveyContent('Built-in, revised') }, at(60)))).toMatchObject({
        title: 'Built-in, revised',
        createdAt: at(0),
        updatedAt: at(60),
      });
      expect(await storage.read((reader) => reader.surveys.get('bad'))).toBeNull();
    });

    it('stores one response per session and question (skipped: null), lists them in order, and deletes them with the survey or the session', async () => {
      const storage = await seedSurveys();
      const given = await storage.transaction(async (tx) => [
        await tx.surveys.addResponse(response('r2', 'session-1', 'b', 'clarity', 11, { answer: { value: 4 }, answerText: '4 of 5' })),
        await tx.surveys.addResponse(response('r1', 'session-1', 'b', 'enjoyed', 10)),
        await tx.surveys.addResponse(response('r3', 'session-1', 'b', 'comments', 12, { answer: null, answerText: null })),
        await tx.surveys.addResponse(response('r4', 'session-2', 'a', 'enjoyed', 12, { answer: { text: 'x' }, answerText: 'x', surveyId: 's-b' })),
      ]);
      expect(given[2]).toEqual(response('r3', 'session-1', 'b', 'comments', 12, { answer: null, answerText: null }));
      expect(await storage.read((reader) => reader.surveys.listResponses('s-a'))).toEqual([given[1], given[0], given[2]]);
      expect(isStorageError(await rejection(storage.transaction((tx) => tx.surveys.addResponse(response('r5', 'session-1', 'b', 'enjoyed', 13)))), 'conflict')).toBe(true);
      expect(await codeOf(storage.transaction((tx) => tx.surveys.addResponse(response('r6', 'ghost', 'b', 'enjoyed', 13))))).toBe('missing_reference');
      // Deleting the survey deletes its responses; deleting a session deletes that session's.
      expect(await storage.transaction((tx) => tx.surveys.delete('s-a'))).toBe(true);
      expect(await storage.transaction((tx) => tx.surveys.delete('s-a'))).toBe(false);
      expect(await storage.read((reader) => reader.surveys.listResponses('s-a'))).toEqual([]);
      await storage.transaction((tx) => tx.sessions.delete('session-2'));
      expect(await storage.read((reader) => reader.surveys.listResponses('s-b'))).toEqual([]);
    });
  });
}
