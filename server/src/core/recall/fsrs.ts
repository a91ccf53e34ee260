/**
 * FSRS scheduling with ts-fsrs (SPEC §4.1). Pure: time is always passed in.
 *
 * Confidence → rating (the evaluator's confidence that a point was recalled):
 *   confidence ≥ 0.9  → Easy   (recalled fully and precisely)
 *   confidence ≥ 0.6  → Good   (recalled)
 *   otherwise         → Hard   (recalled, but vaguely or with effort)
 *   never recalled by the end of the session → Again
 * ts-fsrs `Rating`/`State` are converted to our string unions here and nowhere else.
 */
import { createEmptyCard, fsrs, generatorParameters, Rating, State, type Card, type Grade } from 'ts-fsrs';
import type { CardState } from '@tutorloop/shared';

export const RatingNames = { again: 'again', hard: 'hard', good: 'good', easy: 'easy' } as const;
export type RatingName = (typeof RatingNames)[keyof typeof RatingNames];

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

export const confidenceThresholds = { easy: 0.9, good: 0.6 } as const;

/** The documented mapping from evaluator confidence to an FSRS rating. */
export function ratingForConfidence(confidence: number): Exclude<RatingName, 'again'> {
  if (confidence >= confidenceThresholds.easy) return 'easy';
  if (confidence >= confidenceThresholds.good) return 'good';
  return 'hard';
}

const stateToName: Record<State, CardState> = {
  [State.New]: 'new',
  [State.Learning]: 'learning',
  [State.Review]: 'review',
  [State.Relearning]: 'relearning',
};
const nameToState: Record<CardState, State> = { new: State.New, learning: State.Learning, review: State.Review, relearning: State.Relearning };
const ratingToGrade: Record<RatingName, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };

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

/** Reviews a card at `now` with `rating`, for a learner whose desired retention is `retention`. */
export function reviewCard(card: CardRecord, rating: RatingName, now: Date, retention = 0.9): ReviewOutcome {
  const scheduler = fsrs(generatorParameters({ enable_fuzz: false, request_retention: retention }));
  const result = scheduler.next(toFsrs(card), now, ratingToGrade[rating]);
  return { card: fromFsrs(result.card), previous: card, rating };
}

/** A point is due when it has no card yet or its card's due date has passed. */
export function isDue(card: CardRecord | null, now: Date): boolean {
  return card === null || card.due.getTime() <= now.getTime();
}
