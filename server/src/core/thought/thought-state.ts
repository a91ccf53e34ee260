/**
 * What a thought session keeps of its own (SPEC §4.5), stored as its type state (the
 * registry, core/session-type-states.ts, composes every type's schema for storage).
 */
import { z } from 'zod';
import type { SnapshotNeeds } from '../storage/session-snapshot';

/**
 * Thought sessions (SPEC §4.5): the topic, and the stored, model-written summary of the
 * conversation older than the sliding window — every message up to `summarizedThrough` (a
 * message `seq`) is in it — so the partner's context stays bounded however long the
 * conversation runs. The closing summary is written when the learner ends the session.
 * (SPEC §3 "thought summaries": they live here, beside the session, because only this
 * session ever reads them and they change in the same transactions as its turns.)
 */
export const ThoughtSessionState = z.object({
  type: z.literal('thought'),
  topic: z.string().nullable().default(null),
  /** The rolling summary of the messages up to `summarizedThrough`; empty before the first refresh. */
  summary: z.string().default(''),
  summarizedThrough: z.number().int().min(0).default(0),
  /** How many times the rolling summary was refreshed. */
  refreshes: z.number().int().min(0).default(0),
  /** The summary of the whole conversation, written at the end. */
  finalSummary: z.string().nullable().default(null),
});
export type ThoughtSessionState = z.infer<typeof ThoughtSessionState>;

/** What a thought session's snapshot loads beyond what every session has: nothing. */
export const thoughtSnapshotNeeds: SnapshotNeeds = {};
