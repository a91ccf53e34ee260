/**
 * What a learner's message is doing in the conversation, read before anything judges it
 * (issue 28 item 1): the offline learning tutor, the offline recall tutor and the thought
 * partner all ask this first, so "ok", "got it" or "hint please" is never graded as a wrong
 * answer, a hedged answer ("is it 64?", "maybe 5?") is judged as an answer, and a real
 * question is answered rather than graded.
 *
 * The reader works on the message's dialogue form, not on any subject's vocabulary:
 *
 * - **continue** — an acknowledgement: every word is one of a closed set of acknowledgement
 *   and politeness words ("ok", "got it", "makes sense", "please go on", "next", "thanks"),
 *   or the message is only emoji/punctuation ("👍", "...");
 * - **stuck** — the learner says they do not know or asks for help ("I don't know", "no
 *   idea", "hint please", "I'm lost"), and nothing else of substance is left once those
 *   phrases, fillers and politeness words are taken away;
 * - **answer** — an attempt; `hedged` when it came wrapped in uncertainty ("I think…",
 *   "maybe…", "is it …?", "could it be …?", a bare "64?"), with `answer` the attempt with the
 *   wrapping removed, so it can be judged like any other answer;
 * - **question** — it asks something of the tutor (a wh-question, an inverted question that
 *   is not a guess, "can you explain…");
 * - **remark** — a statement about what the learner already knows or noticed ("I know that 47
 *   is 4 tens and 7 ones", "I remember that…"): not an attempt at the open question.
 *
 * Everything here is linear in the message's length: words are read one at a time against
 * sets, never with backtracking patterns.
 */

export type LearnerIntent =
  | { kind: 'continue' }
  | { kind: 'stuck'; wantsHint: boolean }
  | { kind: 'question' }
  | { kind: 'remark' }
  | { kind: 'answer'; answer: string; hedged: boolean };

/** Words of an acknowledgement (all of a "continue" message's words come from here). */
const acknowledgementWords = new Set(
  (
    'ok okay okey okie k kk alright allright aight sure yes yeah yea ya yep yup fine cool great nice good perfect awesome ' +
    'excellent lovely right gotcha aha ah oh i see got it understood understand follow following clear makes make sense sounds ' +
    'go on ahead continue next proceed move keep going carry ready lets let us please pls plz thanks thank you ty thx cheers ' +
    'much all that this the me more tell show am and so now then well really very too interesting true fair enough get'
  ).split(' '),
);
/** At least one of these must be present for a message to be an acknowledgement. */
const acknowledgementCore = new Set(
  (
    'ok okay okey okie k kk alright allright aight sure yes yeah yea ya yep yup fine cool great nice good perfect awesome excellent ' +
    'lovely gotcha aha see got understood understand follow following clear sense sounds go ahead continue next proceed move ' +
    'ready thanks thank ty thx cheers interesting true enough'
  ).split(' '),
);
/** A negation turns "I understand" into "I don't understand". */
const negationWords = new Set(['not', 'no', 'never', 'nope', 'nah']);

/** Sounds and openers that carry no content ("um", "so", "well"). */
const fillerWords = new Set('um umm ummm uh uhh uhm er erm hm hmm hmmm mm mmm well so oh ah like basically actually okay ok right and but also anyway sorry'.split(' '));

