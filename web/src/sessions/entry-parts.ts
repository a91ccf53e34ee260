import type { SessionType } from '@tutorloop/shared';
import { ClozeHomeCard } from './cloze/cloze-home-card';
import { ClozeSetAction } from './cloze/cloze-set-action';
import { DueCard } from './recall/due-card';
import { RecallSetAction } from './recall/recall-set-action';
import type { SessionEntryParts } from './session-type';

/**
 * The parts of each session type that other pages show — the home page's card, the recall set
 * page's start button — apart from `registry.ts` (the session page's parts). The home page is
 * in the main script, which the landing page waits for; the session page's parts bring marked
 * and DOMPurify, so they stay in the session page's lazy chunk (issue 27 item 5). Keyed by
 * `shared`'s session types like the registry: a new type fails to type-check until it says
 * what it adds here.
 */
export const sessionEntryParts: { [K in SessionType]: SessionEntryParts } = {
  recall: { HomeCard: DueCard, SetAction: RecallSetAction },
  assessment: { HomeCard: null, SetAction: null },
  learning: { HomeCard: null, SetAction: null },
  thought: { HomeCard: null, SetAction: null },
  survey: { HomeCard: null, SetAction: null },
  cloze: { HomeCard: ClozeHomeCard, SetAction: ClozeSetAction },
};

/** The home page's cards, in registry order. */
export const homeCards = Object.entries(sessionEntryParts).flatMap(([type, parts]) => (parts.HomeCard ? [{ type, Card: parts.HomeCard }] : []));

/** The recall set page's start buttons, in registry order. */
export const setActions = Object.entries(sessionEntryParts).flatMap(([type, parts]) => (parts.SetAction ? [{ type, Action: parts.SetAction }] : []));
