/**
 * When a learner's FSRS parameters are optimised (issue 17; ARCHITECTURE.md "Decisions").
 *
 * - Automatically once the learner's log holds `automaticMinimumReviews` reviews — below
 *   that the FSRS-6 defaults, fitted on millions of learners, predict about as well — and
 *   again whenever the log has grown by `regrowthFactor` since the last run (kept or not),
 *   at most once per `minimumIntervalDays`. The server checks every `sweepIntervalMs`.
 * - On demand (`POST /api/me/scheduler/optimize`) from `manualMinimumReviews` reviews: enough
 *   for fsrs-rs to fit, and the run is kept only if it predicts better anyway.
 * - A run is kept only when its log loss on the learner's own reviews is lower than the
 *   previous parameters' on the same reviews (RMSE (bins) is recorded beside it).
 */
export const optimizationPolicy = {
  automaticMinimumReviews: 400,
  manualMinimumReviews: 100,
  regrowthFactor: 1.25,
  minimumIntervalDays: 7,
  sweepIntervalMs: 60 * 60 * 1000,
} as const;

/** Whether the automatic optimiser should run for a learner now. */
export function automaticRunDue(reviewCount: number, lastRun: { createdAt: Date; reviewCount: number } | null, now: Date, policy = optimizationPolicy): boolean {
  if (reviewCount < policy.automaticMinimumReviews) return false;
  if (!lastRun) return true;
  const days = (now.getTime() - lastRun.createdAt.getTime()) / 86_400_000;
  return days >= policy.minimumIntervalDays && reviewCount >= lastRun.reviewCount * policy.regrowthFactor;
}

/** New parameters replace the previous ones only if they predict the same reviews better. */
export function predictsBetter(metrics: { logLoss: number }, previous: { logLoss: number }): boolean {
  return Number.isFinite(metrics.logLoss) && metrics.logLoss < previous.logLoss;
}
