/**
 * Sanitization of tutor output (SPEC §4.1): the learner must never see evaluator language,
 * point ids, confidences or scores. `findLeaks` names what leaked; `stripLeaks` removes
 * each sentence that carries a leak (used when a regenerated reply still leaks).
 */
export interface LeakCheck {
  leaks: string[];
}

const leakPatterns: Array<{ name: string; pattern: RegExp }> = [
  { name: 'evaluator', pattern: /\bevaluat(?:or|ion result)s?\b/i },
  { name: 'the student', pattern: /\bthe (?:student|learner|user)(?:'s|’s)?\b/i },
  // `\s*(?:[:=]\s*)?`, not `\s*[:=]?\s*`: the same text, without two runs of spaces trading characters (super-linear).
  { name: 'confidence score', pattern: /\bconfidence(?:\s+(?:score|level|of))?\s*(?:[:=]\s*)?(?:0?\.\d+|1\.0|\d{1,3}\s?%)/i },
  { name: 'score', pattern: /\bscore[sd]?\s*[:=]\s*\d/i },
  { name: 'recall point', pattern: /\b(?:recall|unchecked|pending)[ _-]points?\b/i },
  { name: 'internal note', pattern: /\b(?:feedback for the tutor|system note|internal note|hidden note)\b/i },
  { name: 'point id', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i },
];

/** Lists the kinds of internal language found in `text`, also any of the given ids. */
export function findLeaks(text: string, pointIds: readonly string[] = []): string[] {
  const leaks = leakPatterns.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
  for (const id of pointIds) {
    if (id.length >= 4 && text.includes(id)) leaks.push(`point id ${id}`);
  }
  return [...new Set(leaks)];
}

/** Drops every sentence that leaks; if nothing is left, a neutral prompt to go on. */
export function stripLeaks(text: string, pointIds: readonly string[] = []): string {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/);
  const kept = sentences.filter((sentence) => findLeaks(sentence, pointIds).length === 0);
  const result = kept.join(' ').replace(/\s{2,}/g, ' ').trim();
  return result || 'Let’s keep going — tell me what else you remember.';
}

/**
 * Words a multi-word leak can start with (see `leakPatterns`) and how many words such a
 * leak spans at most: text from such a word waits until it is that long.
 */
const leakStarts: Array<{ pattern: RegExp; words: number }> = [
  { pattern: /^the$/i, words: 2 },
  { pattern: /^confidence/i, words: 4 },
  { pattern: /^score[sd]?\b/i, words: 2 },
  { pattern: /^(?:recall|unchecked|pending)\b/i, words: 2 },
  { pattern: /^feedback$/i, words: 4 },
  { pattern: /^(?:system|internal|hidden)$/i, words: 2 },
];
const lookBackWords = Math.max(...leakStarts.map((start) => start.words));

/**
 * Screens a streamed reply before it reaches the learner. Text is forwarded as it arrives,
 * except a word still being written and, among the last few words, any from a word a leak
 * can start with ("the student's…", "confidence: 0.8") — those wait until later text shows
 * they do not complete a leak. Once the text so far leaks, nothing more is forwarded (the
 * engine then regenerates the reply once, else strips it — SPEC §4.1), so no part of a leak
 * is ever sent.
 */
export class LeakGuard {
  private text = '';
  private forwarded = 0;
  private leakFound: string[] = [];

  constructor(private readonly pointIds: readonly string[] = []) {}

  get leaked(): boolean {
    return this.leakFound.length > 0;
  }

  /** What leaked (empty while nothing has). */
  get leaks(): string[] {
    return this.leakFound;
  }

  /** The whole text received so far. */
  get received(): string {
    return this.text;
  }

  /** Takes a streamed piece; returns the part that is now safe to send ('' if none). */
  push(delta: string): string {
    this.text += delta;
    if (this.leaked) return '';
    const leaks = findLeaks(this.text, this.pointIds);
    if (leaks.length > 0) {
      this.leakFound = leaks;
      return '';
    }
    return this.release(safeLength(this.text, this.pointIds));
  }

  /** The stream ended: returns the held-back rest if the text is clean. */
  finish(): string {
    if (this.leaked) return '';
    return this.release(this.text.length);
  }

  private release(upTo: number): string {
    if (upTo <= this.forwarded) return '';
    const out = this.text.slice(this.forwarded, upTo);
    this.forwarded = upTo;
    return out;
  }
}

/** Single words a leak can begin with, as written in full. */
const leakWords = ['evaluator', 'evaluation', 'the', 'confidence', 'score', 'scored', 'scores', 'recall', 'unchecked', 'pending', 'feedback', 'system', 'internal', 'hidden'];

/** True when `word`, still being written, could turn into the start of a leak. */
function couldStartLeak(word: string, pointIds: readonly string[]): boolean {
  const lower = word.toLowerCase().replace(/^[^a-z0-9]+/, '');
  if (lower.length === 0) return false;
  // An id (a UUID or any point id) may be streamed in pieces.
  if (/^[0-9a-f-]+$/.test(lower) || pointIds.some((id) => id.toLowerCase().startsWith(lower))) return true;
  return leakWords.some((leak) => leak.startsWith(lower) || lower.startsWith(leak));
}

/** Length of the prefix of `text` that cannot be part of a leak still being written. */
function safeLength(text: string, pointIds: readonly string[] = []): number {
  const words = lastWords(text, lookBackWords);
  let safe = text.length;
  const last = words.at(-1);
  // A word with nothing after it yet may still grow into a leak ("evaluator", an id, "the"):
  // it waits only if it could.
  if (last && last.index + last.word.length === text.length && couldStartLeak(last.word, pointIds)) safe = last.index;
  for (const [position, word] of words.entries()) {
    if (word.index >= safe) break;
    const wordsSoFar = words.length - position;
    if (leakStarts.some((start) => start.pattern.test(word.word) && wordsSoFar < start.words)) {
      safe = word.index;
      break;
    }
  }
  return safe;
}

const whitespace = /\s/;

/**
 * The last `count` words of `text` (runs of non-space, as `\S+` finds them) and where each
 * starts, read from the end: the guard runs on every streamed piece, and splitting the whole
 * reply each time grew with the square of its length.
 */
function lastWords(text: string, count: number): Array<{ index: number; word: string }> {
  const words: Array<{ index: number; word: string }> = [];
  let end = text.length;
  while (words.length < count) {
    while (end > 0 && whitespace.test(text[end - 1]!)) end -= 1;
    if (end === 0) break;
    let start = end;
    while (start > 0 && !whitespace.test(text[start - 1]!)) start -= 1;
    words.unshift({ index: start, word: text.slice(start, end) });
    end = start;
  }
  return words;
}

/** Options the tutor wrote as text instead of calling `present_choices`. */
export interface PlainChoices {
  /** The question the options answer. */
  prompt: string;
  options: string[];
  /** The reply without the options (and without the question, which the widget shows). */
  remainder: string;
}

// The option ends on a non-space: `(\S.*?)\s*$` tried every split of trailing spaces (quadratic).
const listedOption = /^\s*(?:\(?([A-Fa-f])[).:]|([1-6])[).])\s+(\S(?:.*\S)?)\s*$/;

