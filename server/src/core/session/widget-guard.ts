/**
 * The widget guard (issue 15, beside the leak guard of SPEC §4.1): no widget the learner
 * receives — offline or from a model — gives away a point that is still to recall. Pure: the
 * turn runner calls it on the widget of a reply before committing it, and logs what it did.
 *
 * What a widget may show (points compared by their key terms, `offline/spoilers.ts`):
 *
 * - A point still to recall other than the cued one: nothing that gives it away — no text
 *   piece (the prompt with its context and placeholder, one option, the starter code, a
 *   label) that would pass the recall threshold if the learner echoed it back.
 * - The cued point (the probe): the question never states it whole — the prompt, context and
 *   placeholder withhold at least one of its key terms at every cue level (the offline tutor
 *   keeps to one term, its anchor; a model's "Which organelle produces ATP?" withholds
 *   "mitochondria"). Its content may be one option of a multiple-choice question: a pick is
 *   recognition, which the evaluator caps and FSRS grades as such (fsrs.ts).
 *
 * Repairs, in order: the offending words of a prompt, context, placeholder or label are
 * masked to a first letter and underscores, as in a cloze; starter code that gives a point
 * away is dropped; an offending option is replaced by a safe distractor — a recalled point's
 * content (it spoils nothing) that is not an option yet — or removed. With fewer than two
 * options left the widget becomes a free-text prompt on the same (masked) question. A widget
 * that still gives a point away after that is refused: the reply goes out without it.
 */
import { defaultFreeTextMaxLength } from '@tutorloop/shared';
import { maskPoint, givesAway, mentionedTerms, namesEveryTerm } from '../offline/spoilers';
import { guardCue } from '../offline/cue-builder';
import { extractKeyTerms, normalizeText } from '../offline/lexical';
import type { ChecklistPoint, WidgetRequest } from '../provider';

export interface WidgetGuardInput {
  widget: WidgetRequest;
  /** Points still to recall, the cued one included. */
  unchecked: readonly ChecklistPoint[];
  /** Points already recalled: safe distractors. */
  recalled: readonly ChecklistPoint[];
  /** The point the tutor is cueing (the probe), if any. */
  cued: ChecklistPoint | null;
  /** Learner turns already spent on the cued point (0: the open cue, 1: a hint, ≥ 2: recognition). */
  cueLevel: number;
}

export type WidgetGuardResult =
  | { outcome: 'kept'; widget: WidgetRequest }
  /** The widget as repaired, with what was wrong (for the log; never shown to the learner). */
  | { outcome: 'repaired'; widget: WidgetRequest; reasons: string[] }
  | { outcome: 'refused'; reasons: string[] };

/**
 * The repair of text pieces shown together (a prompt with its context and placeholder): every
 * non-cued point they give away masked, and the cued point never stated whole.
 */
function repairPieces(pieces: readonly string[], input: WidgetGuardInput, reasons: string[], what: string): string[] {
  let out = [...pieces];
  const joined = () => out.join('\n');
  for (const point of input.unchecked) {
    if (point.id === input.cued?.id || !givesAway(joined(), point.content)) continue;
    // A term the cued point shares may stay (it is part of the cue), one at most.
    const cued = input.cued;
    const shared = cued ? (mentionedTerms(joined(), point.content).find((term) => mentionedTerms(term.surface, cued.content).length > 0) ?? null) : null;
    out = out.map((piece) => maskPoint(piece, point.content, shared));
    if (givesAway(joined(), point.content)) out = out.map((piece) => maskPoint(piece, point.content, null));
    reasons.push(`${what} gave away point ${point.id}`);
  }
  const cued = input.cued;
  if (cued && namesEveryTerm(joined(), cued.content)) {
    // One term may stay, unless the point has only one: then it is the whole point.
    const mentioned = mentionedTerms(joined(), cued.content);
    const keep = mentioned.length > 1 ? (mentioned[0] ?? null) : null;
    out = out.map((piece) => guardCue(piece, cued.content, keep));
    reasons.push(`${what} stated the cued point ${cued.id} whole`);
  }
  return out;
}

function repairText(text: string, input: WidgetGuardInput, reasons: string[], what: string): string {
  return repairPieces([text], input, reasons, what)[0] ?? text;
}

/** True when the text piece gives away a non-cued point, or states the cued one whole. */
function spoils(text: string, input: WidgetGuardInput): boolean {
  return input.unchecked.some((point) => (point.id === input.cued?.id ? namesEveryTerm(text, point.content) : givesAway(text, point.content)));
}

/** Share of a point's key terms a text names. */
function coverage(text: string, content: string): number {
  const terms = extractKeyTerms(content).length;
  return terms === 0 ? 0 : mentionedTerms(text, content).length / terms;
}

/**
 * True when an option gives away a point still to recall other than the cued one. The cued
 * point's own option may share words with a like point ("Fact number 3…" / "Fact number 4…"):
 * an option that says the cued point at least as fully as the other is the cued point's.
 */
