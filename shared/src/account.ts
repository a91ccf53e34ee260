/**
 * The learner's own account (SPEC §6, §8): change the password, sign out everywhere, export
 * every piece of their data, delete the account. Bodies and the export document.
 */
import { z } from 'zod';
import { Learner } from './rest';

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

const isoDate = z.string();

/** One review of a card, oldest first. */
export const ExportedReview = z.object({
  id: z.string(),
  sessionId: z.string().nullable(),
  rating: z.enum(['again', 'hard', 'good', 'easy']),
  confidence: z.number().nullable(),
  reviewedAt: isoDate,
});

/** A card: the learner's FSRS state for one point, with its review log. */
export const ExportedCard = z.object({
  id: z.string(),
  pointId: z.string(),
  state: z.string(),
  due: isoDate,
  stability: z.number(),
  difficulty: z.number(),
  elapsedDays: z.number(),
  scheduledDays: z.number(),
  reps: z.number(),
  lapses: z.number(),
  lastReview: isoDate.nullable(),
  reviews: z.array(ExportedReview),
});

export const ExportedRecallSet = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  points: z.array(z.object({ id: z.string(), content: z.string(), context: z.string().nullable(), position: z.number(), createdAt: isoDate })),
});

/** A stored message as it is, tool calls and results included; superseded replies are kept and marked. */
export const ExportedMessage = z.object({
  id: z.string(),
  seq: z.number(),
  role: z.enum(['learner', 'tutor', 'tool_result']),
  content: z.string(),
  createdAt: isoDate,
  toolCall: z.object({ id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }).nullable(),
  widgetAnswer: z.unknown().nullable(),
  stopped: z.boolean(),
  supersededBy: z.string().nullable(),
});

export const ExportedSession = z.object({
  id: z.string(),
  type: z.string(),
  status: z.string(),
  title: z.string(),
  recallSetId: z.string().nullable(),
  turn: z.number(),
  endReason: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  endedAt: isoDate.nullable(),
  messages: z.array(ExportedMessage),
});

export const ExportedStudyPlan = z.object({
  id: z.string(),
  title: z.string(),
  shared: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
  plan: z.unknown(),
});

/** `GET /api/me/export`: everything the server keeps about a learner, as one JSON document. */
export const AccountExport = z.object({
  format: z.literal('tutorloop-export'),
  version: z.literal(1),
  exportedAt: isoDate,
  learner: Learner,
  recallSets: z.array(ExportedRecallSet),
  cards: z.array(ExportedCard),
  sessions: z.array(ExportedSession),
  studyPlans: z.array(ExportedStudyPlan),
});
export type AccountExport = z.infer<typeof AccountExport>;