/**
 * Finds a multiple-choice question written as text: a question followed by 2–6 lines
 * lettered A–F (or a–f, "(a)") or numbered 1–6 in order, or an inline "(a) …, (b) … or
 * (c) …?". Bullet lists are not options: explanations use them all the time.
 */
export function findPlainChoices(text: string): PlainChoices | null {
  return findListedChoices(text) ?? findInlineChoices(text);
}

function findListedChoices(text: string): PlainChoices | null {
  const lines = text.split('\n');
  for (let start = 0; start < lines.length; start += 1) {
    const options: string[] = [];
    let expected = 0;
    let end = start;
    for (; end < lines.length && options.length < 6; end += 1) {
      const match = listedOption.exec(lines[end]!);
      if (!match) break;
      const marker = match[1] ? match[1].toLowerCase().charCodeAt(0) - 97 : Number(match[2]) - 1;
      if (marker !== expected) break;
      expected += 1;
      options.push(cleanOption(match[3]!));
    }
    if (options.length < 2) continue;
    const before = lines.slice(0, start).join('\n').trim();
    const question = lastQuestion(before);
    if (!question) continue;
    const after = lines.slice(end).join('\n').trim();
    const lead = before.slice(0, before.length - question.length).trim();
    return { prompt: question, options: dedupe(options), remainder: [lead, after].filter(Boolean).join('\n\n') };
  }
  return null;
}

function findInlineChoices(text: string): PlainChoices | null {
  const match = readInlineChoices(text);
  if (!match) return null;
  const options = dedupe(match.options.map(cleanOption));
  if (options.length < 2) return null;
  // The question is the sentence holding the options, up to where they start.
  const sentenceStart = Math.max(text.lastIndexOf('. ', match.index) + 1, text.lastIndexOf('\n', match.index) + 1, 0);
  // The lookbehind starts the match where the trailing run starts, so the run is read once.
  const stem = text.slice(sentenceStart, match.index).replace(/(?<![\s:,—-])[\s:,—-]+$/u, '').trim();
  const prompt = stem ? `${stem}?` : 'Which one is it?';
  const remainder = (text.slice(0, sentenceStart) + text.slice(match.end)).replace(/\s{2,}/g, ' ').trim();
  return { prompt, options, remainder };
}

function cleanOption(option: string): string {
  return dropTrailingJoiner(option.replace(/^\*\*(.*)\*\*$/, '$1')).replace(/[.]$/, '').trim();
}

const isSpace = (character: string | undefined) => character !== undefined && /\s/.test(character);

