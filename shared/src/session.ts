import { z } from 'zod';
import { AssessmentProgress, AssessmentResults } from './assessment';
import { ClozeProgress, ClozeSummary } from './cloze';
import { LearningProgress, LearningSummary } from './learning';
import { SurveyProgress, SurveySessionSummary } from './survey';
import { ThoughtProgress, thoughtTopicMaxLength, ThoughtSessionSummary } from './thought';
import { Widget, WidgetAnswer } from './widgets';

/** What `shared/` holds of one session type: one row of `sessionTypeTable`. */
export interface SessionTypeRow {
  /** The fields of its `POST /api/sessions` body beside `type`. */
  readonly create: z.ZodRawShape;
  /** Its part of the session state (`state_update`), sent under the type's own key. */
  readonly progress?: z.ZodType;
  /** Its part of the summary, sent under the type's own key. */
  readonly summary?: z.ZodType;
}

/**
 * Every session type (SPEC §4), one row each: the one list of them in the contract. The
 * session types (`SessionTypes`, `SessionType`), the create body (rest.ts) and the per-type
 * parts of `SessionState` and `SessionSummary` derive from it, in this order.
 */
export const sessionTypeTable = {
  recall: { create: { recallSetId: z.string().min(1) } },
  /** Progress: items answered, the current position and the server's deadline. Summary: score, ability per domain and the per-item review. */
  assessment: { create: { blueprintId: z.string().min(1) }, progress: AssessmentProgress, summary: AssessmentResults },
  /**
   * Progress: the step (n of N), concepts with a coarse mastery level, whether a question is
   * open. Summary: steps covered, mastery per concept, misconceptions met and resolved.
   */
  learning: { create: { studyPlanId: z.string().min(1) }, progress: LearningProgress, summary: LearningSummary },
  /** (SPEC §4.5) Progress: the topic; no checklist, no score. Summary: the summary of the conversation. */
  thought: {
    create: { topic: z.string().trim().min(1, 'is empty').max(thoughtTopicMaxLength).optional() },
    progress: ThoughtProgress,
    summary: ThoughtSessionSummary,
  },
  /** (SPEC §4.5) Progress: question n of N, and whether it may be skipped. Summary: the respondent's own answers. */
  survey: { create: { surveyId: z.string().min(1) }, progress: SurveyProgress, summary: SurveySessionSummary },
  /** (SPEC §4.6) Progress: points done of the total, the try on screen, right answers. Summary: each point's tries and rating. */
  cloze: { create: { recallSetId: z.string().min(1) }, progress: ClozeProgress, summary: ClozeSummary },
} satisfies Record<string, SessionTypeRow>;
type SessionTypeTable = typeof sessionTypeTable;

/** Session types (SPEC §4). */
export const SessionTypes = Object.fromEntries(Object.keys(sessionTypeTable).map((type) => [type, type])) as {
  readonly [K in keyof SessionTypeTable]: K;
};
export const SessionType = z.enum(SessionTypes);
export type SessionType = z.infer<typeof SessionType>;

type TypePart = 'progress' | 'summary';
/** `{ [type]: its part, optional }` for every type that has `part`. */
type TypeParts<P extends TypePart> = {
  [K in keyof SessionTypeTable as SessionTypeTable[K] extends Record<P, z.ZodType> ? K : never]: SessionTypeTable[K] extends Record<P, infer S extends z.ZodType>
    ? z.ZodOptional<S>
    : never;
};
function typeParts<P extends TypePart>(part: P): TypeParts<P> {
  const parts: Record<string, z.ZodType> = {};
  for (const [type, row] of Object.entries(sessionTypeTable) as [string, SessionTypeRow][]) {
    const schema = row[part];
    if (schema) parts[type] = schema.optional();
  }
  return parts as TypeParts<P>;
}

