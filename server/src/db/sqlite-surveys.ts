/**
 * The SQLite repository of surveys and their responses (see sqlite-repositories.ts for how it
 * runs). Definitions are validated on the way in and out (core/storage/surveys.ts).
 */
import { asc, eq, sql } from 'drizzle-orm';
import { StorageError } from '../core/storage/storage-error';
import { parseStoredSurvey, readStoredAnswer, readStoredSurvey, type StoredSurvey, type StoredSurveyResponse, type SurveyRepository } from '../core/storage/surveys';
import type { Database } from './database';
import { listOrder, visibleTo } from './sqlite-authored';
import { surveyResponses, surveys } from './schema';

function toStoredSurvey(row: typeof surveys.$inferSelect): StoredSurvey {
  return {
    id: row.id,
    ownerId: row.ownerId,
    builtIn: row.builtIn,
    shared: row.shared,
    title: row.title,
    survey: readStoredSurvey(row.id, row.surveyJson),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toStoredResponse(row: typeof surveyResponses.$inferSelect): StoredSurveyResponse {
  return {
    id: row.id,
    surveyId: row.surveyId,
    sessionId: row.sessionId,
    learnerId: row.learnerId,
    questionId: row.questionId,
    answer: readStoredAnswer(row.id, row.answerJson ?? null),
    answerText: row.answerText,
    answeredAt: row.answeredAt,
  };
}

export function sqliteSurveys(database: Database): SurveyRepository {
  const byId = database.select().from(surveys).where(eq(surveys.id, sql.placeholder('id'))).prepare();
  const get = (id: string) => byId.get({ id });
  return {
    async get(surveyId) {
      const row = get(surveyId);
      return row ? toStoredSurvey(row) : null;
    },
    async listVisibleTo(learnerId) {
      return database
        .select()
        .from(surveys)
        .where(visibleTo(surveys, learnerId))
        .orderBy(...listOrder(surveys))
        .all()
        .map(toStoredSurvey);
    },
    async listBuiltIn() {
      return database.select().from(surveys).where(eq(surveys.builtIn, true)).orderBy(asc(surveys.id)).all().map(toStoredSurvey);
    },
    async listResponses(surveyId) {
      return database.select().from(surveyResponses).where(eq(surveyResponses.surveyId, surveyId)).orderBy(asc(surveyResponses.answeredAt), asc(surveyResponses.id)).all().map(toStoredResponse);
    },
    async create(input) {
      const survey = parseStoredSurvey(input.survey);
      const row = database
        .insert(surveys)
        .values({ id: input.id, ownerId: input.ownerId, builtIn: false, shared: input.shared, title: survey.title, surveyJson: survey as unknown as Record<string, unknown>, createdAt: input.createdAt, updatedAt: input.createdAt })
        .returning()
        .get();
      return toStoredSurvey(row);
    },
    async update(surveyId, changes, now) {
      const row = get(surveyId);
      if (!row) throw new StorageError('not_found', `survey ${surveyId} does not exist`);
      if (row.builtIn) throw new StorageError('invalid_value', `survey ${surveyId} is built in; it changes only through upsertBuiltIn`);
      const survey = changes.survey === undefined ? readStoredSurvey(surveyId, row.surveyJson) : parseStoredSurvey(changes.survey);
      const updated = database
        .update(surveys)
        .set({ surveyJson: survey as unknown as Record<string, unknown>, title: survey.title, shared: changes.shared ?? row.shared, updatedAt: now })
        .where(eq(surveys.id, surveyId))
        .returning()
        .get();
      return toStoredSurvey(updated!);
    },
    async delete(surveyId) {
      database.delete(surveyResponses).where(eq(surveyResponses.surveyId, surveyId)).run();
      return database.delete(surveys).where(eq(surveys.id, surveyId)).run().changes > 0;
    },
    async upsertBuiltIn(input, now) {
      const survey = parseStoredSurvey(input.survey);
      const row = get(input.id);
      // Checked first rather than caught: a constraint error would abort a PostgreSQL transaction.
      if (row && !row.builtIn) throw new StorageError('conflict', `a learner's survey with id ${input.id} already exists`);
      if (row && JSON.stringify(readStoredSurvey(row.id, row.surveyJson)) === JSON.stringify(survey)) return toStoredSurvey(row);
      const values = { ownerId: null, builtIn: true, shared: true, title: survey.title, surveyJson: survey as unknown as Record<string, unknown>, updatedAt: now };
      const written = row
        ? database.update(surveys).set(values).where(eq(surveys.id, input.id)).returning().get()
        : database.insert(surveys).values({ id: input.id, ...values, createdAt: now }).returning().get();
      return toStoredSurvey(written!);
    },
    async addResponse(input) {
      const row = database
        .insert(surveyResponses)
        .values({
          id: input.id,
          surveyId: input.surveyId,
          sessionId: input.sessionId,
          learnerId: input.learnerId,
          questionId: input.questionId,
          answerJson: input.answer,
          answerText: input.answerText,
          answeredAt: input.answeredAt,
        })
        .returning()
        .get();
      return toStoredResponse(row);
    },
  };
}

