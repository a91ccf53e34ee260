/**
 * Sentences of a paragraph, cut into atomic statements and made self-contained (SPEC §4.7:
 * "atomic points — one idea each, self-contained (no 'it' without its noun)"). Each statement
 * keeps the exact span of the paragraph it came from, which becomes the proposal's quote.
 *
 * English heuristics, kept small and linear: a sentence ends at `.`, `!` or `?` before a space
 * and a capital (not after a common abbreviation or an initial); a compound sentence splits at
 * `;` and at `, and` / `, but` / `, while` / `, whereas` when what follows starts a clause of
 * its own (a determiner opens it); a statement opening with "It"/"They"/"Its" gets
 * the subject of the sentence before it, and one opening with "This"/"These"/"That"/"Such",
 * whose referent is a whole clause, is dropped.
 */

export interface Span {
  start: number;
  end: number;
}

/** One atomic statement: the text a point would hold, and the span of the paragraph it says. */
export interface Statement {
  content: string;
  quote: Span;
  /** The noun phrase this statement is about, when the sentence shows one ("The water cycle"). */
  subject: string | null;
}

const abbreviations = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'no', 'fig', 'approx', 'ca', 'al']);

function isUpperStart(character: string): boolean {
  return /[\p{Lu}\p{N}"“‘'(]/u.test(character);
}

/** The sentences of a paragraph, as spans (trailing closing quotes and brackets included). */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] ?? '';
    if (character !== '.' && character !== '!' && character !== '?') continue;
    let end = index + 1;
    while (end < text.length && /["”’')\]]/u.test(text[end] ?? '')) end += 1;
    if (end < text.length && text[end] !== ' ') continue;
    const nextStart = end + 1;
    if (end < text.length && !isUpperStart(text[nextStart] ?? '')) continue;
    if (character === '.') {
      let wordStart = index;
      while (wordStart > start && text[wordStart - 1] !== ' ') wordStart -= 1;
      const word = text.slice(wordStart, index).toLowerCase();
      // "J. Smith", "e.g. Paris": not the end of a sentence.
      if (abbreviations.has(word) || /^\p{L}$/u.test(word)) continue;
    }
    spans.push({ start, end });
    start = nextStart;
    index = end;
  }
  if (start < text.length && text.slice(start).trim() !== '') spans.push({ start, end: text.length });
  return spans.map((span) => trimSpan(text, span)).filter((span) => span.end > span.start);
}

function trimSpan(text: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && text[start] === ' ') start += 1;
  while (end > start && text[end - 1] === ' ') end -= 1;
  return { start, end };
}

/**
 * Words that open a clause of its own after ", and": its subject begins there. Not a pronoun:
 * in "The hardness of X is 3, so it scratches glass" the "it" is X, not the first clause's
 * subject, so such a sentence stays whole (and self-contained).
 */
const clauseOpeners = new Set(['the', 'a', 'an', 'some', 'many', 'most', 'each', 'all', 'every', 'no']);
const conjunctions = [', and ', ', but ', ', while ', ', whereas '];

/** The spans of a sentence's atomic parts (the sentence itself when it does not split cleanly). */
export function atomicSpans(text: string, sentence: Span): Span[] {
  const cuts: Array<{ at: number; resume: number }> = [];
  const body = text.slice(sentence.start, sentence.end);
  for (let index = 0; index < body.length; index += 1) {
    if (body[index] === ';' && body[index + 1] === ' ') {
      cuts.push({ at: index, resume: index + 2 });
      continue;
    }
    if (body[index] !== ',') continue;
    const conjunction = conjunctions.find((candidate) => body.startsWith(candidate, index));
    if (!conjunction) continue;
    const resume = index + conjunction.length;
    const nextWord = body.slice(resume, body.indexOf(' ', resume) < 0 ? body.length : body.indexOf(' ', resume)).toLowerCase();
    if (clauseOpeners.has(nextWord)) cuts.push({ at: index, resume });
  }
  const parts: Span[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push({ start: sentence.start + from, end: sentence.start + cut.at });
    from = cut.resume;
  }
  parts.push({ start: sentence.start + from, end: sentence.end });
  // Only a split whose every part is a statement of its own (four words or more) is kept.
  if (parts.length > 1 && parts.every((part) => text.slice(part.start, part.end).split(' ').length >= 4)) return parts;
  return [sentence];
}

