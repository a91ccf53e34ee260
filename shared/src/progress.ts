import { z } from 'zod';
import { AbilityEstimate } from './assessment';
import { MasteryLevel } from './learning';
import { SessionListItem } from './rest';
import { SessionStatus, SessionType } from './session';

/**
 * The learner's progress API (SPEC §6): session history, aggregate stats, the scorecard and
 * the light concept map. Every figure is the requesting learner's own; the stats count days in
 * the time zone the client names (UTC by default), history's date filters in UTC days
 * (learners have no time-zone setting yet), and "now" is the server's clock.
 */

/** Days over which true retention is measured (stats `retention.windowDays`). */
export const retentionWindowDays = 30;

/** Days in the stats' activity series (`activity`, today the last). */
export const activityDays = 30;

/** Most history rows one page may hold. */
export const historyPageMaxLimit = 100;

const dateMessage = 'must be an ISO date (2026-01-05) or date-time (2026-01-05T09:00:00Z)';

/** An ISO date (`2026-01-05`, a whole UTC day) or date-time with a zone (`2026-01-05T09:00:00Z`). */
export const DateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: dateMessage });
export type DateOrDateTime = z.infer<typeof DateOrDateTime>;

/**
 * Query of `GET /api/sessions/history`. Sessions come newest first (by creation, ties by id);
 * `from` and `to` bound the creation time, both inclusive — a date alone means the whole UTC
 * day (`to=2026-01-05` takes in all of the 5th). `cursor` is the `nextCursor` of the page
 * before, opaque; it keeps working when sessions are added meanwhile (they sort before it).
 */
export const SessionHistoryQuery = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(historyPageMaxLimit).default(20),
  type: SessionType.optional(),
  status: SessionStatus.optional(),
  from: DateOrDateTime.optional(),
  to: DateOrDateTime.optional(),
});
export type SessionHistoryQuery = z.infer<typeof SessionHistoryQuery>;

/** One row of the history: a session list item with its length. */
export const SessionHistoryItem = SessionListItem.extend({
  /** Learner turns taken. */
  turns: z.number().int().min(0),
  /** From creation to its end (or, while open, its last change), in whole seconds. */
  durationSeconds: z.number().int().min(0),
});
export type SessionHistoryItem = z.infer<typeof SessionHistoryItem>;

/** `GET /api/sessions/history`: one page, and the cursor of the next (null on the last page). */
export const SessionHistory = z.object({
  sessions: z.array(SessionHistoryItem),
  nextCursor: z.string().nullable(),
});
export type SessionHistory = z.infer<typeof SessionHistory>;

/** Sessions of one type: how many, how many completed, and their minutes. */
export const SessionTypeStats = z.object({
  type: SessionType,
  sessions: z.number().int().min(0),
  completed: z.number().int().min(0),
  /** Sum of the sessions' durations (creation to end, or to the last change while open), in minutes to 0.1. */
  minutes: z.number().min(0),
});
export type SessionTypeStats = z.infer<typeof SessionTypeStats>;

/** One day of the stats' activity series (a calendar day of the stats' time zone). */
export const ActivityDay = z.object({
  /** `YYYY-MM-DD` in the stats' time zone. */
  day: z.iso.date(),
  reviews: z.number().int().min(0),
  sessions: z.number().int().min(0),
  /** Minutes of the sessions begun that day, to 0.1. */
  minutes: z.number().min(0),
});
export type ActivityDay = z.infer<typeof ActivityDay>;

