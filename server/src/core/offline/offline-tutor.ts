/**
 * The offline tutor (SPEC §7): a deterministic, template-based tutor that greets, acknowledges
 * what the learner just recalled, and cues the probe point without revealing it, escalating
 * with the number of failed attempts:
 *
 *   attempt 0  → an open question from the author's context, else from the anchor term
 *                (points with a single key term get the cloze straight away);
 *   attempt 1  → a cloze hint (key terms past the anchor masked to a first letter); for a
 *                point that quotes code, a code-editor widget to write that code; for long
 *                points a free-text widget to write it out in their own words;
 *   attempt ≥2 → a multiple-choice widget: the probe's content among up to three other
 *                points' contents (already-recalled points first, so that no unrecalled
 *                point is spoiled unless needed), in an order fixed by a hash of the point id.
 *                With fewer than two distinct options it repeats the cloze instead.
 *
 * In `rabbithole` mode it follows the learner's tangent and never cues; recalls are still
 * acknowledged briefly. It enters and leaves rabbit holes by its own judgment too, on the
 * learner's explicit phrasing (see `offline-tangent.ts`), and says so with a `mode` event. It never names point ids, confidences, scores or the evaluator, and
 * never repeats the evaluator's feedback. Phrasing varies by a hash of turn + point id.
 * Every cue passes through `guardCue` (at most one key term of the probe point); the set
 * title is the author's own and is quoted as is.
 */
import type { ChecklistPoint, TutorEvent, TutorInput, WidgetRequest } from '../provider';
import { codeLanguageFor, codeSpanOf } from './code-points';
import { anchorFor, clozeOf, contextPhrase, guardCue, templateCollides } from './cue-builder';
import { normalizeText } from './lexical';
import { pickBySeed, stableHash } from './stable-hash';
import { tangentSignal } from './offline-tangent';
import { splitIntoChunks } from './text-chunks';
import { offlineModeToolCallId, offlineToolCallId } from './tool-call-ids';

type WidgetEvent = Extract<TutorEvent, { type: 'widget' }>;

/** The reply as composed before streaming. */
export interface ComposedReply {
  text: string;
  widget: WidgetEvent | null;
}

/** Points at least this long (characters) are also offered a free-text widget on attempt 1. */
export const LONG_CONTENT_LENGTH = 160;
/** Most options of the multiple-choice widget (the probe plus distractors). */
export const MAX_CHOICE_OPTIONS = 4;
/** Longest answer the free-text widget asks for. */
export const FREE_TEXT_MAX_LENGTH = 1000;

type Variants = readonly [string, ...string[]];

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

/** A variant chosen by `seed`, skipping templates whose own words would name a key term. */
function pickTemplate(variants: Variants, seed: string, content: string): string {
  const start = stableHash(seed) % variants.length;
  for (let i = 0; i < variants.length; i++) {
    const v = variants[(start + i) % variants.length];
    if (v !== undefined && !templateCollides(v, content)) return v;
  }
  return variants[start] ?? variants[0];
}

const NUMBER_WORDS = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
];

/** Small counts in words ("three"): friendlier, and no digits that could echo a point's numbers. */
export function countWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function ideas(n: number): string {
  return n === 1 ? 'one idea' : `${countWord(n)} ideas`;
}

function remainingAfterTurn(input: TutorInput): number {
  const just = new Set(input.justRecalled.map((p) => p.id));
  return input.checklist.filter((p) => !p.recalled && !just.has(p.id)).length;
}

// ---------------------------------------------------------------------------------------
// Phrases

const WELCOME: Variants = [
  'Welcome! Today we’re reviewing “{title}”. We’ll go through {ideas} — just tell me whatever you remember, in your own words.',
  'Hi! Let’s review “{title}” together. We’ll go through {ideas}; answer in your own words, there’s no rush.',
  'Hello! Time to review “{title}”. We’ll go through {ideas}, one at a time — say whatever comes to mind.',
];

