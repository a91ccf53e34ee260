/**
 * What the offline tutor says to a learner's question or remark instead of an answer (issues 15
 * and 28), before it gives the same cue again: what it meant, a point already recalled that the
 * question is about, a hint or a guess it cannot confirm, or an honest "that's what we're
 * trying to recall" — never a point still to recall.
 */
import type { ChecklistPoint, TutorInput } from '../provider';
import { contextPhrase } from './cue-builder';
import { matchPoint, prepareMessage } from './idea-match';
import { isClarification, isContinuation, isGuess } from './learner-message';
import { pickBySeed } from './stable-hash';
import { CLARIFY_ANSWER, CONTINUE_ANSWER, fill, GUESS_ANSWER, HINT_ANSWER, HOLD_ANSWER, RECALLED_ANSWER } from './tutor-phrases';

/**
 * The brief answer to a learner's question (issue 15): what can be said without giving a
 * point still to recall away — what the tutor meant, a point already recalled that the
 * question is about, or an honest "that's what we're trying to recall".
 */
export function answerQuestion(input: TutorInput, probe: ChecklistPoint, question: string, seed: string): string {
  if (isContinuation(question)) return pickBySeed(CONTINUE_ANSWER, `${seed}|continue`);
  if (isClarification(question)) {
    const context = contextPhrase(probe.context);
    const about = context && !matchPoint(prepareMessage(context), probe.content).recalled ? ` It’s about this: ${context.replace(/(?<![.!;:,])[.!;:,]+$/u, '')}.` : '';
    return fill(pickBySeed(CLARIFY_ANSWER, `${seed}|clarify`), { title: input.title }) + about;
  }
  if (/\bhints?\b/i.test(question)) return pickBySeed(HINT_ANSWER, `${seed}|hint`);
  if (isGuess(question)) return pickBySeed(GUESS_ANSWER, `${seed}|guess`);
  // A question about something already recalled can be answered from it: it spoils nothing.
  const asked = prepareMessage(question);
  const known = input.checklist
    .filter((p) => p.recalled)
    .map((p) => ({ p, hits: matchPoint(asked, p.content).hits.length }))
    .filter(({ hits }) => hits >= 1)
    .sort((a, b) => b.hits - a.hits)[0];
  if (known) return fill(pickBySeed(RECALLED_ANSWER, `${seed}|recalled`), { content: known.p.content.replace(/\s+/g, ' ').trim().replace(/(?<![.!])[.!]+$/u, '') });
  return pickBySeed(HOLD_ANSWER, `${seed}|hold`);
}