/** Whether this runtime knows the zone (an IANA name such as `Europe/Paris`, or `UTC`). */
function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Query of `GET /api/sessions/stats`: the time zone whose calendar days count (the web client
 * sends the browser's); UTC when absent.
 */
export const ProgressStatsQuery = z.object({
  timeZone: z.string().min(1).max(64).refine(knownTimeZone, { error: 'must be an IANA time zone such as Europe/Paris' }).default('UTC'),
});
export type ProgressStatsQuery = z.infer<typeof ProgressStatsQuery>;

/**
 * `GET /api/sessions/stats`. Due counts use the one definition of due (SPEC §4.1): a point is
 * due when never reviewed (new) or when its FSRS due date has passed.
 */
export const ProgressStats = z.object({
  /** The server time the figures were computed at (ISO). */
  asOf: z.string(),
  /** The zone whose calendar days "today", the week, streaks and the activity count in. */
  timeZone: z.string(),
  sessions: z.object({
    total: z.number().int().min(0),
    minutes: z.number().min(0),
    /** Every session type, in the order of the shared enum, zero when unused. */
    byType: z.array(SessionTypeStats),
  }),
  /** Checklist points recalled across the learner's recall sessions (a point recalled in two sessions counts twice). */
  pointsRecalled: z.number().int().min(0),
  reviews: z.object({
    /** Reviews in the learner's review log, all time. */
    done: z.number().int().min(0),
    /** Points due now (new included): what sessions started now would review. */
    dueNow: z.number().int().min(0),
    /** Points that will be due by the end of today. */
    dueToday: z.number().int().min(0),
    /** Points that will be due by the end of the 7 days from today (today included). */
    dueNext7Days: z.number().int().min(0),
    /** Points never reviewed (counted in every due figure). */
    newPoints: z.number().int().min(0),
    /**
     * Reviewed points whose probability of recall now (FSRS retrievability, under the learner's
     * own parameters) is below their desired retention: the ones slipping, due or not.
     */
    belowDesiredRetention: z.number().int().min(0),
  }),
  /**
   * True retention: of the reviews in the last `windowDays` days of cards that were in the
   * review state (not new, learning or relearning), the share not rated Again. Null without
   * such reviews.
   */
  retention: z.object({
    windowDays: z.number().int().min(1),
    reviews: z.number().int().min(0),
    passed: z.number().int().min(0),
    rate: z.number().min(0).max(1).nullable(),
    /** The learner's desired retention (Settings), the rate the scheduler aims at. */
    desired: z.number().min(0).max(1),
  }),
  /**
   * Consecutive days with at least one review. `current` counts back from today, or from
   * yesterday while today has no review yet (the streak is still alive until today ends).
   */
  streak: z.object({
    current: z.number().int().min(0),
    longest: z.number().int().min(0),
    /** The last day with a review (`YYYY-MM-DD`), or null. */
    lastReviewDay: z.string().nullable(),
  }),
  /**
   * The last `activityDays` days, oldest first and today last, every day present (zero
   * when idle): reviews logged that day, sessions begun that day and their minutes.
   */
  activity: z.array(ActivityDay),
});
export type ProgressStats = z.infer<typeof ProgressStats>;

/** One recall set of the scorecard. */
export const RecallSetScore = z.object({
  recallSetId: z.string(),
  name: z.string(),
  pointCount: z.number().int().min(0),
  /** Points reviewed at least once. */
  reviewedPoints: z.number().int().min(0),
  /** Points due now (new included). */
  dueNow: z.number().int().min(0),
  /** Reviews of the set's points, all time, and how many were not rated Again. */
  reviews: z.number().int().min(0),
  recalled: z.number().int().min(0),
  /** `recalled / reviews`; null before the first review. */
  recallRate: z.number().min(0).max(1).nullable(),
  /** Mean FSRS stability (days) of the reviewed points; null before the first review. */
  meanStability: z.number().min(0).nullable(),
});
export type RecallSetScore = z.infer<typeof RecallSetScore>;

/** A concept's mastery: 0–1 (null without evidence) and its level (SPEC §4.4). */
export const ConceptMastery = z.object({
  mastery: z.number().min(0).max(1).nullable(),
  level: MasteryLevel,
});
export type ConceptMastery = z.infer<typeof ConceptMastery>;

/**
 * One study plan of the scorecard. A concept's mastery is the one of the learner's most recent
 * session of the plan that has evidence for it (each session starts from no evidence).
 */
export const StudyPlanScore = z.object({
  studyPlanId: z.string(),
  title: z.string(),
  sessions: z.number().int().min(0),
  /** The plan was completed in at least one session. */
  completed: z.boolean(),
  /** When the most recent session of the plan began (ISO). */
  lastStudiedAt: z.string(),
  /** Mean over the plan's concepts, a concept without evidence counting 0. */
  meanMastery: z.number().min(0).max(1),
  /** The plan's concepts (as its most recent session has them), in plan order. */
  concepts: z.array(ConceptMastery.extend({ concept: z.string() })),
});
export type StudyPlanScore = z.infer<typeof StudyPlanScore>;

/**
 * One assessment blueprint of the scorecard: ended attempts only (a running assessment shows
 * no score, SPEC §4.3). Abilities are those of the most recent ended attempt.
 */
export const AssessmentScore = z.object({
  blueprintId: z.string(),
  title: z.string(),
  attempts: z.number().int().min(1),
  best: z.object({
    sessionId: z.string(),
    /** Sum of credit, to 0.01. */
    score: z.number().min(0),
    maxScore: z.number().min(0),
    /** score / maxScore, 0–1. */
    percent: z.number().min(0).max(1),
    endedAt: z.string(),
  }),
  abilities: z.object({
    sessionId: z.string(),
    overall: AbilityEstimate.nullable(),
    domains: z.array(AbilityEstimate.extend({ domain: z.string() })),
  }),
});
export type AssessmentScore = z.infer<typeof AssessmentScore>;

/** `GET /api/sessions/scorecard`. */
export const Scorecard = z.object({
  asOf: z.string(),
  recallSets: z.array(RecallSetScore),
  studyPlans: z.array(StudyPlanScore),
  assessments: z.array(AssessmentScore),
});
export type Scorecard = z.infer<typeof Scorecard>;

/**
 * `GET /api/sessions/subtopic-progress`: concept → mastery and level, over every study plan the
 * learner studied. A concept named by several plans takes its most recent evidence.
 */
export const SubtopicProgress = z.object({
  asOf: z.string(),
  concepts: z.record(z.string(), ConceptMastery.extend({ studyPlanIds: z.array(z.string()) })),
});
export type SubtopicProgress = z.infer<typeof SubtopicProgress>;
