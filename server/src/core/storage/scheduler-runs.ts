/**
 * The scheduler port (issue 17): each learner's FSRS parameter optimisations, and the review
 * history they are computed from. A run records the parameters it found, when, on how many
 * reviews, and how the new and the previous parameters predict those same reviews; only a
 * run that predicts better is `kept`, and the newest kept run's weights are the learner's.
 */
import type { RatingName } from './cards';

/** One review of a card's history, as replayed when parameters change. */
export interface HistoryReview {
  rating: RatingName;
  reviewedAt: Date;
}

/** Log loss and RMSE (bins) of a parameter set on a review history: lower is better. */
export interface RunMetrics {
  logLoss: number;
  rmseBins: number;
}

/** One optimisation run. */
export interface StoredSchedulerRun {
  id: string;
  learnerId: string;
  createdAt: Date;
  /** Reviews in the learner's log when the run started. */
  reviewCount: number;
  /** The parameters found (21 FSRS-6 weights). */
  weights: number[];
  /** The parameters in use before (null: the FSRS-6 defaults). */
  previousWeights: number[] | null;
  metrics: RunMetrics;
  previousMetrics: RunMetrics;
  /** True when the new parameters predict better and replaced the previous ones. */
  kept: boolean;
  /** Wall time of the fit, in ms. */
  durationMs: number;
}

/** One card of a learner with its reviews (any order). */
export interface CardHistory {
  cardId: string;
  pointId: string;
  reviews: HistoryReview[];
}

/** A page of `reviewHistory`: the cards after `afterCardId` in id order, at most `limit` of them. */
export interface HistoryPage {
  afterCardId: string | null;
  limit: number;
}

export interface SchedulerReader {
  /** The weights of the learner's newest kept run; null when they use the defaults. */
  currentWeights(learnerId: string): Promise<number[] | null>;
  /** The learner's runs, newest first (ties by id). */
  listRuns(learnerId: string, limit?: number): Promise<StoredSchedulerRun[]>;
  /**
   * Every card of the learner with its review log (oldest review first), in card id order; with
   * `page`, only the `limit` cards after `afterCardId` (null: from the first), so that a long
   * history can be read in short units that let turns through between them.
   */
  reviewHistory(learnerId: string, page?: HistoryPage): Promise<CardHistory[]>;
  /** How many reviews the learner's log holds. */
  reviewCount(learnerId: string): Promise<number>;
  /** Every learner with at least `minimum` reviews, with their count (the automatic optimiser's sweep). */
  learnersWithReviews(minimum: number): Promise<Array<{ learnerId: string; reviewCount: number }>>;
}

export interface SchedulerRepository extends SchedulerReader {
  /** Records a run; throws `missing_reference` for an unknown learner, `conflict` for a taken id. */
  addRun(run: StoredSchedulerRun): Promise<void>;
}
