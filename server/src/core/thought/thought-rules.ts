/**
 * The context rules of a thought session (SPEC §4.5), pure: a sliding window of recent
 * messages verbatim plus a stored, model-written summary of everything older, refreshed every
 * few turns — so the partner's prompt stays within a fixed budget however long the
 * conversation runs:
 *
 *   prompt ≤ system + summary (≤ `summaryMaxChars`) + (`windowMessages` + `refreshEvery`) messages.
 *
 * Messages not yet in the summary accumulate until there are more than `windowMessages +
 * refreshEvery`; then the oldest are folded in and `windowMessages` stay verbatim.
 */
import type { SessionSummary, ThoughtSessionSummary } from '@tutorloop/shared';
import type { StoredMessage } from '../storage/messages';
import type { ThoughtSessionState } from './thought-state';
import type { ThoughtMessage, ThoughtReplyInput } from './thought-port';

/** Messages always kept verbatim (four exchanges). */
export const windowMessages = 8;
/** Messages allowed to pile up past the window before a refresh folds them in (every four turns). */
export const refreshEvery = 8;
/** The longest summary kept (the summariser is asked for less; a longer one is cut at a sentence). */
export const summaryMaxChars = 2400;
/** The longest message put in a prompt verbatim (a learner message is at most 4000 characters). */
export const messageMaxChars = 4000;

export function initialThoughtState(topic: string | null): ThoughtSessionState {
  return { type: 'thought', topic, summary: '', summarizedThrough: 0, refreshes: 0, finalSummary: null };
}

export function toThoughtMessage(message: StoredMessage): ThoughtMessage {
  const content = message.content.length > messageMaxChars ? `${message.content.slice(0, messageMaxChars)}…` : message.content;
  return { role: message.role === 'tutor' ? 'partner' : 'learner', content };
}

/** The messages not yet in the summary, oldest first (the conversation holds only learner and partner messages). */
export function unsummarized(messages: readonly StoredMessage[], state: ThoughtSessionState): StoredMessage[] {
  return messages.filter((message) => message.seq > state.summarizedThrough && message.role !== 'tool_result');
}

/** The oldest messages to fold into the summary now (none until more than window + refresh are waiting). */
export function messagesToFold(pending: readonly StoredMessage[]): StoredMessage[] {
  if (pending.length <= windowMessages + refreshEvery) return [];
  return pending.slice(0, pending.length - windowMessages);
}

/** The verbatim part of the prompt: never more than window + refresh messages, even when a refresh failed. */
export function windowOf(pending: readonly StoredMessage[]): ThoughtMessage[] {
  return pending.slice(-(windowMessages + refreshEvery)).map(toThoughtMessage);
}

/** A summary within `summaryMaxChars`: cut at the last sentence end that fits. */
export function boundSummary(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= summaryMaxChars) return clean;
  const cut = clean.slice(0, summaryMaxChars);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > summaryMaxChars / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, summaryMaxChars - 1)}…`;
}

export function thoughtSummary(state: ThoughtSessionState, learnerMessages: number): ThoughtSessionSummary {
  return { topic: state.topic, summary: state.finalSummary ?? state.summary, learnerMessages };
}

export type ThoughtReason = SessionSummary['reason'];

/**
 * What the partner reads for one reply: the topic, the stored summary and the window — up to
 * the learner's message it answers; for a retry, the conversation before the reply it
 * replaces, to be put another way; for the opening, nothing yet.
 */
export function partnerInput(reply: { sessionId: string; state: ThoughtSessionState; messages: readonly StoredMessage[]; replyTo: StoredMessage | null; retryOf: StoredMessage | null }): ThoughtReplyInput {
  const { sessionId, state, messages, replyTo, retryOf } = reply;
  if (retryOf) return { sessionId, topic: state.topic, summary: state.summary, recentMessages: windowOf(unsummarized(messages, state)), replacing: retryOf.content };
  if (!replyTo) return { sessionId, topic: state.topic, summary: '', recentMessages: [] };
  const upToMessage = messages.filter((stored) => stored.seq <= replyTo.seq);
  return { sessionId, topic: state.topic, summary: state.summary, recentMessages: windowOf(unsummarized(upToMessage, state)) };
}
