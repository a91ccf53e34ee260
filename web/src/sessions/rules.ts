import type { SessionType } from '@tutorloop/shared';
import { assessmentRules } from './assessment/assessment-rules';
import { clozeRules } from './cloze/cloze-rules';
import { learningRules } from './learning/learning-rules';
import { recallRules } from './recall/recall-rules';
import type { SessionTypeRules } from './session-type';
import { surveyRules } from './survey/survey-rules';
import { thoughtRules } from './thought/thought-rules';

/**
 * The React-free half of the session type registry (`registry.ts` adds the page parts), read
 * by the session store. Keyed by `shared`'s session types: a type added there fails to
 * type-check here until the web has its rules.
 */
export const sessionRules: { [K in SessionType]: SessionTypeRules } = {
  recall: recallRules,
  assessment: assessmentRules,
  learning: learningRules,
  thought: thoughtRules,
  survey: surveyRules,
  cloze: clozeRules,
};

/** True for a type this version of the app knows (a newer server may have more). */
export function isKnownSessionType(type: string | null | undefined): type is SessionType {
  return typeof type === 'string' && Object.hasOwn(sessionRules, type);
}

/** The rules of `type`, or null for a type this version of the app does not know — never recall's. */
export function sessionRulesFor(type: string | null | undefined): SessionTypeRules | null {
  return isKnownSessionType(type) ? sessionRules[type] : null;
}
