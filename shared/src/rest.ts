import { z } from 'zod';
import { CodeRunErrorKind, CodeTestCase } from './assessment';
import { Limits } from './limits';
import { ProviderName } from './providers';
import { CodeLanguage } from './widgets';
import { HistoryMessage, SessionMode, SessionState, SessionStatus, SessionSummary, SessionType, SessionTypes, sessionTypeTable } from './session';

// ---------------------------------------------------------------------------
// Auth (SPEC §6)
// ---------------------------------------------------------------------------

/** Body of `POST /api/auth/register` and `POST /api/auth/login`. */
export const Credentials = z.object({
  username: z
    .string()
    .trim()
    .min(3, 'username must be at least 3 characters')
    .max(32, 'username must be at most 32 characters')
    .regex(/^[A-Za-z0-9_.-]+$/, 'username may contain letters, digits, "_", "." and "-"'),
  password: z.string().min(8, 'password must be at least 8 characters').max(200),
});
export type Credentials = z.infer<typeof Credentials>;

/**
 * A login attempt. Only the shape is checked: the sign-up policy (lengths, characters) is
 * not, so a password too short to have been registered fails as any wrong password does
 * (401), telling an attacker nothing about the policy.
 */
export const LoginCredentials = z.object({
  username: z.string().trim().max(200),
  password: z.string().max(1000),
});
export type LoginCredentials = z.infer<typeof LoginCredentials>;

/** A learner as shown to themselves. */
export const Learner = z.object({
  id: z.string(),
  username: z.string(),
  createdAt: z.string(),
  /** FSRS desired retention (0.7–0.99). */
  desiredRetention: z.number(),
});
export type Learner = z.infer<typeof Learner>;

/** Response of register and login. */
export const AuthResponse = z.object({ token: z.string(), learner: Learner });
export type AuthResponse = z.infer<typeof AuthResponse>;

/** Response of `GET /api/me` and `PATCH /api/me`. */
export const LearnerResponse = z.object({ learner: Learner });
export type LearnerResponse = z.infer<typeof LearnerResponse>;

/** Body of `PATCH /api/me`. */
export const UpdateLearnerBody = z.object({
  desiredRetention: z.number().min(0.7).max(0.99),
});
export type UpdateLearnerBody = z.infer<typeof UpdateLearnerBody>;

// ---------------------------------------------------------------------------
// Recall sets (SPEC §6)
// ---------------------------------------------------------------------------

/** A point as written by an author. */
export const RecallPointInput = z.object({
  /** Present when editing an existing point, so its schedule is kept. */
  id: z.string().optional(),
  content: z.string().trim().min(1, 'point content is empty').max(Limits.pointContentMaxLength),
  context: z.string().trim().max(Limits.pointContextMaxLength).optional(),
});
export type RecallPointInput = z.infer<typeof RecallPointInput>;

/** Body of `POST /api/recall-sets`. */
export const CreateRecallSetBody = z.object({
  name: z.string().trim().min(1, 'name is empty').max(Limits.setNameMaxLength),
  description: z.string().trim().max(Limits.setDescriptionMaxLength).optional(),
  points: z.array(RecallPointInput.omit({ id: true })).max(Limits.pointsPerSetMax).default([]),
});
export type CreateRecallSetBody = z.input<typeof CreateRecallSetBody>;

/** Body of `PUT /api/recall-sets/{id}`: every field optional; `points` replaces the list. */
export const UpdateRecallSetBody = z.object({
  name: z.string().trim().min(1, 'name is empty').max(Limits.setNameMaxLength).optional(),
  description: z.string().trim().max(Limits.setDescriptionMaxLength).optional(),
  points: z.array(RecallPointInput).max(Limits.pointsPerSetMax).optional(),
});
export type UpdateRecallSetBody = z.infer<typeof UpdateRecallSetBody>;

/** Body of `POST /api/recall-sets/import`: Markdown or CSV text becomes a new set. */
export const ImportRecallSetBody = z.object({
  format: z.enum(['markdown', 'csv']),
  text: z.string().min(1, 'text is empty').max(Limits.importTextMaxLength),
  /** Overrides the name found in the text (a Markdown heading). */
  name: z.string().trim().min(1).max(Limits.setNameMaxLength).optional(),
});
export type ImportRecallSetBody = z.infer<typeof ImportRecallSetBody>;

/** A recall point as stored. */
export const RecallPoint = z.object({
  id: z.string(),
  content: z.string(),
  context: z.string().nullable(),
  position: z.number().int(),
});
export type RecallPoint = z.infer<typeof RecallPoint>;

/** One row of `GET /api/recall-sets`. */
export const RecallSetSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  pointCount: z.number().int(),
  /** Points due now for this learner: never reviewed, or FSRS due ≤ now. */
  dueCount: z.number().int(),
  /** Points never reviewed. */
  newCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RecallSetSummary = z.infer<typeof RecallSetSummary>;

/** `GET /api/recall-sets/{id}`. */
export const RecallSetDetail = RecallSetSummary.extend({ points: z.array(RecallPoint) });
export type RecallSetDetail = z.infer<typeof RecallSetDetail>;

export const RecallSetList = z.object({ recallSets: z.array(RecallSetSummary) });
export type RecallSetList = z.infer<typeof RecallSetList>;

// ---------------------------------------------------------------------------
// Cards (FSRS state per learner × point)
// ---------------------------------------------------------------------------

/** FSRS card states, as ts-fsrs names them, converted at the boundary. */
export const CardState = z.enum(['new', 'learning', 'review', 'relearning']);
export type CardState = z.infer<typeof CardState>;

