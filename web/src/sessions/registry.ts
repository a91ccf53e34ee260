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
 * for widget kinds: its rules (`rules.ts`) and its page parts. The session page and the home
 * page only compose what this gives; adding a type to `shared` makes this object fail to
 * type-check until the type has its folder here.
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

/** The home page's cards, in registry order. */
export const homeCards = Object.entries(sessionRegistry).flatMap(([type, definition]) =>
  definition.HomeCard ? [{ type, Card: definition.HomeCard }] : [],
);

/** The recall set page's start buttons, in registry order. */
export const setActions = Object.entries(sessionRegistry).flatMap(([type, definition]) =>
  definition.SetAction ? [{ type, Action: definition.SetAction }] : [],
);