/** Verbs that end a subject noun phrase ("Evaporation is", "Clouds consist"). */
const subjectVerbs = new Set(
  (
    'is are was were has have had can could will would may might must does do consists consist causes cause produces produce contains contain ' +
    'requires require takes take makes make forms form holds hold releases release absorbs absorb reduces reduce increases increase ' +
    'leads lead results result depends depend refers refer means mean becomes become remains remain happens happen occurs occur ' +
    'lies lie also often usually helps help describes describe'
  ).split(' '),
);
const determiners = new Set(['the', 'a', 'an', 'this', 'these', 'that', 'those', 'its', 'their', 'his', 'her', 'our', 'your', 'my']);

/** The subject of a sentence: the words before its first verb, when they make a short noun phrase. */
export function subjectOf(sentence: string): string | null {
  const words = sentence.split(' ').slice(0, 8);
  for (let index = 1; index < words.length; index += 1) {
    const word = (words[index] ?? '').toLowerCase();
    const previous = (words[index - 1] ?? '').toLowerCase();
    const isVerb = subjectVerbs.has(word) || (index >= 2 && word.length > 4 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !determiners.has(previous));
    if (!isVerb) continue;
    const subject = words.slice(0, index).join(' ');
    if (index > 5 || /[,;:()]/u.test(subject) || /^(?:it|they|this|these|that|those|there|he|she|we|you|i|in|on|at|for|with|by|from|when|if|as|because)$/iu.test(words[0] ?? '')) return null;
    return subject;
  }
  return null;
}

/** Openers whose referent is a whole clause or a person the paragraph named earlier: such a statement is dropped. */
const vagueOpeners = new Set(['this', 'these', 'that', 'those', 'such', 'he', 'she', 'we', 'here']);

/** A personal pronoun among a statement's first words, past its first: its noun is in another sentence. */
function hasLatePronoun(content: string): boolean {
  return content
    .split(' ')
    .slice(1, 6)
    .some((word) => ['it', 'they', 'he', 'she'].includes(word.toLowerCase()));
}

function capitalized(text: string): string {
  return text.length === 0 ? text : (text[0] ?? '').toUpperCase() + text.slice(1);
}

/** A part made a statement: first letter capital, closed by a full stop. */
function asStatement(part: string): string {
  let end = part.length;
  while (end > 0 && (part[end - 1] === ',' || part[end - 1] === ';' || part[end - 1] === ':')) end -= 1;
  const trimmed = part.slice(0, end);
  return capitalized(/[.!?]["”’')\]]*$/u.test(trimmed) ? trimmed : `${trimmed}.`);
}

/**
 * The atomic statements of a paragraph, each made self-contained; `subject` is what "It" refers
 * to at the paragraph's start (the previous paragraph's last subject), or null.
 */
export function paragraphStatements(text: string, subject: string | null): Statement[] {
  const statements: Statement[] = [];
  let current = subject;
  for (const sentence of sentenceSpans(text)) {
    for (const part of atomicSpans(text, sentence)) {
      const raw = text.slice(part.start, part.end);
      const firstSpace = raw.indexOf(' ');
      const first = firstSpace < 0 ? raw : raw.slice(0, firstSpace);
      const rest = firstSpace < 0 ? '' : raw.slice(firstSpace + 1);
      const opener = first.toLowerCase();
      let content: string | null = raw;
      if (opener === 'it' || opener === 'they') content = current ? `${current} ${rest}` : null;
      else if (opener === 'its' || opener === 'their') content = current ? `${current}'s ${rest}` : null;
      else if (vagueOpeners.has(opener)) content = null;
      // "In human muscles it produces …": a pronoun the statement cannot name is left out with it.
      if (content === null || hasLatePronoun(content)) continue;
      const own = subjectOf(raw);
      // "The hardness of X is 2. Its crystals …": the "its" is X, so a subject with "of" does
      // not become what a later pronoun names.
      if (own && !own.includes(' of ')) current = own;
      statements.push({ content: asStatement(content), quote: part, subject: own ?? (content === raw ? null : current) });
    }
  }
  return statements;
}
