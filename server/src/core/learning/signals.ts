/**
 * The dynamic signals of a learning turn (SPEC §4.4, seed 002 `_compute_pacing_directive` and
 * `_compute_student_style`), recomputed every turn from stored state and given to the tutor.
 * Pure: the thresholds below are the seed's.
 */
import type { LearningTimelineEntry } from './learning-state';

export type PacingDirective = 'turn_1' | 'accelerate' | 'extend' | 'simplify' | 'consolidate' | 'steady';

/** Seed 002 thresholds. */
export const pacingThresholds = {
  /** ACCELERATE at or above this mean mastery (and improving). */
  accelerate: 0.8,
  /** SIMPLIFY below this mean mastery. */
  simplify: 0.4,
  /** CONSOLIDATE within [simplify, consolidateUpTo] with 2+ recent wrong answers. */
  consolidateUpTo: 0.65,
  consolidateWrong: 2,
  /** Judged answers looked at for "recent wrong" and "struggling". */
  recentAnswers: 5,
  /** "Aced": mean mastery at least this when the plan is done (EXTEND). */
  aced: 0.8,
} as const;

export const pacingText: Record<PacingDirective, string> = {
  turn_1: 'TURN 1: keep the opening to 2–3 sentences and ask ONE simple question.',
  accelerate: 'ACCELERATE: the learner is strong and improving — skip ahead where they already know it, minimal scaffolding.',
  extend: 'EXTEND: the plan is done and aced — push into harder territory with a challenge.',
  simplify: 'SIMPLIFY: the learner is struggling — shorter sentences, one or two ideas per reply, concrete examples.',
  consolidate: 'CONSOLIDATE: give a problem at the same level to build confidence before moving on.',
  steady: 'STEADY: one idea at a time.',
};

export interface PacingInput {
  /** The learner turn about to be answered (1 for the first learner message). */
  turn: number;
  /** Mean mastery over the plan's concepts now (0 for a concept without evidence). */
  meanMastery: number;
  /** Whether any concept has evidence yet. */
  anyEvidence: boolean;
  timeline: readonly LearningTimelineEntry[];
  planComplete: boolean;
}

/** The last judged answers (right or wrong), oldest first. */
function recentJudged(timeline: readonly LearningTimelineEntry[]): boolean[] {
  return timeline.filter((entry) => entry.correct !== null).slice(-pacingThresholds.recentAnswers).map((entry) => entry.correct === true);
}

/** Struggling: the last two judged answers were both wrong. */
export function isStruggling(timeline: readonly LearningTimelineEntry[]): boolean {
  const judged = recentJudged(timeline);
  return judged.length >= 2 && judged.slice(-2).every((right) => !right);
}

/** Improving: mean mastery now above what it was three turns ago (or the start), and the last judged answer right. */
export function isImproving(timeline: readonly LearningTimelineEntry[], meanMastery: number): boolean {
  const earlier = timeline.length >= 3 ? timeline[timeline.length - 3]!.meanMastery : 0;
  const judged = recentJudged(timeline);
  return meanMastery > earlier && (judged.length === 0 || judged[judged.length - 1] === true);
}

export function pacingDirective(input: PacingInput): PacingDirective {
  const { turn, meanMastery, anyEvidence, timeline, planComplete } = input;
  if (turn <= 1) return 'turn_1';
  if (planComplete && meanMastery >= pacingThresholds.aced) return 'extend';
  if ((anyEvidence && meanMastery < pacingThresholds.simplify) || isStruggling(timeline)) return 'simplify';
  const wrong = recentJudged(timeline).filter((right) => !right).length;
  if (meanMastery >= pacingThresholds.simplify && meanMastery <= pacingThresholds.consolidateUpTo && wrong >= pacingThresholds.consolidateWrong) return 'consolidate';
  if (meanMastery >= pacingThresholds.accelerate && isImproving(timeline, meanMastery)) return 'accelerate';
  return 'steady';
}

export type StyleLevel = 'quiet' | 'moderate' | 'expressive';

export interface LearnerStyle {
  level: StyleLevel;
  averageWords: number;
  /** Messages getting shorter over the last 4+ messages. */
  disengaged: boolean;
  usesEmoji: boolean;
  asksQuestions: boolean;
  /** How long the tutor's reply should be. */
  replyLength: string;
}

/** Seed 002: QUIET ≤ 5 words a message; EXPRESSIVE above 25; MODERATE between. Over the last 6 messages. */
export const styleThresholds = { quietMaxWords: 5, expressiveMinWords: 25, window: 6, disengagedOver: 4 } as const;

export function wordCount(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/** The learner's style from their messages (oldest first). */
export function learnerStyle(messages: readonly string[]): LearnerStyle {
  const recent = messages.slice(-styleThresholds.window);
  const counts = recent.map(wordCount);
  const averageWords = counts.length ? counts.reduce((sum, count) => sum + count, 0) / counts.length : 0;
  const level: StyleLevel = counts.length === 0 ? 'moderate' : averageWords <= styleThresholds.quietMaxWords ? 'quiet' : averageWords > styleThresholds.expressiveMinWords ? 'expressive' : 'moderate';
  const tail = messages.slice(-styleThresholds.disengagedOver).map(wordCount);
  const disengaged = tail.length >= styleThresholds.disengagedOver && tail.every((count, index) => index === 0 || count < tail[index - 1]!);
  const usesEmoji = recent.some((message) => /\p{Extended_Pictographic}/u.test(message));
  const asksQuestions = recent.some((message) => message.trim().endsWith('?'));
  const replyLength = disengaged
    ? '1–2 short sentences and one quick, inviting question (the learner is drifting away)'
    : level === 'quiet'
      ? '2–3 sentences'
      : level === 'moderate'
        ? '3–5 sentences'
        : 'you may elaborate (up to 7 sentences) — the learner writes at length';
  return { level, averageWords: Math.round(averageWords * 10) / 10, disengaged, usesEmoji, asksQuestions, replyLength };
}

/** How many sentences a reply may have at most, for the offline tutor and for checks. */
export function maxSentences(style: LearnerStyle): number {
  if (style.disengaged) return 2;
  return style.level === 'quiet' ? 3 : style.level === 'moderate' ? 5 : 7;
}