const ACK_ONE: Variants = ['Yes — that’s it.', 'Exactly right.', 'Spot on — well done.', 'That’s the one. Nice work.'];
const ACK_TWO: Variants = ['Nice, you covered two of them at once.', 'Two in one go — great recall.'];
const ACK_MANY: Variants = ['Impressive — that’s {n} ideas in one go.', 'Wow, {n} at once. Excellent.'];
const TO_GO: Variants = ['{n} to go.', '{n} left.', 'Only {n} more.'];
const ONE_TO_GO: Variants = ['Just one more to go.', 'One left.'];

const NUDGE: Variants = ['Not quite yet — let’s narrow it down.', 'Hmm, not yet.', 'Let’s come at it from another angle.', 'Not quite — no worries.'];
const WIDGET_MISS: Variants = ['Thanks for that — not quite, though.', 'Thanks — that’s not it yet.'];

const CUE_CONTEXT: Variants = [
  'Next one — {context}. What do you remember about it?',
  'Let’s turn to this: {context}. What can you tell me?',
  'Here’s the next one: {context}. What comes to mind?',
];
const CUE_CONTEXT_QUESTION: Variants = ['Here’s the next one: {context}', 'Next question: {context}'];
const CUE_ANCHOR: Variants = [
  'Here’s a keyword to start from: “{anchor}”. What do you remember that goes with it?',
  'Let’s start from one word: “{anchor}”. What comes to mind?',
  'One word to get you going: “{anchor}”. What can you tell me?',
];
const CUE_CLOZE: Variants = [
  'Here’s a hint — try filling in the blanks: “{cloze}”',
  'Let me give you a skeleton to work from: “{cloze}”',
  'Here’s a stronger hint. Fill in the gaps: “{cloze}”',
];
const CUE_CLOZE_AGAIN: Variants = ['Here’s the skeleton again: “{cloze}” Take your time.', 'Let’s look at the blanks once more: “{cloze}”'];
const FREE_TEXT_INVITE: Variants = [
  'Write down whatever you can in the box — a rough version is fine.',
  'Try writing it out in your own words below; it doesn’t have to be perfect.',
];
const CODE_INVITE: Variants = [
  'Try writing it as code in the editor below.',
  'Show me in code — the editor is below.',
];
const BACK_TO_REVIEW: Variants = ['Good — back to the review, then.', 'Right, let’s pick the review back up.'];
const CHOICE_INTRO: Variants = [
  'Let’s try it another way — which of these is right?',
  'Let’s try a different approach — pick the one that fits.',
  'Here’s another way in: which of these is the one we’re after?',
];

const CLOSING: Variants = [
  'That’s everything — you’ve recalled all {ideas} from “{title}”. Great work today!',
  'And that completes “{title}”: every idea recalled. Well done!',
];

const EXPLORE: Variants = [
  'Let’s explore {topic} — what do you already know about it?',
  'Good tangent. What do you already know about {topic}?',
  'Sure, let’s dig into {topic} for a bit. What’s your current understanding of it?',
];
const RABBITHOLE_RECALL_ONE: Variants = [
  'By the way, that also covered one of the ideas on your list — nice.',
  'Nice — that also counts for one of the ideas we’re reviewing.',
];
const RABBITHOLE_RECALL_MANY: Variants = ['By the way, that also covered {n} of the ideas on your list — nice.'];
const RABBITHOLE_ALL_DONE: Variants = ['That completes everything for “{title}”, too.'];

// ---------------------------------------------------------------------------------------
// Parts

function acknowledgement(input: TutorInput, seed: string): string[] {
  const n = input.justRecalled.length;
  if (n === 0) return [];
  const parts = [fill(pickBySeed(n === 1 ? ACK_ONE : n === 2 ? ACK_TWO : ACK_MANY, `${seed}|ack`), { n: countWord(n) })];
  const left = remainingAfterTurn(input);
  if (input.probePoint && left > 0) {
    parts.push(capitalize(fill(pickBySeed(left === 1 ? ONE_TO_GO : TO_GO, `${seed}|left`), { n: countWord(left) })));
  }
  return parts;
}

