/**
 * The offline tutor's multiple choice (issues 15 and 28): which options it offers — recalled
 * points' contents and term-level substitutes for a statement, answers of the same kind for a
 * card — and the question above them, blanked exactly where the options differ. No option and
 * no prompt may give away a point still to recall other than the one being asked.
 */
import type { ChecklistPoint, TutorInput } from '../provider';
import { substituteDistractors } from './distractors';
import { matchPoint, prepareMessage } from './idea-match';
import { normalizeText } from './lexical';
import { answerShape, isCard, nearbyNumbers } from './question-answer';
import { givesAway } from './spoilers';
import { stableHash } from './stable-hash';

/** Most options of the multiple-choice widget (the probe plus distractors). */
export const MAX_CHOICE_OPTIONS = 4;

/** Points still to recall after this turn. */
export function stillUnchecked(input: TutorInput): ChecklistPoint[] {
  const just = new Set(input.justRecalled.map((p) => p.id));
  return input.checklist.filter((p) => !p.recalled && !just.has(p.id));
}

/** True when `text` gives away a point still to recall other than the probe (lexically, or as the evaluator reads it). */
function spoilsOther(text: string, input: TutorInput, probe: ChecklistPoint): boolean {
  const prepared = prepareMessage(text);
  return stillUnchecked(input).some((p) => p.id !== probe.id && (givesAway(text, p.content) || matchPoint(prepared, p.content).recalled));
}

/**
 * Up to MAX_CHOICE_OPTIONS distinct options, the probe's content among them exactly once;
 * empty when there is no safe distractor. Distractors: recalled points' contents, then
 * term-level substitutes of the probe — never one that gives away a point still to recall.
 */
export function choiceOptions(input: TutorInput, probe: ChecklistPoint): string[] {
  const recalled = recalledContents(input, probe, () => true);
  return assembleOptions(input, probe, [...recalled, ...substituteDistractors(probe.content.trim(), probe.id, MAX_CHOICE_OPTIONS)], (candidate) =>
    // A recalled point that says the probe too would be a second right answer.
    !(recalled.includes(candidate) && matchPoint(prepareMessage(candidate), probe.content).recalled),
  );
}

/** Recalled points' contents other than the probe's, in an order fixed by a hash of both ids. */
function recalledContents(input: TutorInput, probe: ChecklistPoint, keep: (point: ChecklistPoint) => boolean): string[] {
  return input.checklist
    .filter((p) => p.id !== probe.id && p.recalled && p.content.trim().length > 0 && keep(p))
    .map((p) => ({ p, rank: stableHash(`${probe.id}|${p.id}`) }))
    .sort((a, b) => a.rank - b.rank || (a.p.id < b.p.id ? -1 : 1))
    .map(({ p }) => p.content.trim());
}

/**
 * The options of one multiple choice: up to MAX_CHOICE_OPTIONS − 1 distinct candidates that
 * spoil no other point and pass `allowed`, with the probe's own content at a place fixed by a
 * hash of its id; empty when no candidate is left.
 */
function assembleOptions(input: TutorInput, probe: ChecklistPoint, candidates: readonly string[], allowed: (candidate: string) => boolean): string[] {
  const answer = probe.content.trim();
  const seen = new Set([normalizeText(answer)]);
  const distractors: string[] = [];
  for (const candidate of candidates) {
    if (distractors.length >= MAX_CHOICE_OPTIONS - 1) break;
    const key = normalizeText(candidate);
    if (!key || seen.has(key) || spoilsOther(candidate, input, probe) || !allowed(candidate)) continue;
    seen.add(key);
    distractors.push(candidate);
  }
  if (distractors.length === 0) return [];
  const at = stableHash(probe.id) % (distractors.length + 1);
  return [...distractors.slice(0, at), answer, ...distractors.slice(at)];
}

function comparable(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The question of a multiple choice: the point with a blank exactly where its options differ
 * ("The solar system has _____ planets" when they differ in the number; "Paris _____ the
 * capital of France" when one says "is not"), so a blank never falls on a word every option
 * shares (issue 28). Options that differ in more than a few words get a plain question.
 */
export function choicePrompt(content: string, options: readonly string[], cloze: string | null = null): string {
  const plain = clozeWithSharedWords(content, options, cloze) ?? 'Which of these is the idea we’re after?';
  const words = content.replace(/\s+/g, ' ').trim().split(' ');
  const others = options.map((option) => option.replace(/\s+/g, ' ').trim().split(' ').map(comparable));
  const own = words.map(comparable);
  // The words every option shares at the start and at the end; the point's words between differ.
  let prefix = Math.min(own.length, ...others.map((other) => other.length));
  for (const other of others) {
    let shared = 0;
    while (shared < prefix && other[shared] === own[shared]) shared += 1;
    prefix = shared;
  }
  let suffix = Math.min(own.length - prefix, ...others.map((other) => other.length - prefix));
  for (const other of others) {
    let shared = 0;
    while (shared < suffix && other[other.length - 1 - shared] === own[own.length - 1 - shared]) shared += 1;
    suffix = shared;
  }
  // An option that only adds words ("is" → "is not") differs next to them: blank the word before.
  if (prefix + suffix >= own.length) {
    if (prefix > 0) prefix -= 1;
    else if (suffix > 0) suffix -= 1;
  }
  const blanked = own.length - prefix - suffix;
  if (blanked <= 0 || blanked > 3 || blanked >= own.length) return plain;
  const shown = words.map((word, index) => (index >= prefix && index < own.length - suffix ? word.replace(/[\p{L}\p{N}]+/gu, '_____') : word)).join(' ');
  return `Which of these completes “${shown}”?`;
}

/**
 * For options that differ throughout (another point among them): the point's cloze, with any
 * word that every option shares shown rather than blanked; null without a cloze.
 */
function clozeWithSharedWords(content: string, options: readonly string[], cloze: string | null): string | null {
  if (!cloze) return null;
  const words = content.replace(/\s+/g, ' ').trim().split(' ');
  const masked = cloze.split(' ');
  if (masked.length !== words.length) return null;
  const everywhere = (word: string) => options.every((option) => option.split(/\s+/).some((other) => comparable(other) === comparable(word)));
  const shown = masked.map((piece, index) => (piece.includes('_') && everywhere(words[index]!) ? words[index]! : piece));
  return shown.some((piece) => piece.includes('_')) ? `Which of these completes “${shown.join(' ')}”?` : null;
}

/**
 * Choices for a card: answers of the same kind (names for names, numbers for numbers) —
 * recalled cards' answers, then nearby numbers — never an answer still to recall; empty
 * when fewer than one plausible distractor exists.
 */
export function cardChoiceOptions(input: TutorInput, probe: ChecklistPoint): string[] {
  const answer = probe.content.trim();
  const shape = answerShape(answer);
  const recalled = recalledContents(input, probe, (p) => isCard(p) && answerShape(p.content) === shape);
  return assembleOptions(input, probe, [...recalled, ...(shape === 'number' ? nearbyNumbers(answer) : [])], () => true);
}
