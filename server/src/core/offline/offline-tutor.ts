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
 *   attempt ≥2 → a multiple-choice widget: the probe's content among up to three
 *                distractors — recalled points' contents first (they spoil nothing), then
 *                term-level substitutes of the probe (offline-choices.ts) — never a point still to
 *                recall; in an order fixed by a hash of the point id. With no safe distractor
 *                it repeats the cloze instead.
 *
 * After a miss the next cue turns on a different key idea than the last cue named (one the
 * learner has not expressed yet, when there is one). A question or request for clarification
 * (learner-message.ts) is answered briefly — from the author's context, the set's title, an
 * already recalled point, or an honest "that's what we're trying to recall" — and the same
 * cue follows at the same level, without "not quite" (issue 15). A recall is acknowledged in
 * the learner's own words (the words that expressed the point's ideas, idea-match.ts).
 *
 * Whatever the template, the final text passes a frame guard: it names at most the one key
 * term of the probe its cue allows, and gives away no other point still to recall (lexically
 * or by the evaluator's own paraphrase-aware match) — offending words are masked.
 *
 * In `rabbithole` mode it follows the learner's tangent and never cues; recalls are still
 * acknowledged briefly. It enters and leaves rabbit holes by its own judgment too, on the
 * learner's explicit phrasing (see `offline-tangent.ts`), and says so with a `mode` event. It never names point ids, confidences, scores or the evaluator, and
 * never repeats the evaluator's feedback. Phrasing varies by a hash of turn + point id.
 * Every cue passes through `guardCue` (at most one key term of the probe point); the set
 * title is the author's own and is quoted as is. Its phrase variants live in `tutor-phrases.ts`.
 */
import type { ChecklistPoint, TutorEvent, TutorInput, WidgetRequest } from '../provider';
import { codeLanguageFor, codeSpanOf } from './code-points';
import { anchorFor, clozeOf, contextPhrase, guardCue } from './cue-builder';
import { matchPoint, prepareMessage } from './idea-match';
import { latestLearnerEvidence } from './learner-evidence';
import { classifyLearnerMessage, isStuck } from './learner-message';
import { extractKeyTerms, normalizeText, type KeyTerm } from './lexical';
import { givesAway, maskPoint, mentionedTerms } from './spoilers';
import { pickBySeed } from './stable-hash';
import { tangentSignal } from './offline-tangent';
import { isCard } from './question-answer';
import { answerQuestion } from './offline-answers';
import { cardChoiceOptions, choiceOptions, choicePrompt, stillUnchecked } from './offline-choices';
import { splitIntoChunks } from './text-chunks';
import { offlineModeToolCallId, offlineToolCallId } from './tool-call-ids';
import {
  ACK_MANY,
  ACK_ONE,
  ACK_OWN_MANY,
  ACK_OWN_ONE,
  ACK_TWO,
  BACK_TO_REVIEW,
  capitalize,
  CHOICE_INTRO,
  CHOICES_STILL_OPEN,
  CLOSING,
  CODE_INVITE,
  countWord,
  CUE_ANCHOR,
  CUE_CLOZE,
  CUE_CARD_AGAIN,
  CUE_CLOZE_AGAIN,
  CUE_CONTEXT,
  CUE_CONTEXT_QUESTION,
  EXPLORE,
  fill,
  FREE_TEXT_INVITE,
  ideas,
  NUDGE,
  ONE_TO_GO,
  pickTemplate,
  RABBITHOLE_ALL_DONE,
  RABBITHOLE_RECALL_MANY,
  RABBITHOLE_RECALL_ONE,
  STUCK_HELP,
  TO_GO,
  WELCOME,
  WIDGET_MISS,
  type Variants,
} from './tutor-phrases';

export { countWord } from './tutor-phrases';
export { choicePrompt, MAX_CHOICE_OPTIONS } from './offline-choices';

type WidgetEvent = Extract<TutorEvent, { type: 'widget' }>;

/** The reply as composed before streaming. */
export interface ComposedReply {
  text: string;
  widget: WidgetEvent | null;
}

/** A reply's sentences, normalised, for telling a repeated sentence. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?”])\s+/)
    .map((sentence) => normalizeText(sentence))
    .filter(Boolean);
}

/** Phrasing variants tried for a `retry` before giving up on saying it differently. */
const maxRetryVariants = 12;

/** Points at least this long (characters) are also offered a free-text widget on attempt 1. */
export const LONG_CONTENT_LENGTH = 160;
/** Longest answer the free-text widget asks for. */
export const FREE_TEXT_MAX_LENGTH = 1000;

function remainingAfterTurn(input: TutorInput): number {
  const just = new Set(input.justRecalled.map((p) => p.id));
  return input.checklist.filter((p) => !p.recalled && !just.has(p.id)).length;
}

// ---------------------------------------------------------------------------------------
// Parts

/** The latest learner-authored text (a chat message or a widget answer), if any. */
function latestLearnerText(input: TutorInput): string | null {
  return latestLearnerEvidence(input.conversation)?.text ?? null;
}

/** The tutor's previous message (the last cue), if any. */
function lastTutorMessage(input: TutorInput): Extract<TutorInput['conversation'][number], { role: 'tutor' }> | null {
  for (let i = input.conversation.length - 1; i >= 0; i--) {
    const message = input.conversation[i];
    if (message?.role === 'tutor') return message;
  }
  return null;
}

/** True when the tutor's last widget is still waiting for an answer (the learner chatted instead). */
function widgetPending(input: TutorInput): boolean {
  const last = lastTutorMessage(input);
  const id = last?.toolCall?.id;
  return !!id && !input.conversation.some((message) => message.role === 'tool_result' && message.toolCallId === id);
}

/** Up to three of the learner's own words that expressed the recalled points' ideas, none naming a point still to recall. */
function learnersOwnWords(input: TutorInput): string[] {
  const said = latestLearnerText(input);
  if (!said) return [];
  const message = prepareMessage(said);
  const open = stillUnchecked(input);
  const words: string[] = [];
  for (const point of input.justRecalled) {
    for (const hit of matchPoint(message, point.content).hits) {
      const phrase = hit.words.replace(/\s+/g, ' ').trim();
      if (!phrase || phrase.length > 40 || words.some((w) => w.toLowerCase() === phrase.toLowerCase())) continue;
      if (open.some((p) => mentionedTerms(phrase, p.content).length > 0)) continue;
      words.push(phrase);
      if (words.length === 3) return words;
    }
  }
  return words;
}

function quoteList(words: readonly string[]): string {
  const quoted = words.map((w) => `“${w}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

function acknowledgement(input: TutorInput, seed: string): string[] {
  const n = input.justRecalled.length;
  if (n === 0) return [];
  const own = learnersOwnWords(input);
  const parts = own.length > 0
    ? [fill(pickBySeed(n === 1 ? ACK_OWN_ONE : ACK_OWN_MANY, `${seed}|ack`), { words: quoteList(own), n: countWord(n) })]
    : [fill(pickBySeed(n === 1 ? ACK_ONE : n === 2 ? ACK_TWO : ACK_MANY, `${seed}|ack`), { n: countWord(n) })];
  const left = remainingAfterTurn(input);
  if (input.probePoint && left > 0) {
    parts.push(capitalize(fill(pickBySeed(left === 1 ? ONE_TO_GO : TO_GO, `${seed}|left`), { n: countWord(left) })));
  }
  return parts;
}

/** The key terms of a point, the ones a cue can name first (not numbers or short acronyms). */
function cueableTerms(content: string): KeyTerm[] {
  const terms = extractKeyTerms(content);
  if (terms.length < 2) return [];
  return [...terms.filter((t) => !t.exact), ...terms.filter((t) => t.exact)];
}

/**
 * The key idea a cue names. A question returns to the same cue (the term the last cue named);
 * after a miss the cue turns to a different idea than the last one — one the learner has not
 * expressed yet when there is one (issue 15); the opening cue names the point's first anchor.
 */
function chooseAnchor(input: TutorInput, probe: ChecklistPoint, asked: boolean): KeyTerm | null {
  const terms = cueableTerms(probe.content);
  if (terms.length === 0) return null;
  const last = lastTutorMessage(input);
  const lastPrompt = typeof last?.toolCall?.input['prompt'] === 'string' ? last.toolCall.input['prompt'] : '';
  const lastNamed = new Set(last ? mentionedTerms(`${last.content} ${lastPrompt}`, probe.content).map((t) => t.stem) : []);
  if (asked) return terms.find((t) => lastNamed.has(t.stem)) ?? terms[0] ?? null;
  if (Math.floor(input.probeAttempts) <= 0 || lastNamed.size === 0) return anchorFor(probe.content);
  const said = new Set(mentionedTerms(latestLearnerText(input) ?? '', probe.content).map((t) => t.stem));
  return terms.find((t) => !lastNamed.has(t.stem) && !said.has(t.stem)) ?? terms.find((t) => !lastNamed.has(t.stem)) ?? terms[0] ?? null;
}

/** A card's question, with a question mark unless it has one ("Capital of France" → "Capital of France?"). */
function cardQuestion(point: ChecklistPoint): string {
  const question = contextPhrase(point.context) ?? '';
  return /[?:]$/.test(question) ? question : `${question.replace(/(?<![.!;,])[.!;,]+$/u, '')}?`;
}

function openCue(point: ChecklistPoint, seed: string, anchor: KeyTerm | null): string {
  // A card is asked by its question, even when the question names its answer's meaning
  // (WordNet knows "capital of France" as "Paris"): the answer is what must be said.
  if (isCard(point)) return fill(pickTemplate(CUE_CONTEXT_QUESTION, seed, point.content), { context: cardQuestion(point) });
  const context = contextPhrase(point.context);
  // An author's context that says the point itself (the evaluator would take it as recall) is not quoted.
  if (context && !matchPoint(prepareMessage(context), point.content).recalled) {
    const question = /\?$/.test(context);
    const template = pickTemplate(question ? CUE_CONTEXT_QUESTION : CUE_CONTEXT, seed, point.content);
    const text = fill(template, { context: question ? context : context.replace(/(?<![.!;:,])[.!;:,]+$/u, '') });
    return guardCue(text, point.content, anchor ? 'first' : null);
  }
  if (anchor) {
    const template = pickTemplate(CUE_ANCHOR, seed, point.content);
    return guardCue(fill(template, { anchor: anchor.surface }), point.content, anchor);
  }
  return clozeCue(point, seed, CUE_CLOZE, anchor);
}

function clozeCue(point: ChecklistPoint, seed: string, variants: Variants, anchor: KeyTerm | null): string {
  const template = pickTemplate(variants, seed, point.content);
  return guardCue(fill(template, { cloze: clozeOf(point.content, anchor) }), point.content, anchor);
}

/**
 * A card after a miss: its question again (level 1), then with the answers of other recalled
 * cards or nearby numbers as choices (level 2 on) — never a masked answer, which would give
 * its length and first letter away; with no safe choice, the question again in other words.
 */
function cardCue(input: TutorInput, probe: ChecklistPoint, seed: string, asked: boolean): { text: string[]; widget: WidgetEvent | null } {
  const attempts = Math.max(0, Math.floor(input.probeAttempts));
  if (asked && widgetPending(input)) return { text: [pickBySeed(CHOICES_STILL_OPEN, `${seed}|open`)], widget: null };
  // Choices come at level 2, as for every point; level 1 asks again.
  const options = attempts >= 2 ? cardChoiceOptions(input, probe) : [];
  if (options.length < 2) return { text: [fill(pickBySeed(CUE_CARD_AGAIN, `${seed}|card`), { context: cardQuestion(probe) })], widget: null };
  return {
    text: [pickBySeed(CHOICE_INTRO, `${seed}|choice`)],
    widget: widgetEvent(probe, attempts, { kind: 'multiple_choice', props: { prompt: cardQuestion(probe), options } }),
  };
}

function cue(input: TutorInput, probe: ChecklistPoint, seed: string, anchor: KeyTerm | null, asked: boolean): { text: string[]; widget: WidgetEvent | null } {
  const attempts = Math.max(0, Math.floor(input.probeAttempts));
  if (attempts === 0) return { text: [openCue(probe, seed, anchor)], widget: null };
  if (isCard(probe)) return cardCue(input, probe, seed, asked);

  if (attempts === 1) {
    const text = [clozeCue(probe, seed, asked ? CUE_CLOZE_AGAIN : CUE_CLOZE, anchor)];
    if (codeSpanOf(probe.content)) {
      const language = codeLanguageFor(probe);
      text.push(pickBySeed(CODE_INVITE, `${seed}|code`));
      return {
        text,
        widget: widgetEvent(probe, attempts, {
          kind: 'code_editor',
          props: {
            prompt: guardCue(`Write the code this describes: “${clozeOf(probe.content, anchor)}”`, probe.content, anchor),
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
          context: clozeOf(probe.content, anchor),
          maxLength: FREE_TEXT_MAX_LENGTH,
        },
      }),
    };
  }

  // The learner asked while the choices are open: point back to them rather than ask anew.
  if (asked && widgetPending(input)) return { text: [pickBySeed(CHOICES_STILL_OPEN, `${seed}|open`)], widget: null };
  const options = choiceOptions(input, probe);
  if (options.length < 2) return { text: [clozeCue(probe, seed, CUE_CLOZE_AGAIN, anchor)], widget: null };
  return {
    text: [pickBySeed(CHOICE_INTRO, `${seed}|choice`)],
    widget: widgetEvent(probe, attempts, {
      kind: 'multiple_choice',
      props: { prompt: choicePrompt(probe.content, options, clozeOf(probe.content, anchor)), options },
    }),
  };
}

/** A widget for the probe point, with the tool-call id the offline evaluator can read back. */
function widgetEvent(probe: ChecklistPoint, attempts: number, widget: WidgetRequest): WidgetEvent {
  return { type: 'widget', toolCallId: offlineToolCallId(probe.id, attempts), widget };
}

/**
 * The frame guard: the text names at most the probe's allowed key term (`keep`, the one its cue
 * names) and gives no other point still to recall away, lexically or by the evaluator's match.
 */
function guardFrame(text: string, input: TutorInput, probe: ChecklistPoint | null, keep: KeyTerm | null): string {
  // The learner's own set title is quoted as they wrote it, never masked (issue 28): it is set
  // aside behind a marker with no letters while the guards run, then put back.
  const title = input.title.trim();
  const marker = '\u{F8FF}';
  const titled = title.length > 0 && text.includes(title);
  let out = titled ? text.split(title).join(marker) : text;
  if (probe) out = guardCue(out, probe.content, keep);
  for (const point of stillUnchecked(input)) {
    if (point.id === probe?.id) continue;
    if (givesAway(out, point.content) || matchPoint(prepareMessage(out), point.content).recalled) out = maskPoint(out, point.content, null);
  }
  return titled ? out.split(marker).join(title) : out;
}

function rabbitholeBody(input: TutorInput, seed: string): string[] {
  const parts: string[] = [];
  const n = input.justRecalled.length;
  if (n > 0) {
    parts.push(fill(pickBySeed(n === 1 ? RABBITHOLE_RECALL_ONE : RABBITHOLE_RECALL_MANY, `${seed}|rh-ack`), { n: countWord(n) }));
    if (!input.probePoint) parts.push(fill(RABBITHOLE_ALL_DONE[0], { title: input.title }));
  }
  const topic = input.rabbitholeTopic?.replace(/\s+/g, ' ').trim().replace(/(?<![.!?])[.!?]+$/u, '') || 'this tangent';
  parts.push(fill(pickBySeed(EXPLORE, `${seed}|explore`), { topic }));
  return parts;
}

/** True when the learner's message this turn was a question (never graded: answered, then the same cue). */
export function learnerAsked(input: TutorInput): boolean {
  if (input.trigger !== 'learner_message' || input.mode !== 'recall' || input.justRecalled.length > 0) return false;
  const evidence = latestLearnerEvidence(input.conversation);
  return evidence?.source === 'chat' && classifyLearnerMessage(evidence.text) === 'question';
}

/**
 * Composes the whole reply (text and optional widget) for one turn. Pure and deterministic.
 * `returning` is set when the learner just left a rabbit hole.
 */
export function composeReply(input: TutorInput, returning = false, variant = 0): ComposedReply {
  const probe = input.probePoint;
  // Phrasing follows the seed: another variant picks other phrasings for the same reply.
  const seed = `${input.turn}|${probe?.id ?? ''}${variant > 0 ? `|v${variant}` : ''}`;
  const parts: string[] = [];
  if (returning) parts.push(pickBySeed(BACK_TO_REVIEW, `${seed}|back`));

  if (input.trigger === 'session_start') {
    const open = Math.max(1, input.checklist.filter((p) => !p.recalled).length);
    if (probe) parts.push(fill(pickBySeed(WELCOME, `${seed}|welcome`), { title: input.title, ideas: ideas(open) }));
    else parts.push(`Welcome! Everything in “${input.title}” is already covered — nothing left to review.`);
  }

  if (input.mode === 'rabbithole') {
    parts.push(...rabbitholeBody(input, seed));
    // The learner's own tangent is quoted: only a point it would give away is masked.
    return { text: guardFrame(parts.join(' '), input, null, null), widget: null };
  }

  parts.push(...acknowledgement(input, seed));

  if (!probe) {
    if (input.trigger !== 'session_start') {
      parts.push(fill(pickBySeed(CLOSING, `${seed}|closing`), { title: input.title, ideas: ideas(input.checklist.length) }));
    }
    return { text: parts.join(' '), widget: null };
  }

  const asked = !returning && learnerAsked(input);
  if (asked) {
    parts.push(answerQuestion(input, probe, latestLearnerText(input) ?? '', seed));
  } else if (input.trigger !== 'session_start' && input.justRecalled.length === 0 && input.probeAttempts >= 1) {
    if (input.trigger === 'widget_answer') parts.push(pickBySeed(WIDGET_MISS, `${seed}|miss`));
    // "hint please" asked for the stronger cue: it gets it, without a verdict on an answer never given.
    else if (isStuck(latestLearnerText(input) ?? '')) parts.push(pickBySeed(STUCK_HELP, `${seed}|stuck`));
    else if (input.probeAttempts === 1) parts.push(pickBySeed(NUDGE, `${seed}|nudge`));
  }

  const anchor = chooseAnchor(input, probe, asked);
  const c = cue(input, probe, seed, anchor, asked);
  // The one key term of the probe the cue itself names is the only one the frame may name.
  const keep = mentionedTerms(c.text.join(' '), probe.content)[0] ?? null;
  parts.push(...c.text);
  return { text: guardFrame(parts.join(' '), input, probe, keep), widget: c.widget };
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
  let reply = composeReply(effective, change?.mode === 'recall');
  // Never the same sentence twice in a row (issue 28): a retry says the replaced reply
  // differently, and a reply repeats no sentence of the tutor's last one — the first phrasing
  // variant that shares none, else the one that shares fewest.
  const avoid = input.retryOf ?? (input.trigger === 'session_start' ? undefined : lastTutorMessage(effective)?.content);
  if (avoid !== undefined) {
    const said = new Set(sentencesOf(avoid));
    const repeats = (text: string) => sentencesOf(text).filter((sentence) => said.has(sentence)).length + (input.retryOf !== undefined && normalizeText(text) === normalizeText(avoid) ? 1 : 0);
    let best = { reply, repeats: repeats(reply.text) };
    for (let variant = 1; variant <= maxRetryVariants && best.repeats > 0; variant += 1) {
      const candidate = composeReply(effective, change?.mode === 'recall', variant);
      const count = repeats(candidate.text);
      if (count < best.repeats) best = { reply: candidate, repeats: count };
    }
    reply = best.reply;
  }
  for (const text of splitIntoChunks(reply.text)) yield { type: 'text_delta', text };
  if (change) yield { type: 'mode', toolCallId: offlineModeToolCallId(input.turn, change.mode), change };
  else if (reply.widget) yield reply.widget;
}
