/**
 * The FSRS cards port (SPEC §4.1): one card per learner × point, and the review log. The card
 * is `CardRecord` (scheduler/fsrs.ts schedules it); a review log records the card before the review.
 */
import type { CardState } from '@tutorloop/shared';

/** An FSRS review's rating (scheduler/fsrs.ts converts it to ts-fsrs's `Rating`). */
export type RatingName = 'again' | 'hard' | 'good' | 'easy';

/** Our stored card: ts-fsrs Card with a string state. */
export interface CardRecord {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: CardState;
  lastReview: Date | null;
}

/** A learner's card for one point. */
export interface StoredCard extends CardRecord {
  id: string;
}

/** A review to log: the rating and the card as it was before. */
export interface ReviewLogInput {
  cardId: string;
  sessionId: string;
  rating: RatingName;
  confidence: number | null;
  previous: CardRecord;
  reviewedAt: Date;
}

/** A review log row: the rating, and the part of the card it was given to. */
export interface ReviewLogRecord {
  id: string;
  cardId: string;
  sessionId: string | null;
  rating: RatingName;
  /** The evaluator's confidence; null for the end-of-session Again. */
  confidence: number | null;
  previous: Pick<StoredCard, 'state' | 'due' | 'stability' | 'difficulty' | 'scheduledDays'>;
  reviewedAt: Date;
}

/** A review log row of one learner, with the point its card schedules. */
export interface LearnerReviewLog extends ReviewLogRecord {
  pointId: string;
}

/** What `save` writes: the card of `learnerId` for `pointId`; `newId` names it if it is new. */
export interface CardWrite {
  learnerId: string;
  pointId: string;
  card: Omit<StoredCard, 'id'>;
  /** The id given to the card when the learner has none for this point yet (ids are injected). */
  newId: string;
}

/** Reads cards and review logs. */
export interface CardReader {
  get(learnerId: string, pointId: string): Promise<StoredCard | null>;
  /** The learner's cards for some points, keyed by point id; points without a card are absent. */
  listFor(learnerId: string, pointIds: readonly string[]): Promise<Map<string, StoredCard>>;
  /** A card's reviews, oldest first. */
  listReviewLogs(cardId: string): Promise<ReviewLogRecord[]>;
  /** Every review of the learner's cards, oldest first (ties by id): what progress figures are computed from. */
  listReviewLogsByLearner(learnerId: string): Promise<LearnerReviewLog[]>;
}

/** Reads and writes cards (inside a transaction, with the checklist change they follow). */
export interface CardRepository extends CardReader {
  /** Inserts or updates the learner's card for the point; returns the card's id. */
  save(write: CardWrite): Promise<string>;
  /** Adds a review log row; throws `missing_reference` for an unknown card. */
  addReviewLog(id: string, log: ReviewLogInput): Promise<void>;
}
