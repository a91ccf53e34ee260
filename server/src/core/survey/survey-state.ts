/**
 * What a survey session keeps of its own (SPEC §4.5), stored as its type state (the registry,
 * core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import type { SnapshotNeeds } from '../storage/session-snapshot';
import { SurveyContent, WidgetAnswer } from '@tutorloop/shared';

/** One answered (or skipped: `answer` null) question of a survey session. */
export const SurveyAnswerRecord = z.object({
  questionId: z.string(),
  answer: WidgetAnswer.nullable(),
  /** The answer as text (an option, "4 of 5", the free text); null when skipped. */
  text: z.string().nullable(),
});
export type SurveyAnswerRecord = z.infer<typeof SurveyAnswerRecord>;

/**
 * Survey sessions (SPEC §4.5): the survey (copied at creation, so editing or deleting it never
 * changes a running session), the question on screen (null once the survey reached its end)
 * and the answers so far, in the order given.
 */
export const SurveySessionState = z.object({
  type: z.literal('survey'),
  surveyId: z.string().min(1),
  survey: SurveyContent,
  current: z.string().nullable(),
  answers: z.array(SurveyAnswerRecord).default([]),
});
export type SurveySessionState = z.infer<typeof SurveySessionState>;

/** What a survey session's snapshot loads beyond what every session has: nothing (its answers are in its state). */
export const surveySnapshotNeeds: SnapshotNeeds = {};
