import type { AbilityEstimate, AssessmentItemReview, AssessmentProgress, AssessmentResults, CodeTestCase } from '@tutorloop/shared';

// ---------------------------------------------------------------------------
// Running assessment: item counter and countdown
// ---------------------------------------------------------------------------

/** Milliseconds left until `deadline` (negative once past), or null if the date is unreadable. */
export function remainingMs(deadline: string, now: Date): number | null {
  const time = new Date(deadline).getTime();
  return Number.isNaN(time) ? null : time - now.getTime();
}

/** The deadline on this machine's clock: `received` plus the seconds the server said were left. */
export function localDeadline(progress: Pick<AssessmentProgress, 'remainingSeconds'>, received: Date): string {
  return new Date(received.getTime() + progress.remainingSeconds * 1000).toISOString();
}

/**
 * `29:59`, `1:05:00`, `0:00`. Seconds are rounded up, so the display reaches `0:00` exactly
 * when the time is up, not a second early.
 */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/**
 * What a screen reader hears about the time: the countdown itself is not live (it would
 * speak every second), so only these milestones are announced, each once.
 */
export function countdownMilestone(ms: number): string | null {
  if (ms <= 0) return 'Time is up';
  if (ms <= 60_000) return 'One minute left';
  if (ms <= 5 * 60_000) return 'Five minutes left';
  return null;
}

/** A time limit in words: `30 minutes`, `1 hour 30 minutes`, `45 seconds`. */
export function formatTimeLimit(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const parts = [
    ...(hours > 0 ? [`${hours} ${hours === 1 ? 'hour' : 'hours'}`] : []),
    ...(minutes > 0 ? [`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`] : []),
  ];
  return parts.join(' ');
}

/** `Item 3 of 20` while an item is on screen; between items, how many are answered. */
export function assessmentItemLabel(progress: Pick<AssessmentProgress, 'currentPosition' | 'answered' | 'totalItems'>): string {
  if (progress.currentPosition !== null) return `Item ${progress.currentPosition} of ${progress.totalItems}`;
  if (progress.answered >= progress.totalItems) return `All ${progress.totalItems} items answered`;
  return `${progress.answered} of ${progress.totalItems} answered`;
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

/** `14`, `14.5` — partial credit from code items makes halves and tenths. */
export function formatScore(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** 0.7 → `70%`. */
export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 100)}%`;
}

/** `42 s`, `1 min 5 s`, `3 min`. */
export function formatSeconds(seconds: number): string {
  const rounded = Math.round(seconds);
  if (rounded < 60) return `${rounded} s`;
  const minutes = Math.floor(rounded / 60);
  const rest = rounded % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Ability on the logit scale with its uncertainty: `+0.42 ± 0.31`. */
export function formatAbility(estimate: Pick<AbilityEstimate, 'ability' | 'standardError'>): string {
  const sign = estimate.ability > 0 ? '+' : estimate.ability < 0 ? '−' : '';
  return `${sign}${Math.abs(estimate.ability).toFixed(2)} ± ${estimate.standardError.toFixed(2)}`;
}

export type ItemOutcome = 'correct' | 'partial' | 'incorrect' | 'unanswered';

export interface ItemReviewView {
  position: number;
  section: string;
  domain: string;
  kind: AssessmentItemReview['kind'];
  stem: string;
  yourAnswer: string | null;
  correctAnswer: string;
  outcome: ItemOutcome;
  /** `Correct`, `Incorrect`, `Partial credit — 60%`, `Not answered`. */
  creditLabel: string;
  credit: number;
  /** `42 s`, or `—` when unanswered. */
  timeLabel: string;
  /** Code items: `3 of 5 tests passed`. */
  testsLabel: string | null;
  testsNote: string | null;
  /** Code items: every test with its input, expected and actual output, examples first as the item listed them (issue 25). */
  testCases: CodeTestCase[];
}

/**
 * Domains may be paths (`Mathematics > Arithmetic > Addition`): the last part names the
 * domain on a chart axis, the rest is context.
 */
export function splitDomain(domain: string): { label: string; context: string | null } {
  const parts = domain
    .split('>')
    .map((part) => part.trim())
    .filter(Boolean);
  const label = parts.pop() ?? domain;
  return { label, context: parts.length > 0 ? parts.join(' › ') : null };
}

export interface DomainResultView {
  domain: string;
  /** The last part of the domain path, for the chart axis and the table. */
  label: string;
  /** The rest of the path (`Mathematics › Arithmetic`), or null. */
  context: string | null;
  /** `4 / 5`. */
  scoreLabel: string;
  /** 0–100, for the chart. */
  percent: number;
  percentLabel: string;
  abilityLabel: string;
  responses: number;
}

export interface AssessmentResultsView {
  title: string;
  /** `14 / 20 — 70%`. */
  scoreLabel: string;
  percent: number;
  /** `19 of 20 items answered`. */
  answeredLabel: string;
  overallAbilityLabel: string;
  domains: DomainResultView[];
  items: ItemReviewView[];
}

function itemOutcome(item: AssessmentItemReview): ItemOutcome {
  if (item.learnerAnswer === null) return 'unanswered';
  if (item.credit >= 0.999) return 'correct';
  if (item.credit <= 0) return 'incorrect';
  return 'partial';
}

const outcomeLabels: Record<Exclude<ItemOutcome, 'partial'>, string> = {
  correct: 'Correct',
  incorrect: 'Incorrect',
  unanswered: 'Not answered',
};

function toItemView(item: AssessmentItemReview): ItemReviewView {
  const outcome = itemOutcome(item);
  return {
    position: item.position,
    section: item.section,
    domain: item.domain,
    kind: item.kind,
    stem: item.stem,
    yourAnswer: item.learnerAnswer,
    correctAnswer: item.correctAnswer,
    outcome,
    creditLabel: outcome === 'partial' ? `Partial credit — ${formatPercent(item.credit)}` : outcomeLabels[outcome],
    credit: item.credit,
    timeLabel: item.timeSeconds === null ? '—' : formatSeconds(item.timeSeconds),
    testsLabel: item.tests ? `${item.tests.passed} of ${item.tests.total} tests passed` : null,
    testsNote: item.tests?.note ?? null,
    testCases: item.tests?.cases ?? [],
  };
}

/** Everything the results screen shows, worded and in order (items by position). */
export function assessmentResultsView(results: AssessmentResults): AssessmentResultsView {
  // Each item is worth one point, so the maximum score is the assessment's item count —
  // not the items shown, which are fewer when the session ended early.
  const total = results.maxScore;
  return {
    title: results.title,
    scoreLabel: `${formatScore(results.score)} / ${formatScore(results.maxScore)} — ${formatPercent(results.percent)}`,
    percent: Math.round(results.percent * 100),
    answeredLabel: `${results.answered} of ${formatScore(total)} ${total === 1 ? 'item' : 'items'} answered`,
    overallAbilityLabel: formatAbility(results.overall),
    domains: results.domains.map((domain) => {
      const ratio = domain.maxScore > 0 ? domain.score / domain.maxScore : 0;
      return {
        domain: domain.domain,
        ...splitDomain(domain.domain),
        scoreLabel: `${formatScore(domain.score)} / ${formatScore(domain.maxScore)}`,
        percent: Math.round(ratio * 100),
        percentLabel: formatPercent(ratio),
        abilityLabel: formatAbility(domain),
        responses: domain.responses,
      };
    }),
    items: [...results.items].sort((a, b) => a.position - b.position).map(toItemView),
  };
}