/** Phrases of not knowing or asking for help, as word sequences. */
const stuckPhrases: readonly (readonly string[])[] = [
  ['i', 'do', 'not', 'know'],
  ['do', 'not', 'know'],
  ['dont', 'know'],
  ['no', 'idea'],
  ['no', 'clue'],
  ['not', 'a', 'clue'],
  ['not', 'sure'],
  ['i', 'am', 'not', 'sure'],
  ['idk'],
  ['dunno'],
  ['i', 'am', 'lost'],
  ['i', 'am', 'stuck'],
  ['i', 'am', 'confused'],
  ['lost'],
  ['stuck'],
  ['confused'],
  ['i', 'do', 'not', 'get', 'it'],
  ['i', 'do', 'not', 'understand'],
  ['i', 'give', 'up'],
  ['give', 'up'],
  ['pass'],
  ['help'],
  ['help', 'me'],
  ['hint'],
  ['hints'],
  ['a', 'hint'],
  ['another', 'hint'],
  ['clue'],
  ['a', 'clue'],
  ['give', 'me', 'a', 'hint'],
  ['can', 'i', 'have', 'a', 'hint'],
  ['can', 'i', 'get', 'a', 'hint'],
  ['could', 'i', 'have', 'a', 'hint'],
  ['can', 'you', 'give', 'me', 'a', 'hint'],
  ['could', 'you', 'give', 'me', 'a', 'hint'],
  ['tell', 'me', 'the', 'answer'],
  ['what', 'is', 'the', 'answer'],
  ['no', 'i', 'do', 'not'],
  ['i', 'have', 'no', 'idea'],
  ['i', 'can', 'not', 'remember'],
  ['can', 'not', 'remember'],
  ['i', 'forgot'],
  ['i', 'forget'],
  ['not', 'really'],
];
const hintWords = new Set(['hint', 'hints', 'clue', 'help']);
/** Words that may surround a stuck phrase without adding substance. */
const politeWords = new Set('please pls plz thanks thank you maybe sorry really honestly totally at all yet here this that one it me again just any some'.split(' '));

/** Openings that wrap an answer in uncertainty, longest first within each family. */
const hedgeOpenings: readonly (readonly string[])[] = [
  ['i', 'am', 'not', 'sure', 'but'],
  ['not', 'sure', 'but'],
  ['i', 'do', 'not', 'know', 'but'],
  ['i', 'think', 'that'],
  ['i', 'think'],
  ['i', 'guess'],
  ['i', 'believe'],
  ['i', 'suppose'],
  ['i', 'would', 'say'],
  ['my', 'guess', 'is'],
  ['my', 'answer', 'is'],
  ['maybe'],
  ['perhaps'],
  ['probably'],
  ['possibly'],
  ['is', 'it', 'not'],
  ['is', 'the', 'answer'],
  ['is', 'it'],
  ['is', 'that'],
  ['would', 'it', 'be'],
  ['could', 'it', 'be'],
  ['might', 'it', 'be'],
  ['will', 'it', 'be'],
  ['it', 'might', 'be'],
  ['it', 'could', 'be'],
  ['it', 'may', 'be'],
  ['it', 'must', 'be'],
  ['should', 'it', 'be'],
];
/** After a hedge, a plain "it is" / "the answer is" still only introduces the answer. */
const answerIntroductions: readonly (readonly string[])[] = [
  ['the', 'answer', 'is'],
  ['it', 'is'],
  ['that', 'is'],
  ['its'],
];
/** Hedges that may trail an answer ("64, I think?"). */
const trailingHedges: readonly (readonly string[])[] = [['i', 'think'], ['i', 'guess'], ['maybe'], ['right'], ['perhaps'], ['probably'], ['or', 'not'], ['i', 'believe']];

const whWords = new Set(['what', 'why', 'how', 'when', 'where', 'which', 'who', 'whom', 'whose']);
const invertedAuxiliaries = new Set(['is', 'are', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'will', 'shall', 'may', 'might', 'has', 'have', 'had']);
const requestVerbs = new Set(['explain', 'tell', 'show', 'repeat', 'rephrase', 'clarify', 'elaborate', 'describe', 'define']);
const remarkVerbs = new Set(['know', 'knew', 'remember', 'understand', 'understood', 'realise', 'realize', 'realised', 'realized', 'learned', 'learnt', 'noticed', 'get']);

interface Word {
  /** Lowercased, apostrophes and contractions normalised. */
  norm: string;
  /** Where the word starts and ends in the original text. */
  start: number;
  end: number;
}