function optionSpoils(option: string, input: WidgetGuardInput): boolean {
  const cued = input.cued;
  const cuedCoverage = cued ? coverage(option, cued.content) : 0;
  return input.unchecked.some((point) => point.id !== cued?.id && givesAway(option, point.content) && !(cued && givesAway(option, cued.content) && cuedCoverage >= coverage(option, point.content)));
}

/** The options with every offending one replaced by a recalled point's content, or dropped. */
function repairOptions(options: readonly string[], input: WidgetGuardInput, reasons: string[]): string[] {
  const taken = new Set(options.map(normalizeText));
  const spare = input.recalled
    .map((point) => point.content.replace(/\s+/g, ' ').trim())
    .filter((content) => content.length > 0 && !taken.has(normalizeText(content)) && !optionSpoils(content, input));
  const out: string[] = [];
  options.forEach((option, index) => {
    if (!optionSpoils(option, input)) {
      out.push(option);
      return;
    }
    const replacement = spare.shift();
    reasons.push(`option ${index + 1} gave away an unchecked point; ${replacement ? 'replaced by a recalled point' : 'removed'}`);
    if (replacement) out.push(replacement);
  });
  return out;
}

/** Checks a widget against the checklist and repairs or refuses it (see the header). */
export function guardWidget(input: WidgetGuardInput): WidgetGuardResult {
  const reasons: string[] = [];
  const widget = input.widget;
  let repaired: WidgetRequest;
  switch (widget.kind) {
    case 'multiple_choice': {
      const { prompt, context, options } = widget.props;
      const [newPrompt = prompt, newContext = ''] = repairPieces([prompt, context ?? ''], input, reasons, 'the question');
      const kept = repairOptions(options, input, reasons);
      if (kept.length >= 2) {
        repaired = { kind: 'multiple_choice', props: { ...widget.props, prompt: newPrompt, options: kept, ...(context !== undefined ? { context: newContext } : {}) } };
      } else {
        reasons.push('too few safe options: asked as free text instead');
        repaired = {
          kind: 'free_text',
          props: { prompt: newPrompt, ...(context ? { context: newContext } : {}), placeholder: 'Type what you remember…', maxLength: defaultFreeTextMaxLength },
        };
      }
      break;
    }
    case 'free_text': {
      const { prompt, context, placeholder } = widget.props;
      const [newPrompt = prompt, newContext = '', newPlaceholder = ''] = repairPieces([prompt, context ?? '', placeholder ?? ''], input, reasons, 'the prompt');
      repaired = {
        kind: 'free_text',
        props: { ...widget.props, prompt: newPrompt, ...(context !== undefined ? { context: newContext } : {}), ...(placeholder !== undefined ? { placeholder: newPlaceholder } : {}) },
      };
      break;
    }
    case 'code_editor': {
      const { prompt, starterCode, ...rest } = widget.props;
      const newPrompt = repairText(prompt, input, reasons, 'the task');
      const starterSpoils = starterCode !== undefined && spoils(starterCode, input);
      if (starterSpoils) reasons.push('the starter code gave a point away; dropped');
      repaired = { kind: 'code_editor', props: { ...rest, prompt: newPrompt, ...(starterCode !== undefined && !starterSpoils ? { starterCode } : {}) } };
      break;
    }
    case 'rating': {
      const labels = widget.props.labels
        ? Object.fromEntries(Object.entries(widget.props.labels).map(([value, label]) => [value, repairText(label, input, reasons, `label ${value}`)]))
        : undefined;
      repaired = { kind: 'rating', props: { ...widget.props, prompt: repairText(widget.props.prompt, input, reasons, 'the question'), ...(labels ? { labels } : {}) } };
      break;
    }
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
  if (reasons.length === 0) return { outcome: 'kept', widget };
  const still = widgetTexts(repaired).filter((piece) => (piece.option ? optionSpoils(piece.text, input) : spoils(piece.text, input)));
  if (still.length > 0) return { outcome: 'refused', reasons: [...reasons, 'still gives a point away after repair'] };
  return { outcome: 'repaired', widget: repaired, reasons };
}

/** Every piece of text a widget shows, options marked (the cued point may be one of them). */
export function widgetTexts(widget: WidgetRequest): Array<{ text: string; option: boolean }> {
  const pieces = (texts: Array<string | undefined>) => texts.filter((text): text is string => !!text).map((text) => ({ text, option: false }));
  switch (widget.kind) {
    case 'multiple_choice':
      return [...pieces([[widget.props.prompt, widget.props.context ?? ''].join('\n')]), ...widget.props.options.map((text) => ({ text, option: true }))];
    case 'free_text':
      return pieces([[widget.props.prompt, widget.props.context ?? '', widget.props.placeholder ?? ''].join('\n')]);
    case 'code_editor':
      return pieces([widget.props.prompt, widget.props.starterCode]);
    case 'rating':
      return pieces([widget.props.prompt, ...Object.values(widget.props.labels ?? {})]);
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}
