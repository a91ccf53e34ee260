import { z } from 'zod';

/** How well a parameter set predicts the learner's own reviews (lower is better). */
export const PredictionMetrics = z.object({ logLoss: z.number(), rmseBins: z.number() });
export type PredictionMetrics = z.infer<typeof PredictionMetrics>;

/** One optimisation of the learner's FSRS parameters. */
export const SchedulerRunView = z.object({
  id: z.string(),
  createdAt: z.string(),
  reviewCount: z.number().int(),
  metrics: PredictionMetrics,
  /** The previous parameters on the same reviews. */
  previousMetrics: PredictionMetrics,
  /** What the previous parameters were: the FSRS-6 defaults, or an earlier optimisation. */
  previousSource: z.enum(['default', 'optimised']),
  /** Whether the new parameters predicted better and replaced the previous ones. */
  kept: z.boolean(),
  durationMs: z.number().int(),
});
export type SchedulerRunView = z.infer<typeof SchedulerRunView>;

/** The optimiser's state for this learner. */
export const OptimizationState = z.object({
  state: z.enum(['idle', 'queued', 'running', 'failed']),
  /** 0–1 while running. */
  progress: z.number().min(0).max(1).nullable(),
  /** Why the last run failed (state `failed`). */
  error: z.string().nullable(),
});
export type OptimizationState = z.infer<typeof OptimizationState>;

/** `GET /api/me/scheduler` (and the answer of `POST /api/me/scheduler/optimize`). */
export const SchedulerStatus = z.object({
  desiredRetention: z.number(),
  parameters: z.object({
    /** The 21 FSRS-6 weights in use. */
    weights: z.array(z.number()),
    source: z.enum(['default', 'optimised']),
    /** The kept run that produced them; null for the defaults. */
    run: SchedulerRunView.nullable(),
  }),
  /** Reviews in the learner's log. */
  reviewCount: z.number().int(),
  /** Reviews needed before the server optimises by itself, and before it will on demand. */
  thresholds: z.object({ automatic: z.number().int(), manual: z.number().int() }),
  optimization: OptimizationState,
  /** Recent runs, newest first (kept or not). */
  runs: z.array(SchedulerRunView),
});
export type SchedulerStatus = z.infer<typeof SchedulerStatus>;

/** `POST /api/me/scheduler/simulate`: retentions to compare over the next `days` days. */
export const SimulateBody = z.object({
  retentions: z.array(z.number().min(0.7).max(0.99)).min(1).max(15).optional(),
  days: z.number().int().min(7).max(365).optional(),
});
export type SimulateBody = z.infer<typeof SimulateBody>;

/** One retention's forecast. */
export const SimulationPoint = z.object({
  retention: z.number(),
  reviewsPerDay: z.number(),
  totalReviews: z.number(),
  /** Expected points remembered on an average day of the horizon. */
  knowledgeRetained: z.number(),
  /** The same, as a share of the points. */
  retainedShare: z.number(),
});
export type SimulationPoint = z.infer<typeof SimulationPoint>;

export const SimulationResponse = z.object({
  days: z.number().int(),
  cardCount: z.number().int(),
  points: z.array(SimulationPoint),
});
export type SimulationResponse = z.infer<typeof SimulationResponse>;
