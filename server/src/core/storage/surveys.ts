/**
 * The surveys port (SPEC §3, §4.5, §6): survey definitions written by learners (private or
 * shared) and the built-in surveys shipped with the server (no owner, shared with everyone),
 * and the responses given in survey sessions — one row per question answered or skipped.
 * A definition is one value validated by the shared `SurveyContent` schema on every write and
 * every read, like a study plan.
 */
import { SurveyContent, WidgetAnswer } from '@tutorloop/shared';
import { z } from 'zod';
import { StorageError } from './storage-error';

/** A survey as stored. */
export interface StoredSurvey {
  id: string;
  /** The learner who wrote it; null for a built-in survey. */
  ownerId: string | null;
  /** Shipped with the server (server/surveys/); never owned, always shared. */
  builtIn: boolean;
  /** Readable (not writable) by every learner. */
  shared: boolean;
  /** A copy of `survey.title`, for listing. */
  title: string;
  survey: SurveyContent;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewSurvey {
  id: string;
  ownerId: string;
  shared: boolean;
  survey: SurveyContent;
  createdAt: Date;
}

/** A built-in survey to install or refresh (its id is stable: the file's name). */
export interface BuiltInSurvey {
  id: string;
  survey: SurveyContent;
}

export interface SurveyUpdate {
  survey?: SurveyContent;
  shared?: boolean;
}

/** One question's answer in one survey session; `answer` null means the respondent skipped it. */
export interface StoredSurveyResponse {
  id: string;
  surveyId: string;
  sessionId: string;
  learnerId: string;
  questionId: string;
  answer: WidgetAnswer | null;
  /** The answer as text (an option, "4 of 5", the free text); null when skipped. */
  answerText: string | null;
  answeredAt: Date;
}

export type NewSurveyResponse = StoredSurveyResponse;

export interface SurveyReader {
  get(surveyId: string): Promise<StoredSurvey | null>;
  /**
   * What the learner may read: their own surveys, every shared one and every built-in one.
   * Learners' surveys first, most recently updated first; built-in ones last, by title; ties by id.
   */
  listVisibleTo(learnerId: string): Promise<StoredSurvey[]>;
  /** Every built-in survey, by id. */
  listBuiltIn(): Promise<StoredSurvey[]>;
  /** Every response to the survey, in the order given (answered time, then id). */
  listResponses(surveyId: string): Promise<StoredSurveyResponse[]>;
}

export interface SurveyRepository extends SurveyReader {
  /** Throws `invalid_value` for a survey that does not parse, `missing_reference` for an unknown owner, `conflict` for a taken id. */
  create(survey: NewSurvey): Promise<StoredSurvey>;
  /** Throws `not_found` for an unknown id, `invalid_value` for a survey that does not parse or a built-in one. */
  update(surveyId: string, changes: SurveyUpdate, now: Date): Promise<StoredSurvey>;
  /**
   * Deletes a survey and its responses. Sessions keep working: a survey session copies the
   * survey into its own state when it is created. False when there was no such survey.
   */
  delete(surveyId: string): Promise<boolean>;
  /** Installs a built-in survey or replaces its content when it changed; `conflict` when a learner's survey holds the id. */
  upsertBuiltIn(survey: BuiltInSurvey, now: Date): Promise<StoredSurvey>;
  /**
   * Records one question's answer. Throws `missing_reference` for an unknown session or
   * learner, `conflict` when the session already answered that question (or the id is taken).
   */
  addResponse(response: NewSurveyResponse): Promise<StoredSurveyResponse>;
}

/** Validates a survey on its way into storage (a caller's bug otherwise: `invalid_value`). */
export function parseStoredSurvey(value: unknown): SurveyContent {
  const parsed = SurveyContent.safeParse(value);
  if (!parsed.success) throw new StorageError('invalid_value', `invalid survey: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads a stored survey back; a row that does not parse is damaged and throws `corrupt`. */
export function readStoredSurvey(surveyId: string, value: unknown): SurveyContent {
  const parsed = SurveyContent.safeParse(value);
  if (!parsed.success) throw new StorageError('corrupt', `survey ${surveyId}: stored survey does not parse: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads a stored answer back (null: skipped); one that does not parse is damaged. */
export function readStoredAnswer(responseId: string, value: unknown): WidgetAnswer | null {
  if (value === null || value === undefined) return null;
  const parsed = WidgetAnswer.safeParse(value);
  if (!parsed.success) throw new StorageError('corrupt', `survey response ${responseId}: stored answer does not parse`);
  return parsed.data;
}
