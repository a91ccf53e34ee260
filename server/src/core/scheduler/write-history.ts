/**
 * Writes a review history for a learner's points (call inside a transaction): each review
 * applied in order under `settings`, its log row holding the card as it was before, and the
 * final card saved — what the sessions would have written. Tests, the benchmark and imports
 * of an existing review log use it.
 */
import type { IdGenerator } from '../ports';
import { newCard, reviewCard, type HistoryReview, type SchedulerSettings } from '../scheduler/fsrs';
import type { StorageTx } from '../storage/storage';

export async function writeHistory(
  tx: Pick<StorageTx, 'cards'>,
  history: { learnerId: string; pointId: string; reviews: readonly HistoryReview[]; sessionId?: string },
  settings: SchedulerSettings,
  ids: IdGenerator,
): Promise<string | null> {
  const ordered = [...history.reviews].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  if (ordered.length === 0) return null;
  let card = newCard(ordered[0]!.reviewedAt);
  const logs: Array<{ previous: typeof card; rating: HistoryReview['rating']; reviewedAt: Date }> = [];
  for (const review of ordered) {
    logs.push({ previous: card, rating: review.rating, reviewedAt: review.reviewedAt });
    card = reviewCard(card, review.rating, review.reviewedAt, settings).card;
  }
  const cardId = await tx.cards.save({ learnerId: history.learnerId, pointId: history.pointId, card, newId: ids.next() });
  for (const log of logs) {
    await tx.cards.addReviewLog(ids.next(), { cardId, sessionId: history.sessionId ?? 'imported', rating: log.rating, confidence: null, previous: log.previous, reviewedAt: log.reviewedAt });
  }
  return cardId;
}