function openCue(point: ChecklistPoint, seed: string): string {
  const context = contextPhrase(point.context);
  if (context) {
    const question = /\?$/.test(context);
    const template = pickTemplate(question ? CUE_CONTEXT_QUESTION : CUE_CONTEXT, seed, point.content);
    const text = fill(template, { context: question ? context : context.replace(/[.!;:,]+$/u, '') });
    return guardCue(text, point.content, anchorFor(point.content) ? 'first' : null);
  }
  const anchor = anchorFor(point.content);
  if (anchor) {
    const template = pickTemplate(CUE_ANCHOR, seed, point.content);
    return guardCue(fill(template, { anchor: anchor.surface }), point.content, anchor);
  }
  return clozeCue(point, seed, CUE_CLOZE);
}

function clozeCue(point: ChecklistPoint, seed: string, variants: Variants): string {
  const template = pickTemplate(variants, seed, point.content);
  return guardCue(fill(template, { cloze: clozeOf(point.content) }), point.content, anchorFor(point.content));
}

/** Up to MAX_CHOICE_OPTIONS distinct options, the probe's content among them exactly once. */
export function choiceOptions(input: TutorInput, probe: ChecklistPoint): string[] {
  const seen = new Set([normalizeText(probe.content)]);
  const others = input.checklist
    .filter((p) => p.id !== probe.id && p.content.trim().length > 0)
    .map((p) => ({ p, rank: stableHash(`${probe.id}|${p.id}`) }))
    // Already-recalled points first: using them as distractors spoils nothing.
    .sort((a, b) => Number(b.p.recalled) - Number(a.p.recalled) || a.rank - b.rank || (a.p.id < b.p.id ? -1 : 1));
  const distractors: string[] = [];
  for (const { p } of others) {
    if (distractors.length >= MAX_CHOICE_OPTIONS - 1) break;
    const key = normalizeText(p.content);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    distractors.push(p.content.trim());
  }
  if (distractors.length === 0) return [];
  const at = stableHash(probe.id) % (distractors.length + 1);
  return [...distractors.slice(0, at), probe.content.trim(), ...distractors.slice(at)];
}

function cue(input: TutorInput, probe: ChecklistPoint, seed: string): { text: string[]; widget: WidgetEvent | null } {
  const attempts = Math.max(0, Math.floor(input.probeAttempts));
  if (attempts === 0) return { text: [openCue(probe, seed)], widget: null };

  if (attempts === 1) {
    const text = [clozeCue(probe, seed, CUE_CLOZE)];
    if (codeSpanOf(probe.content)) {
      const language = codeLanguageFor(probe);
      text.push(pickBySeed(CODE_INVITE, `${seed}|code`));
      return {
        text,
        widget: widgetEvent(probe, attempts, {
          kind: 'code_editor',
          props: {
            prompt: guardCue(`Write the code this describes: “${clozeOf(probe.content)}”`, probe.content, anchorFor(probe.content)),
            language,
            starterCode: language === 'python' ? '# Your code here\n' : '// Your code here\n',
          },
        }),
      };
    }
    if (probe.content.trim().length < LONG_CONTENT_LENGTH) return { text, widget: null };
    text.push(pickBySeed(FREE_TEXT_INVITE, `${seed}|invite`));
    return {
      text,
      widget: widgetEvent(probe, attempts, {
        kind: 'free_text',
        props: {
          prompt: 'In your own words, what do you remember about this one?',
          placeholder: 'Type what you remember…',
          context: clozeOf(probe.content),
          maxLength: FREE_TEXT_MAX_LENGTH,
        },
      }),
    };
  }

  const options = choiceOptions(input, probe);
  if (options.length < 2) return { text: [clozeCue(probe, seed, CUE_CLOZE_AGAIN)], widget: null };
  return {
    text: [pickBySeed(CHOICE_INTRO, `${seed}|choice`)],
    widget: widgetEvent(probe, attempts, {
      kind: 'multiple_choice',
      props: { prompt: `Which of these completes “${clozeOf(probe.content)}”?`, options },
    }),
  };
}

