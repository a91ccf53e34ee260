/**
 * The port to an FSRS parameter optimiser (SPEC §4.1, issue 17). The optimiser itself — fsrs-rs
 * through `@open-spaced-repetition/binding`, a native addon — lives outside core, in a child
 * process at the lowest CPU priority (server/src/scheduler/), so that fitting never runs on the
 * thread that serves turns.
 */

/** One review as the optimiser sees it: FSRS rating 1–4 and whole days since the previous review (0 for the first). */
export interface TrainingReview {
  rating: 1 | 2 | 3 | 4;
  deltaT: number;
}

/** One training item: a card's reviews up to and including the one to predict. */
export type TrainingItem = readonly TrainingReview[];

/** How well a parameter set predicts a history (lower is better for both). */
export interface PredictionMetrics {
  logLoss: number;
  rmseBins: number;
}

export interface OptimizeRequest {
  items: readonly TrainingItem[];
  /** The parameters in use now (null: FSRS-6 defaults), evaluated on the same items. */
  previousWeights: readonly number[] | null;
}

export interface OptimizeResult {
  weights: number[];
  metrics: PredictionMetrics;
  previousMetrics: PredictionMetrics;
  durationMs: number;
}

/** Fits FSRS-6 parameters to training items, reporting progress; rejects when cancelled or failing. */
export interface ParameterOptimizer {
  optimize(request: OptimizeRequest, onProgress: (done: number, total: number) => void, signal?: AbortSignal): Promise<OptimizeResult>;
}
