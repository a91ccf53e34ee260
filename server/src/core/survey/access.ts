/**
 * Who may do what with a survey (SPEC §6: surveys "belong to their author; a `shared: true`
 * flag makes one readable (not writable) by every learner"; built-in surveys are shared and
 * belong to no one). Results are the owner's alone (§4.5). The REST service and the survey
 * module both decide with these.
 */
import type { StoredSurvey } from '../storage/surveys';

/** The learner may read it (and take it). */
export function canReadSurvey(survey: Pick<StoredSurvey, 'ownerId' | 'shared' | 'builtIn'>, learnerId: string): boolean {
  return survey.ownerId === learnerId || survey.shared || survey.builtIn;
}

/** The learner may change or delete it: only its author, and never a built-in survey. */
export function canWriteSurvey(survey: Pick<StoredSurvey, 'ownerId' | 'builtIn'>, learnerId: string): boolean {
  return !survey.builtIn && survey.ownerId === learnerId;
}

/**
 * The learner may read its results: its author — and, for a built-in survey (which has no
 * author), nobody through the API: its results are the server operator's.
 */
export function canReadSurveyResults(survey: Pick<StoredSurvey, 'ownerId'>, learnerId: string): boolean {
  return survey.ownerId === learnerId;
}