/** Drops what /[,;]?\s*(?:or)?$/i matched (", or", ";", trailing spaces) without trying it from every space. */
function dropTrailingJoiner(option: string): string {
  let end = option.length;
  if (option.slice(-2).toLowerCase() === 'or') end -= 2;
  while (end > 0 && isSpace(option[end - 1])) end -= 1;
  if (option[end - 1] === ',' || option[end - 1] === ';') end -= 1;
  return option.slice(0, end);
}

/**
 * An inline "(a) …, (b) … or (c) …?" (up to "(d)", markers in any case), read in one pass.
 * Each option is text on one line, up to a separator (`[,;]? spaces (or spaces)?`, which may
 * break the line) and the next marker, or — from "(b)" on — up to spaces and the "?" that ends
 * the list. It replaces /\(a\)\s*(.+?)[,;]?\s+(?:or\s+)?\(b\)\s*(.+?)(?:…\(c\)…)?(?:…\(d\)…)?\s*\?/i,
 * whose lazy options backtracked into one another: a tutor reply of 3,000 characters of
 * "(c) x (d) y" held the server for seconds. Same options on well-formed lists; on a malformed
 * one it does not backtrack to look for a later "(b)", "(c)" or "(d)".
 */
export function readInlineChoices(text: string): { index: number; end: number; options: string[] } | null {
  const start = /\(a\)/gi;
  for (let marker = start.exec(text); marker; marker = start.exec(text)) {
    const options: string[] = [];
    let position = marker.index + 3;
    let failedAt = text.length;
    for (const next of ['b', 'c', 'd', null] as const) {
      while (isSpace(text[position])) position += 1;
      if (position >= text.length) break;
      const option = readInlineOption(text, position, next, options.length > 0);
      if (typeof option === 'number') {
        failedAt = option;
        break;
      }
      options.push(option.text);
      position = option.resume;
      if (option.last) return { index: marker.index, end: position, options };
    }
    // An option ran into a line break: a list from an earlier "(a)" would too, so go on after it.
    if (failedAt >= text.length) return null;
    start.lastIndex = Math.max(start.lastIndex, failedAt);
  }
  return null;
}

/** One option from `from`: its text and where reading goes on, or where it ran into a line break (or the end). */
function readInlineOption(text: string, from: number, next: 'b' | 'c' | 'd' | null, mayEnd: boolean): { text: string; resume: number; last: boolean } | number {
  for (let end = from + 1; end <= text.length; end += 1) {
    // A separator or the closing spaces start where a run of spaces starts; checked only there, each run is read once.
    if (!isSpace(text[end - 1])) {
      const marker = next ? markerAfterSeparator(text, end, next) : -1;
      if (marker >= 0) return { text: text.slice(from, end), resume: marker + 3, last: false };
      if (mayEnd) {
        let question = end;
        while (isSpace(text[question])) question += 1;
        if (text[question] === '?') return { text: text.slice(from, end), resume: question + 1, last: true };
      }
    }
    if (end === text.length || /[\n\r\u2028\u2029]/.test(text[end]!)) return end;
  }
  return text.length;
}

/** Where "(letter)" (any case) starts after a separator `[,;]? spaces (or spaces)?` starting at `at`, or -1. */
function markerAfterSeparator(text: string, at: number, letter: 'b' | 'c' | 'd'): number {
  const markerAt = (position: number) => text[position] === '(' && text[position + 1]?.toLowerCase() === letter && text[position + 2] === ')';
  let position = at;
  if (text[position] === ',' || text[position] === ';') position += 1;
  const spaces = position;
  while (isSpace(text[position])) position += 1;
  if (position === spaces) return -1;
  if (text.slice(position, position + 2).toLowerCase() === 'or' && isSpace(text[position + 2])) {
    let after = position + 2;
    while (isSpace(text[after])) after += 1;
    if (markerAt(after)) return after;
  }
  return markerAt(position) ? position : -1;
}

function dedupe(options: string[]): string[] {
  return [...new Set(options.filter(Boolean))];
}

/** The last sentence of `text` if it is a question. */
function lastQuestion(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.endsWith('?') && !trimmed.endsWith('?:') && !/\?\s*$/.test(trimmed)) {
    // "Which of these is right:" also introduces options: "which" or "what" after the last
    // sentence end, and a colon last (read once; /(?:which|what)[^.!?]*:\s*$/i re-read the rest
    // from every "what").
    const lastStop = Math.max(trimmed.lastIndexOf('.'), trimmed.lastIndexOf('!'), trimmed.lastIndexOf('?'));
    if (!trimmed.endsWith(':') || !/which|what/i.test(trimmed.slice(lastStop + 1))) return null;
  }
  const sentences = trimmed.split(/(?<=[.!])\s+|\n+/);
  const last = sentences.at(-1)?.trim();
  return last ? last.replace(/:\s*$/, '?') : null;
}