/** Session statuses (SPEC §4): pending → active ⇄ awaiting_client_action → completed | abandoned. */
export const SessionStatuses = {
  pending: 'pending',
  active: 'active',
  awaitingClientAction: 'awaiting_client_action',
  completed: 'completed',
  abandoned: 'abandoned',
} as const;
export const SessionStatus = z.enum(['pending', 'active', 'awaiting_client_action', 'completed', 'abandoned']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Recall session modes (SPEC §4.1). */
export const SessionMode = z.enum(['recall', 'rabbithole']);
export type SessionMode = z.infer<typeof SessionMode>;

const stateBase = {
  sessionId: z.string(),
  type: SessionType,
  mode: SessionMode,
  /** Number of learner turns taken so far. */
  turn: z.number().int().min(0),
  /** Checklist points recalled so far (recall sessions) or items answered (assessments). */
  recalledCount: z.number().int().min(0),
  /** Size of the checklist (recall sessions) or number of items (assessments). */
  totalPoints: z.number().int().min(0),
  /** The rabbit-hole topic while mode is `rabbithole`. */
  rabbitholeTopic: z.string().optional(),
  /** Title shown to the learner (the recall set's name, or the assessment's title). */
  title: z.string().optional(),
  /**
   * Recall sessions: nothing in the set was due when the session began, so every point is
   * reviewed ahead of schedule (SPEC §4.1). Clients tell the learner so.
   */
  earlyReview: z.boolean().optional(),
  /** Each type's own progress under its key (`sessionTypeTable`'s `progress`). */
  ...typeParts('progress'),
};

/**
 * What the learner may know about a session: never point contents that are still
 * unchecked, confidences or correct answers (SPEC §5). A union keyed on `status`.
 */
export const SessionState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), ...stateBase }),
  z.object({ status: z.literal('active'), ...stateBase }),
  z.object({ status: z.literal('awaiting_client_action'), ...stateBase, pendingWidget: Widget }),
  z.object({ status: z.literal('completed'), ...stateBase, endedAt: z.string() }),
  z.object({ status: z.literal('abandoned'), ...stateBase, endedAt: z.string() }),
]);
export type SessionState = z.infer<typeof SessionState>;

/** A message of the visible conversation, as restored by `history` and the replay endpoint. */
export const HistoryMessage = z.object({
  id: z.string(),
  role: z.enum(['learner', 'tutor']),
  content: z.string(),
  createdAt: z.string(),
  /** On a learner message: the id the client sent it with, so an outbox can tell it arrived. */
  clientMessageId: z.string().optional(),
  /** Present on a tutor message that handed the learner a widget. */
  widget: Widget.optional(),
  /** Present on a learner message that answered a widget. */
  widgetAnswer: z.object({ widgetId: z.string(), response: WidgetAnswer }).optional(),
  /** Present on a tutor reply the learner stopped: its text is what was sent before the stop (SPEC §5). */
  stopped: z.literal(true).optional(),
});
export type HistoryMessage = z.infer<typeof HistoryMessage>;

/** The summary sent with `session_complete` and by `GET /api/sessions/{id}/summary`. */
export const SessionSummary = z.object({
  sessionId: z.string(),
  type: SessionType,
  status: z.enum(['completed', 'abandoned']),
  /** Why the session ended. */
  reason: z.enum(['all_recalled', 'all_answered', 'plan_completed', 'ended_by_learner', 'time_expired', 'deleted']),
  turns: z.number().int().min(0),
  recalledCount: z.number().int().min(0),
  totalPoints: z.number().int().min(0),
  durationSeconds: z.number().min(0),
  /** Points of the checklist with their outcome; contents are safe to show once the session is over. */
  points: z.array(
    z.object({
      id: z.string(),
      content: z.string(),
      recalled: z.boolean(),
      /** When this point is next due for review (ISO), if scheduled. */
      nextDue: z.string().optional(),
    }),
  ),
  /** Each type's own results under its key (`sessionTypeTable`'s `summary`). */
  ...typeParts('summary'),
});
export type SessionSummary = z.infer<typeof SessionSummary>;
