import { z } from 'zod';

/**
 * Thought sessions (SPEC §4.5): the learner drives, the model is a Socratic partner. What a
 * learner sees of one: its topic while it runs, and the summary written when they end it.
 */

/** Longest topic a learner may give a thought session. */
export const thoughtTopicMaxLength = 200;

/** Progress of a thought session inside `state_update`: no checklist, no score. */
export const ThoughtProgress = z.object({
  /** What the learner wanted to think about, if they said. */
  topic: z.string().nullable(),
});
export type ThoughtProgress = z.infer<typeof ThoughtProgress>;

/** The thought part of a session summary. */
export const ThoughtSessionSummary = z.object({
  topic: z.string().nullable(),
  /** A model-written summary of the whole conversation (offline: a deterministic one). */
  summary: z.string(),
  /** Learner messages in the conversation. */
  learnerMessages: z.number().int().min(0),
});
export type ThoughtSessionSummary = z.infer<typeof ThoughtSessionSummary>;
