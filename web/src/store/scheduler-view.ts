/**
 * The learner's scheduler in plain words (issue 17), pure: where their FSRS parameters come
 * from, how much better the optimised ones predict their own reviews, whether they can optimise
 * now, and the workload at a desired retention read off the server's simulation.
 */
import type { SchedulerRunView, SchedulerStatus, SimulationPoint } from '@tutorloop/shared';

/** The retentions the Settings chart asks the simulator for: the slider's whole range (0.70–0.99). */
export const forecastRetentions = [0.7, 0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98, 0.99] as const;
/** The horizon of that simulation, in days. */
export const forecastHorizonDays = 90;

export function formatDay(iso: string, locale?: string): string {
  return new Date(iso).toLocaleDateString(locale, { day: 'numeric', month: 'long', year: 'numeric' });
}

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

/**
 * How much better `run`'s parameters predict the reviews they were fitted on than the ones
 * before, as the relative drop in log loss (0.23 = 23% better); null if not better.
 */
export function improvement(run: Pick<SchedulerRunView, 'metrics' | 'previousMetrics'>): number | null {
  const { logLoss } = run.metrics;
  const previous = run.previousMetrics.logLoss;
  if (!(previous > 0) || !Number.isFinite(logLoss) || logLoss >= previous) return null;
  return (previous - logLoss) / previous;
}

/** "the default parameters" or "your previous parameters": what a run was compared with. */
export function previousLabel(run: Pick<SchedulerRunView, 'previousSource'>): string {
  return run.previousSource === 'default' ? 'the default parameters' : 'your previous parameters';
}

/** Whole percent, at least 1 when above zero ("<1%" would read as nothing). */
function wholePercent(share: number): string {
  return `${Math.max(1, Math.round(share * 100))}%`;
}

/** Where the learner's parameters come from, as one line. */
export function describeSource(status: SchedulerStatus, locale?: string): string {
  const run = status.parameters.run;
  if (status.parameters.source === 'default' || !run) return 'FSRS default parameters, fitted on the reviews of many learners.';
  return `Optimised for you on ${formatDay(run.createdAt, locale)} from ${count(run.reviewCount, 'review', 'reviews')}.`;
}

/** The kept run's metrics as a sentence a learner can read; null on the defaults. */
export function describeMetrics(run: SchedulerRunView | null): { headline: string; detail: string } | null {
  if (!run) return null;
  const better = improvement(run);
  const against = run.previousSource === 'default' ? 'defaults' : 'previous';
  return {
    headline: better === null ? `Predicts your recall as well as ${previousLabel(run)}.` : `Predicts your recall ${wholePercent(better)} better than ${previousLabel(run)}.`,
    detail:
      `On your ${count(run.reviewCount, 'review', 'reviews')}: log loss ${run.metrics.logLoss.toFixed(3)} (${against} ${run.previousMetrics.logLoss.toFixed(3)}); ` +
      `predicted recall off by ${(run.metrics.rmseBins * 100).toFixed(1)} points on average (${against} ${(run.previousMetrics.rmseBins * 100).toFixed(1)}). Lower is better.`,
  };
}

/** The newest run when it was not kept (it did not predict better), to say so; else null. */
export function rejectedLatestRun(status: SchedulerStatus): SchedulerRunView | null {
  const latest = status.runs[0];
  return latest && !latest.kept ? latest : null;
}

/** Why "Optimise now" is disabled, or null when it may be pressed. */
export function optimizeBlocker(status: SchedulerStatus): string | null {
  const { state } = status.optimization;
  if (state === 'queued' || state === 'running') return 'An optimisation is under way.';
  const minimum = status.thresholds.manual;
  if (status.reviewCount < minimum) {
    return `Optimising needs at least ${count(minimum, 'review', 'reviews')}; you have ${status.reviewCount.toLocaleString('en-US')}. Keep reviewing and try again.`;
  }
  return null;
}

/** The optimiser's state as a short progress line (queued, running with percent). */
export function describeProgress(status: SchedulerStatus): string | null {
  const { state, progress } = status.optimization;
  if (state === 'queued') return 'Waiting for the optimiser…';
  if (state === 'running') {
    const reviews = count(status.reviewCount, 'review', 'reviews');
    return progress === null ? `Fitting to your ${reviews}…` : `Fitting to your ${reviews}… ${Math.round(progress * 100)}%`;
  }
  return null;
}

/** The simulated forecast at `retention`, interpolated linearly between the simulated retentions. */
export function workloadAt(points: ReadonlyArray<SimulationPoint>, retention: number): { reviewsPerDay: number; retainedShare: number } | null {
  if (points.length === 0) return null;
  const sorted = [...points].sort((a, b) => a.retention - b.retention);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  if (retention <= first.retention) return { reviewsPerDay: first.reviewsPerDay, retainedShare: first.retainedShare };
  if (retention >= last.retention) return { reviewsPerDay: last.reviewsPerDay, retainedShare: last.retainedShare };
  const upper = sorted.findIndex((point) => point.retention >= retention);
  const high = sorted[upper]!;
  const low = sorted[upper - 1]!;
  const t = (retention - low.retention) / (high.retention - low.retention);
  return {
    reviewsPerDay: low.reviewsPerDay + t * (high.reviewsPerDay - low.reviewsPerDay),
    retainedShare: low.retainedShare + t * (high.retainedShare - low.retainedShare),
  };
}

/** Reviews per day, readable: one decimal below 10, whole above. */
export function formatPerDay(value: number): string {
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/** One sentence for the chart's selected retention (also its text alternative's summary). */
export function describeWorkload(points: ReadonlyArray<SimulationPoint>, retention: number, days: number, cardCount: number): string | null {
  const at = workloadAt(points, retention);
  if (!at) return null;
  return (
    `At ${Math.round(retention * 100)}%: about ${formatPerDay(at.reviewsPerDay)} reviews a day over the next ${days} days, ` +
    `and on an average day you would remember about ${Math.round(at.retainedShare * 100)}% of your ${count(cardCount, 'point', 'points')}.`
  );
}
