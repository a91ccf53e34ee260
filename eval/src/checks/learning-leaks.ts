/**
 * Leaks in a learning session (SPEC §4.4 "Privacy of internals"), found in every frame the
 * learner receives — the tutor's messages and deltas, widgets (multiple-choice options
 * excepted: they show candidates by design), `state_update`, `history`, `session_complete`,
 * `error`. Pure. The rules (eval/README.md §"Leaks"):
 *
 * - internal language: the markers of leaks.ts; the tutor's internal field names
 *   (`turn_summary`, `expected_answer`, `answer_correct`, `mastery_signal`, …, and `reasoning`
 *   written as a field, `reasoning:` — the bare word is ordinary tutoring talk); a mastery
 *   number ("mastery 0.75", "80% mastery"), or a number under a key named like mastery, score
 *   or confidence anywhere in a frame;
 * - an expected answer before it is earned: the expected answer (or an accepted variant) of a
 *   check question, in a frame of a turn that ended on that question's step, before the
 *   learner said it and before the turn in which the tutor explained it (the lifecycle's last
 *   phase). Answers of a single character ("4", "p") are not policed: they occur in ordinary
 *   prose. Earlier steps may use the same example on purpose (an explanation before its check).
 */
import type { ServerEvent, StudyPlanContent } from '@tutorloop/shared';
import { INTERNAL_MARKERS, normalizeForMatch, type Leak } from './leaks';

/** The tutor's internal field names, and mastery numbers in text. */
export const LEARNING_MARKERS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'turn_summary', pattern: /\bturn[_ ]summary\b/i },
  { name: 'expected_answer', pattern: /\bexpected_answer\b/i },
  { name: 'reasoning', pattern: /(?:\breasoning["”']?\s*[:=]|["“']reasoning["”'])/i },
  { name: 'internal field', pattern: /\b(?:answer_correct|mastery_signal|mastery_updates|misconceptions_detected|question_asked|question_concept|advance_to_step|session_complete)\b/i },
  { name: 'mastery number', pattern: /\bmastery\b[^.!?\n]{1,25}?\d+(?:[.,]\d+)?\s*%?|\b\d+(?:[.,]\d+)?(?:\s*%)?\s+mastery\b/i },
];

const numericInternalKey = /mastery|score|confidence/i;
const skippedKeys = /^(?:id|options)$|(?:Id|At)$/;

/** The strings of a frame the learner may see (ids, timestamps and multiple-choice options left out). */
export function visibleStrings(event: ServerEvent): string[] {
  const strings: string[] = [];
  const walk = (value: unknown, key: string | null) => {
    if (key !== null && skippedKeys.test(key)) return;
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, null);
    else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) walk(item, name);
  };
  walk(event.payload, null);
  return strings.filter((text) => text.trim() !== '');
}

/** `state.learning.x = 0.8`: a number under a key named like mastery, score or confidence. */
export function numericInternals(event: ServerEvent): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (value && typeof value === 'object') for (const [name, item] of Object.entries(value)) walk(item, path ? `${path}.${name}` : name);
    else if (typeof value === 'number' && numericInternalKey.test(path.split('.').at(-1) ?? '')) found.push(`${path} = ${value}`);
  };
  walk(event.payload, '');
  return found;
}

function excerpt(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 30);
  const end = Math.min(text.length, index + length + 30);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/** Internal language in the frames of one turn (each marker reported once). */
export function internalLeaks(frames: readonly ServerEvent[]): Leak[] {
  const leaks = new Map<string, Leak>();
  for (const frame of frames) {
    for (const text of visibleStrings(frame)) {
      for (const marker of [...INTERNAL_MARKERS, ...LEARNING_MARKERS]) {
        const match = marker.pattern.exec(text);
        if (match && !leaks.has(marker.name)) leaks.set(marker.name, { kind: 'internal_language', detail: marker.name, excerpt: excerpt(text, match.index, match[0].length) });
      }
    }
    for (const found of numericInternals(frame)) {
      if (!leaks.has(found)) leaks.set(found, { kind: 'internal_language', detail: 'mastery number', excerpt: `${frame.type}: ${found}` });
    }
  }
  return [...leaks.values()];
}

/** One turn of a learning session, as the answer-leak rule needs it. */
export interface LearningLeakTurn {
  turn: number;
  frames: readonly ServerEvent[];
  /** The learner's chat message of the turn (null for the opening and widget answers). */
  learnerMessage: string | null;
  /** `state.learning.step` after the turn. */
  stepAfter: number | null;
  /** The tutor walked a question to its explain phase in this turn (agent logs). */
  explained: boolean;
}

/** The policed forms of an answer: normalized, longer than one character. */
function policedForms(forms: readonly string[]): string[] {
  return forms.map(normalizeForMatch).filter((form) => form.trim().length > 1);
}

/** Leaks per turn (aligned with `turns`): internal language, then answers not yet earned. */
export function learningLeaks(plan: StudyPlanContent, turns: readonly LearningLeakTurn[]): Leak[][] {
  const perTurn = turns.map((turn) => internalLeaks(turn.frames));
  for (const step of plan.steps) {
    if (step.type !== 'check') continue;
    for (const question of step.questions) {
      const forms = policedForms([question.expectedAnswer, ...question.acceptedAnswers]);
      if (forms.length === 0) continue;
      let earned = false;
      turns.forEach((turn, index) => {
        if (earned) return;
        if (turn.learnerMessage !== null && forms.some((form) => normalizeForMatch(turn.learnerMessage!).includes(form))) {
          earned = true;
          return;
        }
        if (turn.stepAfter !== step.number) return;
        const text = normalizeForMatch(turn.frames.flatMap(visibleStrings).join('\n'));
        const shown = forms.find((form) => text.includes(form));
        if (!shown) return;
        if (turn.explained) {
          earned = true;
          return;
        }
        perTurn[index]!.push({ kind: 'expected_answer', detail: `step ${step.number}: ${question.question}`, excerpt: `the answer “${question.expectedAnswer}”` });
      });
    }
  }
  return perTurn;
}
