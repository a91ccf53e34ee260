/**
 * What a learning reply may say (SPEC §4.4 step 5): internal language never, and never the
 * answer of a question the learner still has to find; the calm redirect of the safety gate,
 * the fallback when the tutor's output stays unusable, and the pieces a reply streams in.
 */
import { findLeaks } from '../session/sanitize';
import type { LearningSessionState } from './learning-state';
import { mentionsAnswer } from './answer-match';
import { stepOf, type AppliedTurn } from './learning-rules';

export const safetyRedirect =
  'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, let’s carry on with the lesson.';

/** The reply when the master tutor's output stays unusable after one retry: nothing advances. */
export function fallbackReply(state: LearningSessionState): string {
  if (state.openQuestion) return `Sorry — I lost my train of thought there. Let’s come back to the question: ${state.openQuestion.question}`;
  return `Sorry — I lost my train of thought there. We’re on ${stepOf(state).concept}; tell me what you think so far, or ask me anything about it.`;
}

/** Leaks a reply must not carry: internal language, and an answer still to be found (before the explain phase). */
export function replyLeaks(response: string, applied: AppliedTurn): string[] {
  const leaks = findLeaks(response);
  // The question still open after this turn — asked now, or answered wrong and at the probe or
  // hint phase — has an answer the learner must still find. Once right or explained, it may be said.
  if (answersToKeep(applied).some((answer) => mentionsAnswer(response, answer))) leaks.push('expected answer');
  return leaks;
}

/**
 * The answers a reply must not state: those of the question still open after this turn (its
 * expected answer and accepted variants), unless at the explain phase — and not one the
 * question itself states ("Is 5 odd?" → "5 is odd" cannot be kept out).
 */
export function answersToKeep(applied: AppliedTurn): string[] {
  const open = applied.state.openQuestion;
  if (!open || open.phase === 'explain') return [];
  return [open.expectedAnswer, ...open.acceptedAnswers].filter((answer) => !mentionsAnswer(open.question, answer));
}

export function stripAnswer(response: string, answers: string[]): string {
  const sentences = response.split(/(?<=[.!?])\s+|\n+/);
  const kept = sentences.filter((sentence) => findLeaks(sentence).length === 0 && !answers.some((answer) => mentionsAnswer(sentence, answer)));
  return kept.join(' ').replace(/\s{2,}/g, ' ').trim();
}

/** Splits a reply into the pieces streamed as `assistant_delta` (a few words each). */
export function chunks(text: string): string[] {
  return text.match(/\S+\s*/g)?.reduce<string[]>((pieces, word, index) => {
    if (index % 6 === 0) pieces.push(word);
    else pieces[pieces.length - 1] += word;
    return pieces;
  }, []) ?? [];
}
