/**
 * A learner's review log as FSRS training items (pure). Days are whole UTC calendar days between
 * reviews, as ts-fsrs counts elapsed days when it schedules, so the optimiser fits the same
 * model the scheduler applies (long-term only: same-day steps are off, see fsrs.ts).
 */
import { ratingNumber, type HistoryReview } from '../scheduler/fsrs';
import type { TrainingItem, TrainingReview } from './optimizer-port';

const dayMs = 86_400_000;

/** The UTC calendar day of a date, as a day number. */
export function dayNumber(date: Date): number {
  return Math.floor(date.getTime() / dayMs);
}

/** A card's reviews (any order) as optimiser reviews, oldest first; the first has deltaT 0. */
export function toTrainingReviews(reviews: readonly HistoryReview[]): TrainingReview[] {
  const ordered = [...reviews].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  return ordered.map((review, index) => ({
    rating: ratingNumber(review.rating),
    deltaT: index === 0 ? 0 : dayNumber(review.reviewedAt) - dayNumber(ordered[index - 1]!.reviewedAt),
  }));
}

/**
 * One item per review after a card's first, holding the reviews before it: what FSRS
 * predicts and is scored on. Items whose last review came the same day as the one before
 * are left out — there is nothing long-term to predict.
 */
export function trainingItems(histories: ReadonlyArray<readonly HistoryReview[]>): TrainingItem[] {
  const items: TrainingItem[] = [];
  for (const history of histories) {
    const reviews = toTrainingReviews(history);
    for (let end = 2; end <= reviews.length; end += 1) {
      if (reviews[end - 1]!.deltaT > 0) items.push(reviews.slice(0, end));
    }
  }
  return items;
}
