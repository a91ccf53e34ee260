/**
 * One review of a learner's point, for every session type that reviews points (recall, cloze):
 * called inside the transaction that decided it, it reads the card, reschedules it under the
 * learner's settings (their desired retention and FSRS parameters once optimised), saves it and
 * logs the review with the card as it was before.
 */
import type { IdGenerator } from '../ports';
import { newCard, reviewCard, type RatingName } from '../scheduler/fsrs';
import type { StoredCard } from '../storage/cards';
import type { StorageTx } from '../storage/storage';
import { loadSchedulerSettings } from './learner-settings';

export async function recordReview(
  tx: StorageTx,
  ids: IdGenerator,
  review: { sessionId: string; learnerId: string; pointId: string; rating: RatingName; confidence: number | null; now: Date },
): Promise<StoredCard> {
  const { sessionId, learnerId, pointId, rating, confidence, now } = review;
  const existing = await tx.cards.get(learnerId, pointId);
  const outcome = reviewCard(existing ?? newCard(now), rating, now, await loadSchedulerSettings(tx, learnerId));
  const cardId = await tx.cards.save({ learnerId, pointId, card: outcome.card, newId: ids.next() });
  await tx.cards.addReviewLog(ids.next(), { cardId, sessionId, rating, confidence, previous: outcome.previous, reviewedAt: now });
  return { ...outcome.card, id: cardId };
}