/** A widget for the probe point, with the tool-call id the offline evaluator can read back. */
function widgetEvent(probe: ChecklistPoint, attempts: number, widget: WidgetRequest): WidgetEvent {
  return { type: 'widget', toolCallId: offlineToolCallId(probe.id, attempts), widget };
}

function rabbitholeBody(input: TutorInput, seed: string): string[] {
  const parts: string[] = [];
  const n = input.justRecalled.length;
  if (n > 0) {
    parts.push(fill(pickBySeed(n === 1 ? RABBITHOLE_RECALL_ONE : RABBITHOLE_RECALL_MANY, `${seed}|rh-ack`), { n: countWord(n) }));
    if (!input.probePoint) parts.push(fill(RABBITHOLE_ALL_DONE[0], { title: input.title }));
  }
  const topic = input.rabbitholeTopic?.replace(/\s+/g, ' ').trim().replace(/[.!?]+$/u, '') || 'this tangent';
  parts.push(fill(pickBySeed(EXPLORE, `${seed}|explore`), { topic }));
  return parts;
}

/**
 * Composes the whole reply (text and optional widget) for one turn. Pure and deterministic.
 * `returning` is set when the learner just left a rabbit hole.
 */
export function composeReply(input: TutorInput, returning = false): ComposedReply {
  const probe = input.probePoint;
  const seed = `${input.turn}|${probe?.id ?? ''}`;
  const parts: string[] = [];
  if (returning) parts.push(pickBySeed(BACK_TO_REVIEW, `${seed}|back`));

  if (input.trigger === 'session_start') {
    const open = Math.max(1, input.checklist.filter((p) => !p.recalled).length);
    if (probe) parts.push(fill(pickBySeed(WELCOME, `${seed}|welcome`), { title: input.title, ideas: ideas(open) }));
    else parts.push(`Welcome! Everything in “${input.title}” is already covered — nothing left to review.`);
  }

  if (input.mode === 'rabbithole') {
    parts.push(...rabbitholeBody(input, seed));
    return { text: parts.join(' '), widget: null };
  }

  parts.push(...acknowledgement(input, seed));

  if (!probe) {
    if (input.trigger !== 'session_start') {
      parts.push(fill(pickBySeed(CLOSING, `${seed}|closing`), { title: input.title, ideas: ideas(input.checklist.length) }));
    }
    return { text: parts.join(' '), widget: null };
  }

  if (input.trigger !== 'session_start' && input.justRecalled.length === 0 && input.probeAttempts >= 1) {
    if (input.trigger === 'widget_answer') parts.push(pickBySeed(WIDGET_MISS, `${seed}|miss`));
    else if (input.probeAttempts === 1) parts.push(pickBySeed(NUDGE, `${seed}|nudge`));
  }

  const c = cue(input, probe, seed);
  parts.push(...c.text);
  return { text: parts.join(' '), widget: c.widget };
}

/**
 * The offline tutor's reply, streamed as a few text chunks and at most one widget — or, when
 * the learner opens or closes a tangent, the reply in the new mode and a `mode` event.
 */
export async function* replyOffline(input: TutorInput): AsyncGenerator<TutorEvent> {
  const change = tangentSignal(input);
  const effective: TutorInput = !change
    ? input
    : change.mode === 'rabbithole'
      ? { ...input, mode: 'rabbithole', rabbitholeTopic: change.topic }
      : { ...input, mode: 'recall', rabbitholeTopic: null, probeAttempts: 0 };
  const reply = composeReply(effective, change?.mode === 'recall');
  for (const text of splitIntoChunks(reply.text)) yield { type: 'text_delta', text };
  if (change) yield { type: 'mode', toolCallId: offlineModeToolCallId(input.turn, change.mode), change };
  else if (reply.widget) yield reply.widget;
}
