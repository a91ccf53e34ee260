/**
 * FSRS scheduling with ts-fsrs (SPEC §4.1): cards, reviews, replays and retrievability, for
 * every session type that reviews points (recall, cloze) and for the scheduler's views. Pure:
 * time is always passed in. How a recall conversation's evidence becomes a grade is recall's
 * own rule (core/recall/recall-rating.ts).
 *
 * Same-day learning steps are off (`enable_short_term: false`): a conversation has no
 * "come back in 10 minutes" — the session itself re-cues a missed point (cloze, then
 * multiple choice) until it is recalled or the session ends, which is the in-session
 * learning step. A 10-minute step would only make a just-reviewed point show as due right
 * after the session. Every review is therefore scheduled in whole days (≥ 1).
 *
 * ts-fsrs `Rating`/`State` are converted to our string unions here and nowhere else.
 */
import { createEmptyCard, default_w, fsrs, generatorParameters, Rating, State, type Card, type Grade } from 'ts-fsrs';
import type { CardState } from '@tutorloop/shared';
import type { CardRecord, RatingName } from '../storage/cards';
import type { HistoryReview } from '../storage/scheduler-runs';

// The stored shapes are the storage port's (it knows no session type); FSRS works on them.
export type { CardRecord, HistoryReview, RatingName };

export const RatingNames = { again: 'again', hard: 'hard', good: 'good', easy: 'easy' } as const satisfies { [K in RatingName]: K };

const stateToName: Record<State, CardState> = {
  [State.New]: 'new',
  [State.Learning]: 'learning',
  [State.Review]: 'review',
  [State.Relearning]: 'relearning',
};
const nameToState: Record<CardState, State> = { new: State.New, learning: State.Learning, review: State.Review, relearning: State.Relearning };
const ratingToGrade: Record<RatingName, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };

/** FSRS's rating number (1 Again … 4 Easy), as optimisers and review-log exports use it. */
export function ratingNumber(rating: RatingName): 1 | 2 | 3 | 4 {
  return ratingToGrade[rating] as 1 | 2 | 3 | 4;
}

function fromFsrs(card: Card): CardRecord {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: stateToName[card.state],
    lastReview: card.last_review ?? null,
  };
}

function toFsrs(card: CardRecord): Card {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsed_days: card.elapsedDays,
    scheduled_days: card.scheduledDays,
    learning_steps: card.learningSteps,
    reps: card.reps,
    lapses: card.lapses,
    state: nameToState[card.state],
    ...(card.lastReview ? { last_review: card.lastReview } : {}),
  };
}

/** FSRS-6's default parameters (21 weights), used until a learner's own are optimised. */
export const defaultWeights: readonly number[] = Object.freeze([...default_w]);

/** What a learner's schedule depends on: their desired retention and FSRS parameters. */
export interface SchedulerSettings {
  /** Desired retention, 0–1. */
  retention: number;
  /** The learner's optimised FSRS-6 weights; the defaults when null. */
  weights: readonly number[] | null;
}

export const defaultSchedulerSettings: SchedulerSettings = Object.freeze({ retention: 0.9, weights: null });

/**
 * ts-fsrs schedulers by settings: building one per review made rescheduling a learner's
 * cards after an optimisation ~6× slower (bench/README.md). A learner's settings change
 * rarely, so a small cache of the most recent ones is enough.
 */
const schedulers = new Map<string, ReturnType<typeof fsrs>>();
const schedulerCacheSize = 64;

function scheduler(settings: SchedulerSettings) {
  const key = `${settings.retention}|${settings.weights ? settings.weights.join(',') : 'default'}`;
  const cached = schedulers.get(key);
  if (cached) return cached;
  const built = fsrs(
    generatorParameters({
      enable_fuzz: false,
      enable_short_term: false,
      request_retention: settings.retention,
      ...(settings.weights ? { w: [...settings.weights] } : {}),
    }),
  );
  if (schedulers.size >= schedulerCacheSize) schedulers.delete(schedulers.keys().next().value!);
  schedulers.set(key, built);
  return built;
}

/** A card never reviewed, due now. */
export function newCard(now: Date): CardRecord {
  return fromFsrs(createEmptyCard(now));
}

export interface ReviewOutcome {
  card: CardRecord;
  /** The card as it was before the review (what the review log records). */
  previous: CardRecord;
  rating: RatingName;
}

/**
 * Reviews a card at `now` with `rating`. An early review (before the card is due) needs no
 * special case: FSRS takes the days actually elapsed since the last review, so a recall
 * while memory is still fresh raises stability only a little, and the next interval counts
 * from today.
 */
export function reviewCard(card: CardRecord, rating: RatingName, now: Date, settings: SchedulerSettings = defaultSchedulerSettings): ReviewOutcome {
  const result = scheduler(settings).next(toFsrs(card), now, ratingToGrade[rating]);
  return { card: fromFsrs(result.card), previous: card, rating };
}

/**
 * The card a history of reviews gives under `settings`: replayed from a new card, oldest
 * review first. Rescheduling after an optimisation uses it, so a card's state is always what
 * its own history says under the learner's current parameters.
 */
export function replayHistory(reviews: readonly HistoryReview[], settings: SchedulerSettings): CardRecord | null {
  const ordered = [...reviews].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  const first = ordered[0];
  if (!first) return null;
  let card = newCard(first.reviewedAt);
  for (const review of ordered) card = reviewCard(card, review.rating, review.reviewedAt, settings).card;
  return card;
}

/**
 * The one definition of what a point needs (SPEC §4.1), used by sessions, every endpoint and
 * every view: `new` — never reviewed (no card, or a card in state New), and due now;
 * `due` — reviewed, and FSRS due ≤ now; `scheduled` — reviewed, due later.
 * "Due" counts are `new` + `due` (SPEC §4.1: "FSRS due ≤ now, or new").
 */
export type PointStatus = 'new' | 'due' | 'scheduled';

export function pointStatus(card: Pick<CardRecord, 'state' | 'due'> | null, now: Date): PointStatus {
  if (!card || card.state === 'new') return 'new';
  return card.due.getTime() <= now.getTime() ? 'due' : 'scheduled';
}

/** A point is due when it was never reviewed or its card's due date has passed. */
export function isDue(card: Pick<CardRecord, 'state' | 'due'> | null, now: Date): boolean {
  return pointStatus(card, now) !== 'scheduled';
}

/**
 * The probability that the learner recalls the point at `now` (FSRS retrievability), under
 * their parameters; null for a point never reviewed (there is no memory to forget yet).
 */
export function retrievability(card: CardRecord | null, now: Date, settings: SchedulerSettings = defaultSchedulerSettings): number | null {
  if (!card || card.state === 'new' || !card.lastReview) return null;
  const value = scheduler(settings).get_retrievability(toFsrs(card), now, false);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;
}
