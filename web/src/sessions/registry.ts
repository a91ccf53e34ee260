import type { SessionType } from '@tutorloop/shared';
import { assessmentSession } from './assessment/assessment-session';
import { clozeSession } from './cloze/cloze-session';
import { learningSession } from './learning/learning-session';
import { recallSession } from './recall/recall-session';
import { isKnownSessionType } from './rules';
import type { SessionTypeDefinition } from './session-type';
import { surveySession } from './survey/survey-session';
import { thoughtSession } from './thought/thought-session';

/**
 * Every session type the web can show (SPEC §4), one entry each, as `widgets/registry.ts` does
 * for widget kinds: its rules (`rules.ts`) and its session page parts (the home card and the
 * set page's button are in `entry-parts.ts`, which the home page imports without this). The
 * session page only composes what this gives; adding a type to `shared` makes this object fail
 * to type-check until the type has its folder here.
 */
export const sessionRegistry: { [K in SessionType]: SessionTypeDefinition } = {
  recall: recallSession,
  assessment: assessmentSession,
  learning: learningSession,
  thought: thoughtSession,
  survey: surveySession,
  cloze: clozeSession,
};

/** The definition of `type`, or null for a type this version of the app does not know — never recall's. */
export function sessionTypeFor(type: string | null | undefined): SessionTypeDefinition | null {
  return isKnownSessionType(type) ? sessionRegistry[type] : null;
}