const contractions: Record<string, readonly string[]> = {
  "don't": ['do', 'not'],
  "doesn't": ['does', 'not'],
  "didn't": ['did', 'not'],
  "can't": ['can', 'not'],
  cannot: ['can', 'not'],
  "won't": ['will', 'not'],
  "isn't": ['is', 'not'],
  "aren't": ['are', 'not'],
  "wasn't": ['was', 'not'],
  "i'm": ['i', 'am'],
  im: ['i', 'am'],
  "it's": ['it', 'is'],
  "that's": ['that', 'is'],
  "what's": ['what', 'is'],
  "let's": ['lets'],
  "i've": ['i', 'have'],
  "i'd": ['i', 'would'],
  "i'll": ['i', 'will'],
  "there's": ['there', 'is'],
  dont: ['do', 'not'],
  cant: ['can', 'not'],
};

function isWordCharacter(character: string): boolean {
  return /[\p{L}\p{N}'’]/u.test(character);
}

/** The message's words with their positions; one pass over the text. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let index = 0;
  const characters = Array.from(text);
  let offset = 0;
  while (index < characters.length) {
    const character = characters[index]!;
    if (!isWordCharacter(character)) {
      offset += character.length;
      index += 1;
      continue;
    }
    const start = offset;
    let raw = '';
    while (index < characters.length && isWordCharacter(characters[index]!)) {
      raw += characters[index]!;
      offset += characters[index]!.length;
      index += 1;
    }
    const norm = raw.toLowerCase().replace(/’/g, "'");
    const trimmed = norm.replace(/^'+/, '').replace(/(?<!')'+$/, '');
    if (!trimmed) continue;
    const expanded = contractions[trimmed];
    if (expanded) for (const part of expanded) words.push({ norm: part, start, end: offset });
    else words.push({ norm: trimmed.endsWith("'s") ? trimmed.slice(0, -2) : trimmed, start, end: offset });
  }
  return words;
}

/** Whether `words` from `at` begin with `phrase`. */
function startsWith(words: readonly Word[], at: number, phrase: readonly string[]): boolean {
  if (at + phrase.length > words.length) return false;
  for (let offset = 0; offset < phrase.length; offset += 1) if (words[at + offset]!.norm !== phrase[offset]) return false;
  return true;
}

/** The longest phrase of `phrases` at `at`, as its length (0 for none). */
function longestPhraseAt(words: readonly Word[], at: number, phrases: readonly (readonly string[])[]): number {
  let best = 0;
  for (const phrase of phrases) if (phrase.length > best && startsWith(words, at, phrase)) best = phrase.length;
  return best;
}

function hasContent(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** True when every word is an acknowledgement word, one of them a core one, and none is negated. */
function isAcknowledgement(words: readonly Word[]): boolean {
  if (words.length === 0 || words.length > 14) return false;
  let core = false;
  for (const word of words) {
    if (negationWords.has(word.norm)) return false;
    if (!acknowledgementWords.has(word.norm) && !fillerWords.has(word.norm)) return false;
    if (acknowledgementCore.has(word.norm)) core = true;
  }
  return core;
}

/** Stuck when stuck phrases cover the message and what is left is filler or politeness. */
function stuckReading(words: readonly Word[]): { stuck: boolean; wantsHint: boolean } {
  let index = 0;
  let found = false;
  let wantsHint = false;
  while (index < words.length) {
    const length = longestPhraseAt(words, index, stuckPhrases);
    if (length > 0) {
      found = true;
      for (let offset = 0; offset < length; offset += 1) if (hintWords.has(words[index + offset]!.norm)) wantsHint = true;
      index += length;
      continue;
    }
    const norm = words[index]!.norm;
    if (!fillerWords.has(norm) && !politeWords.has(norm) && !acknowledgementWords.has(norm)) return { stuck: false, wantsHint: false };
    index += 1;
  }
  return { stuck: found, wantsHint };
}

/** Skips fillers at `at`; returns the next index. */
function skipFillers(words: readonly Word[], at: number): number {
  let index = at;
  while (index < words.length && fillerWords.has(words[index]!.norm)) index += 1;
  return index;
}

/**
 * The answer inside a hedge: leading hedges, "the answer is", trailing hedges and a final
 * question mark removed. Null when the message carries no hedge.
 */
function unwrapHedge(text: string, words: readonly Word[]): { answer: string; hedged: boolean } {
  let first = skipFillers(words, 0);
  let hedged = false;
  for (;;) {
    const length = longestPhraseAt(words, first, hedgeOpenings);
    if (length === 0) break;
    hedged = true;
    first = skipFillers(words, first + length);
  }
  if (hedged) {
    const length = longestPhraseAt(words, first, answerIntroductions);
    if (length > 0 && first + length < words.length) first += length;
  }
  let last = words.length;
  for (;;) {
    let trimmed = false;
    for (const phrase of trailingHedges) {
      const at = last - phrase.length;
      if (at > first && startsWith(words, at, phrase)) {
        last = at;
        hedged = true;
        trimmed = true;
        break;
      }
    }
    if (!trimmed) break;
  }
  if (first >= last) return { answer: text.trim(), hedged };
  const endsWithQuestionMark = text.trimEnd().endsWith('?');
  const start = words[first]!.start;
  // Keep what follows the last word up to the next space ("192.168.1.0/24", "5%").
  let end = words[last - 1]!.end;
  while (end < text.length && !/[\s?!,;]/.test(text[end]!)) end += 1;
  return { answer: text.slice(start, end).trim(), hedged: hedged || endsWithQuestionMark };
}

/** Reads what a learner's message is doing. Pure and deterministic. */
export function readLearnerIntent(message: string): LearnerIntent {
  const text = message.trim();
  if (!hasContent(text)) return { kind: 'continue' };
  const words = wordsOf(text);
  if (words.length === 0) return { kind: 'continue' };
  if (isAcknowledgement(words)) return { kind: 'continue' };
  const stuck = stuckReading(words);
  if (stuck.stuck) return { kind: 'stuck', wantsHint: stuck.wantsHint };

  const opening = skipFillers(words, 0);
  // Only hesitation ("so", "um…", "hmm?"): nothing said yet, so nothing to judge.
  if (opening >= words.length) return { kind: 'continue' };
  const head = words[opening]?.norm ?? '';
  const second = words[opening + 1]?.norm ?? '';
  const endsWithQuestionMark = text.endsWith('?');

  // "I know that 47 is 4 tens…", "I remember that…": a remark about what the learner knows.
  if (head === 'i' && remarkVerbs.has(second) && words.length - opening > 3) return { kind: 'remark' };

  const hedge = unwrapHedge(text, words);
  // "Thanks — why does…", "ok so what is…": the question starts after the pleasantries.
  let asking = opening;
  while (asking < words.length - 1 && (fillerWords.has(words[asking]!.norm) || acknowledgementCore.has(words[asking]!.norm))) asking += 1;
  const askHead = words[asking]!.norm;
  const askSecond = words[asking + 1]?.norm ?? '';
  // A guess put as a question ("is it 64?", "could it be the tens?") is an answer.
  const guessOpening = longestPhraseAt(words, asking, hedgeOpenings) > 0;
  if (whWords.has(askHead) || requestVerbs.has(askHead) || ((askHead === 'can' || askHead === 'could' || askHead === 'would') && askSecond === 'you')) {
    return { kind: 'question' };
  }
  if (invertedAuxiliaries.has(askHead) && endsWithQuestionMark && !guessOpening) return { kind: 'question' };
  return { kind: 'answer', answer: hedge.answer, hedged: hedge.hedged };
}
