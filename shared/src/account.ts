/**
 * The learner's own account (SPEC §6, §8): change the password, sign out everywhere, export
 * every piece of their data and restore it into another account, delete the account. Bodies,
 * the export document (a versioned format) and what a restore answers.
 */
import { z } from 'zod';
import { Limits } from './limits';
import { Learner } from './rest';
import { SessionStatus, SessionType } from './session';

/** `POST /api/me/password`: the current password is required; every other token is refused afterwards. */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, 'currentPassword is required').max(1000),
  newPassword: z.string().min(8, 'newPassword must be at least 8 characters').max(200),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** `DELETE /api/me`: the learner types their username to confirm (case as shown, spaces trimmed). */
export const DeleteAccountBody = z.object({
  confirmUsername: z.string().trim().min(1, 'confirmUsername: type your username to confirm').max(200),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

const isoDate = z.string().datetime({ offset: true, message: 'a date and time (ISO 8601)' });
const id = z.string().min(1).max(200);
/** Anything JSON, checked by the server against the schema of the part it belongs to. */
const jsonObject = z.record(z.string(), z.unknown());

/** The export's format name and the version this server writes and restores. */
export const AccountExportFormat = { name: 'tutorloop-export', version: 2 } as const;

/** How large a restored export may be, and how much of each thing it may hold (SPEC §8: bad input changes nothing). */
export const AccountImportLimits = {
  /** Largest export document the restore route accepts, in bytes (the server's default body limit is 1 MiB). */
  maxBytes: 32 * 1024 * 1024,
  maxRecallSets: 2000,
  maxSessions: 20_000,
  maxCards: 200_000,
} as const;

/** One review of a card, oldest first, with the part of the card it was given to. */
export const ExportedReview = z.object({
  id,
  sessionId: id.nullable(),
  rating: z.enum(['again', 'hard', 'good', 'easy']),
  confidence: z.number().nullable(),
  reviewedAt: isoDate,
  previous: z.object({
    state: z.enum(['new', 'learning', 'review', 'relearning']),
    due: isoDate,
    stability: z.number(),
    difficulty: z.number(),
    scheduledDays: z.number(),
  }),
});

/** A card: the learner's FSRS state for one point, with its review log. */
export const ExportedCard = z.object({
  id,
  pointId: id,
  state: z.enum(['new', 'learning', 'review', 'relearning']),
  due: isoDate,
  stability: z.number().min(0),
  difficulty: z.number().min(0),
  elapsedDays: z.number().min(0),
  scheduledDays: z.number().min(0),
  learningSteps: z.number().int().min(0),
  reps: z.number().int().min(0),
  lapses: z.number().int().min(0),
  lastReview: isoDate.nullable(),
  reviews: z.array(ExportedReview),
});

export const ExportedRecallSet = z.object({
  id,
  name: z.string().min(1).max(Limits.setNameMaxLength),
  description: z.string().max(Limits.setDescriptionMaxLength).nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  // The limits a set has however it was made (SPEC §8), so a restore cannot smuggle in more.
  points: z
    .array(
      z.object({
        id,
        content: z.string().min(1).max(Limits.pointContentMaxLength),
        context: z.string().max(Limits.pointContextMaxLength).nullable(),
        position: z.number().int().min(0),
        createdAt: isoDate,
      }),
    )
    .max(Limits.pointsPerSetMax),
});

/** A stored message as it is, tool calls and results included; superseded replies are kept and marked. */
export const ExportedMessage = z.object({
  id,
  seq: z.number().int().min(1),
  role: z.enum(['learner', 'tutor', 'tool_result']),
  content: z.string(),
  createdAt: isoDate,
  toolCall: z.object({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }).nullable(),
  toolCallId: z.string().nullable(),
  widgetAnswer: z.object({ widgetId: z.string(), response: jsonObject }).nullable(),
  clientMessageId: z.string().nullable(),
  answeredAt: isoDate.nullable(),
  stopped: z.boolean(),
  supersededBy: id.nullable(),
});

/** One point of a recall session's (or drill's) checklist. */
export const ExportedChecklistEntry = z.object({
  pointId: id,
  status: z.enum(['pending', 'recalled']),
  confidence: z.number().nullable(),
  turnRecalled: z.number().int().min(0).nullable(),
  recalledAt: isoDate.nullable(),
});

/** A widget the tutor handed the learner, answered, cancelled or still waiting. */
export const ExportedPendingAction = z.object({
  id,
  toolCallId: z.string(),
  kind: z.string(),
  props: jsonObject,
  status: z.enum(['pending', 'answered', 'cancelled']),
  createdAt: isoDate,
});

/** A generated assessment (or practice) item with what scores it. */
export const ExportedItem = z.object({
  id,
  position: z.number().int().min(0),
  widgetId: id,
  presentedAt: isoDate,
  item: z.looseObject({
    skillId: z.string(),
    domain: z.string(),
    sectionId: z.string(),
    kind: z.string(),
    stem: z.string(),
    correctAnswer: z.string(),
    difficulty: z.number(),
    level: z.string(),
    params: jsonObject,
    fingerprint: z.string(),
  }),
});

/** A scored answer to an item. */
export const ExportedResponse = z.object({
  itemId: id,
  answerText: z.string(),
  credit: z.number().min(0).max(1),
  testsPassed: z.number().int().min(0).nullable(),
  testsTotal: z.number().int().min(0).nullable(),
  note: z.string().nullable(),
  testOutcomes: z.array(z.object({ passed: z.boolean(), actual: z.string().nullable(), error: z.string().optional() })).optional(),
  responseSeconds: z.number().min(0),
  answeredAt: isoDate,
});

/** An ability estimate of an assessment: a domain, or `*` for the overall one. */
export const ExportedAbility = z.object({
  domain: z.string(),
  ability: z.number(),
  standardError: z.number().min(0),
  responses: z.number().int().min(0),
  updatedAt: isoDate,
});

/** One question's answer in a survey session (`answer` null: skipped). */
export const ExportedSurveyResponse = z.object({
  id,
  surveyId: id,
  questionId: z.string(),
  answer: jsonObject.nullable(),
  answerText: z.string().nullable(),
  answeredAt: isoDate,
});

/**
 * A session with everything of it. `typeState` is the session type's own state, checked on
 * restore by that type's schema on the server (the session-type catalog).
 */
export const ExportedSession = z.object({
  id,
  type: SessionType,
  status: SessionStatus,
  title: z.string(),
  recallSetId: id.nullable(),
  turn: z.number().int().min(0),
  endReason: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  endedAt: isoDate.nullable(),
  typeState: jsonObject,
  checklist: z.array(ExportedChecklistEntry),
  messages: z.array(ExportedMessage),
  pendingActions: z.array(ExportedPendingAction),
  items: z.array(ExportedItem),
  responses: z.array(ExportedResponse),
  abilities: z.array(ExportedAbility),
  surveyResponses: z.array(ExportedSurveyResponse),
});

export const ExportedStudyPlan = z.object({
  id,
  title: z.string(),
  shared: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
  plan: jsonObject,
});

/** A survey the learner wrote (built-in surveys are the server's, not exported). */
export const ExportedSurvey = z.object({
  id,
  title: z.string(),
  shared: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
  survey: jsonObject,
});

/**
 * `GET /api/me/export`: everything the server keeps about a learner, as one JSON document that
 * `POST /api/me/import` restores into another account. Ids are the exporting server's; a
 * restore gives everything new ids and rewrites every reference.
 */
export const AccountExport = z.object({
  format: z.literal(AccountExportFormat.name),
  version: z.literal(AccountExportFormat.version),
  exportedAt: isoDate,
  learner: Learner,
  settings: z.object({ desiredRetention: z.number().min(0.7).max(0.99) }),
  recallSets: z.array(ExportedRecallSet).max(AccountImportLimits.maxRecallSets),
  cards: z.array(ExportedCard).max(AccountImportLimits.maxCards),
  sessions: z.array(ExportedSession).max(AccountImportLimits.maxSessions),
  studyPlans: z.array(ExportedStudyPlan),
  surveys: z.array(ExportedSurvey),
});
export type AccountExport = z.infer<typeof AccountExport>;

/** What a restore added to the account. */
export const AccountImportResult = z.object({
  recallSets: z.number().int().min(0),
  points: z.number().int().min(0),
  cards: z.number().int().min(0),
  reviews: z.number().int().min(0),
  sessions: z.number().int().min(0),
  studyPlans: z.number().int().min(0),
  surveys: z.number().int().min(0),
});
export type AccountImportResult = z.infer<typeof AccountImportResult>;