/**
 * What a point needs now — one definition for every view and endpoint (SPEC §4.1): `new`
 * (never reviewed; due now), `due` (reviewed, FSRS due ≤ now), `scheduled` (due later).
 * A set's `dueCount` counts `new` + `due`; its `newCount` counts `new`.
 */
export const PointStatus = z.enum(['new', 'due', 'scheduled']);
export type PointStatus = z.infer<typeof PointStatus>;

/** One row of `GET /api/cards?recallSetId=`. */
export const CardView = z.object({
  pointId: z.string(),
  content: z.string(),
  due: z.string(),
  stability: z.number(),
  difficulty: z.number(),
  reps: z.number().int(),
  lapses: z.number().int(),
  state: CardState,
  lastReview: z.string().nullable(),
  /** As of the server's clock when answering (`asOf` of the list). */
  status: PointStatus,
  /** Predicted probability of recall now under the learner's FSRS parameters; null when never reviewed. */
  retrievability: z.number().min(0).max(1).nullable(),
});
export type CardView = z.infer<typeof CardView>;
export const CardList = z.object({
  cards: z.array(CardView),
  /** The server time the statuses and retrievabilities were computed at (ISO). */
  asOf: z.string().optional(),
  /** The learner's desired retention (points below it are at risk of being forgotten). */
  desiredRetention: z.number().optional(),
});
export type CardList = z.infer<typeof CardList>;

// ---------------------------------------------------------------------------
// Sessions (SPEC §6)
// ---------------------------------------------------------------------------

/** The create body of each session type: its `type` and its row's `create` fields. */
type CreateBodySchema = {
  [K in SessionType]: z.ZodObject<{ type: z.ZodLiteral<K> } & Extract<(typeof sessionTypeTable)[K]['create'], z.ZodRawShape>, z.core.$strip>;
}[SessionType];
const createBodyOf = (type: SessionType) => z.object({ type: z.literal(type), ...sessionTypeTable[type].create }) as CreateBodySchema;

/** Body of `POST /api/sessions`: one variant per row of `sessionTypeTable`, in its order. */
export const CreateSessionBody = z.discriminatedUnion(
  'type',
  Object.values(SessionTypes).map((type) => createBodyOf(type)) as [CreateBodySchema, ...CreateBodySchema[]],
);
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;
export const CreateSessionResponse = z.object({ sessionId: z.string() });

/** One row of `GET /api/sessions`. */
export const SessionListItem = z.object({
  id: z.string(),
  type: SessionType,
  status: SessionStatus,
  mode: SessionMode,
  title: z.string(),
  recallSetId: z.string().nullable(),
  recalledCount: z.number().int(),
  totalPoints: z.number().int(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
});
export type SessionListItem = z.infer<typeof SessionListItem>;
export const SessionList = z.object({ sessions: z.array(SessionListItem) });

/** `GET /api/sessions/{id}`. */
export const SessionDetail = z.object({ session: SessionListItem, state: SessionState });
export type SessionDetail = z.infer<typeof SessionDetail>;

/** `GET /api/sessions/{id}/replay`: the visible conversation in order. */
export const SessionReplay = z.object({ sessionId: z.string(), messages: z.array(HistoryMessage) });
export type SessionReplay = z.infer<typeof SessionReplay>;

/** Body of `POST /api/sessions/{id}/step`: one learner turn over HTTP. */
export const StepBody = z.object({
  message: z.string().trim().min(1, 'message is empty').max(Limits.chatMessageMaxLength),
  clientMessageId: z.string().min(1).max(Limits.clientMessageIdMaxLength).optional(),
});
export type StepBody = z.infer<typeof StepBody>;

/** Response of `POST /api/sessions/{id}/step`. */
export const StepResponse = z.object({
  /** The tutor's reply, or null when the turn produced none (e.g. the session had ended). */
  reply: z.object({ messageId: z.string(), message: z.string() }).nullable(),
  state: SessionState,
  summary: SessionSummary.nullable(),
});
export type StepResponse = z.infer<typeof StepResponse>;

/**
 * Body of `POST /api/sessions/{id}/items/{widgetId}/run-examples`: the learner's code, run on
 * the pending code item's visible examples only. Not an answer: nothing is stored or scored.
 */
export const RunExamplesBody = z
  .object({
    code: z.string().max(Limits.codeMaxLength),
    language: CodeLanguage,
  })
  .strict();
export type RunExamplesBody = z.infer<typeof RunExamplesBody>;

/** Response of `run-examples`: each visible example with what the code returned. */
export const RunExamplesResponse = z.object({
  examples: z.array(CodeTestCase),
  passed: z.number().int().min(0),
  total: z.number().int().min(0),
  /** Set when the run stopped short or the code could not load (syntax error, no such function, time limit…). */
  error: z.object({ kind: CodeRunErrorKind, message: z.string() }).optional(),
  /** What the code printed, cut at 4 KiB. */
  output: z.string().optional(),
  /** Time spent in the sandbox, in ms. */
  durationMs: z.number().min(0),
});
export type RunExamplesResponse = z.infer<typeof RunExamplesResponse>;

/** `GET /api/sessions/{id}/summary`. */
export const SessionSummaryResponse = z.object({ summary: SessionSummary });

/** `GET /api/health`. */
export const HealthResponse = z.object({
  status: z.literal('ok'),
  /** Which tutor is answering: `offline` means the deterministic local tutor. */
  tutor: ProviderName,
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
