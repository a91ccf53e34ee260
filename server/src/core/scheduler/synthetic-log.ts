/**
 * A synthetic review log drawn from a known FSRS parameter set with a seeded random source
 * (pure): what the optimiser's golden tests and the benchmark feed it. Each simulated card is
 * reviewed on the day its scheduler (the true parameters, desired retention 0.9) chose, moved
 * by a random delay — learners are not punctual, and the spread of delays is what lets an
 * optimiser see the forgetting curve. Whether the learner recalls is drawn from the true
 * retrievability at that moment; a recall is graded Hard/Good/Easy, a failure Again.
 */
import { createRandom, type Random } from '../assessment/random';
import { newCard, retrievability, reviewCard, type CardRecord, type HistoryReview, type RatingName, type SchedulerSettings } from '../scheduler/fsrs';

export interface SyntheticLogOptions {
  /** The parameters the simulated memory follows. */
  weights: readonly number[];
  cards: number;
  /** Reviews per card, the first included. */
  reviewsPerCard: number;
  seed: string;
  /** When the first card is first seen; cards start over `spreadDays` days. */
  start: Date;
  spreadDays?: number;
}

const dayMs = 86_400_000;

function pick(random: Random, weighted: ReadonlyArray<readonly [RatingName, number]>): RatingName {
  let roll = random.next();
  for (const [rating, weight] of weighted) {
    if (roll < weight) return rating;
    roll -= weight;
  }
  return weighted[weighted.length - 1]![0];
}

const firstRatings = [['again', 0.15], ['hard', 0.1], ['good', 0.6], ['easy', 0.15]] as const;
const recallRatings = [['hard', 0.15], ['good', 0.75], ['easy', 0.1]] as const;

/** One history per card, oldest review first. */
export function syntheticReviewLog(options: SyntheticLogOptions): HistoryReview[][] {
  const random = createRandom(options.seed);
  const truth: SchedulerSettings = { retention: 0.9, weights: options.weights };
  const spread = options.spreadDays ?? 30;
  const histories: HistoryReview[][] = [];
  for (let index = 0; index < options.cards; index += 1) {
    const firstAt = new Date(options.start.getTime() + Math.floor(random.next() * spread) * dayMs + 9 * 3_600_000);
    const firstRating = pick(random, firstRatings);
    let card: CardRecord = reviewCard(newCard(firstAt), firstRating, firstAt, truth).card;
    const history: HistoryReview[] = [{ rating: firstRating, reviewedAt: firstAt }];
    for (let review = 1; review < options.reviewsPerCard; review += 1) {
      const last = card.lastReview!;
      const interval = Math.max(1, Math.round((card.due.getTime() - last.getTime()) / dayMs));
      // Delay factor 0.5–2.5 around the scheduled interval.
      const elapsed = Math.max(1, Math.round(interval * (0.5 + 2 * random.next())));
      const at = new Date(last.getTime() + elapsed * dayMs);
      const recalled = random.next() < (retrievability(card, at, truth) ?? 0);
      const rating = recalled ? pick(random, recallRatings) : 'again';
      card = reviewCard(card, rating, at, truth).card;
      history.push({ rating, reviewedAt: at });
    }
    histories.push(history);
  }
  return histories;
}

/** A parameter set unlike the FSRS-6 defaults (a learner who forgets faster at first), for tests and benchmarks. */
export const syntheticTrueWeights: readonly number[] = Object.freeze([
  0.1, 0.6, 1.2, 4.0, 6.8, 0.7, 2.6, 0.004, 1.5, 0.2, 0.9, 1.6, 0.06, 0.3, 2.0, 0.25, 2.8, 0, 0, 0, 0.15,
]);
