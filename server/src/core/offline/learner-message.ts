/**
 * Is the learner's message an attempt at recall, or a question / request for clarification?
 * (SPEC §4.1 as amended by issue 15: a question is never graded — not recalled, not a miss,
 * no stronger cue.) Deterministic, on the message's form:
 *
 * - a sentence is a question when it ends in "?" and opens like one: a wh-word (what, why,
 *   how, …), an inverted auxiliary ("is it…", "does that…", "can you…"), or "what about";
 * - requests for clarification count whatever their punctuation: "what do you mean", "I don't
 *   understand (the question)", "can you explain / rephrase / repeat", "say that again";
 * - the message is a question when it has at least one such sentence and no other sentence
 *   that carries content. A statement with a question tag ("…, right?") or a declarative
 *   sentence with a question mark ("Mitochondria make ATP?") is a tentative attempt and is graded;
 * - before these rules, the intent reader (learner-intent.ts, issue 28): an acknowledgement
 *   ("ok", "got it") is never graded, a request for help counts as an empty attempt, and a
 *   guess put as a question ("is it the mitochondria?") is a hedged answer and is graded.
 */
import { readLearnerIntent } from './learner-intent';
import { expandContractions } from './text-analysis';

export type LearnerMessageKind = 'attempt' | 'question';

const WH = /^(?:what|why|how|when|where|which|who|whom|whose)\b/i;
const INVERTED = /^(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|may|might|has|have|had|isn|aren|wasn|weren|don|doesn|didn)\b/i;
const WHAT_ABOUT = /^(?:and |so |but |ok(?:ay)? |um+ |hm+ )*(?:what about|how about|any hints?)\b/i;
const CLARIFY =
  /\b(?:what do you mean|what does (?:that|this|it) mean|i (?:do not|don't|dont) (?:understand|get) (?:the question|what you mean|it|that|this)|(?:can|could|would) you (?:explain|clarify|rephrase|repeat|say that again|elaborate)|say (?:that|it) again|repeat the question|what(?:'s| is) the question|not sure what you(?:'re| are) asking)\b/i;
const TAG = /,\s*(?:right|correct|isn'?t it|aren'?t they|no|yes|yeah|true)\s*\?\s*$/i;
const LEADING_FILLER = /^(?:(?:and|so|but|ok(?:ay)?|um+|uh+|hm+|wait|sorry|well)[\s,]+)+/i;

function sentences(text: string): string[] {
  return (text.match(/[^.?!\n]+[.?!]*/g) ?? []).map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** True for one sentence that asks rather than answers. */
export function isQuestionSentence(sentence: string): boolean {
  if (CLARIFY.test(sentence)) return true;
  const trimmed = sentence.trim();
  if (!trimmed.endsWith('?') || TAG.test(trimmed)) return false;
  const opening = trimmed.replace(LEADING_FILLER, '');
  return WH.test(opening) || INVERTED.test(opening) || WHAT_ABOUT.test(opening);
}

/** Whether a learner message is an attempt (graded) or a question (answered, never graded). */
export function classifyLearnerMessage(text: string): LearnerMessageKind {
  // The intent reader first (issue 28): "ok" / "got it" is not an attempt, so never a miss; a
  // request for help is an attempt with nothing in it (the cue grows stronger); a guess put as
  // a question ("is it the mitochondria?", "maybe 5?") is a hedged answer, graded as one.
  const intent = readLearnerIntent(text);
  if (intent.kind === 'continue') return 'question';
  if (intent.kind === 'stuck') return 'attempt';
  if (intent.kind === 'answer' && intent.hedged) return 'attempt';
  const parts = sentences(expandContractions(text).replace(/\bcan not\b/gi, 'cannot'));
  if (parts.length === 0) return 'attempt';
  const asks = parts.filter((s) => isQuestionSentence(s) || CLARIFY.test(s));
  // Fillers ("Sorry.", "Hmm.") around a question do not make it an attempt.
  const statements = parts.filter((s) => !asks.includes(s) && s.replace(/[^\p{L}\p{N}\s]/gu, '').trim().split(/\s+/).length > 2);
  return asks.length > 0 && statements.length === 0 ? 'question' : 'attempt';
}

/** True when a message asks what the tutor meant ("what do you mean?", "can you rephrase?"). */
export function isClarification(text: string): boolean {
  return CLARIFY.test(expandContractions(text));
}

/** True when the message only acknowledges ("ok", "got it", "makes sense"): not an answer, not a miss. */
export function isContinuation(text: string): boolean {
  return readLearnerIntent(text).kind === 'continue';
}

/** True when the learner says they are stuck or asks for a hint ("no idea", "hint please"). */
export function isStuck(text: string): boolean {
  return readLearnerIntent(text).kind === 'stuck';
}

/** True when a question offers a guess for a yes/no ("is it the mitochondria?"). */
export function isGuess(text: string): boolean {
  return sentences(expandContractions(text)).some((s) => INVERTED.test(s.replace(LEADING_FILLER, '')) && s.trim().endsWith('?'));
}
