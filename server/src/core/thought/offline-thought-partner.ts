/**
 * The offline thought partner (SPEC §4.5 "Offline: a deterministic reflective partner"): it
 * reflects the learner's own words back and asks one Socratic question — for a reason, an
 * example, a counter-example, an assumption, a consequence — chosen by a stable hash of the
 * conversation, so the same conversation always gets the same replies. It never asserts an
 * answer of its own. Its summaries quote the learner's main ideas, in order.
 */
import { readLearnerIntent } from '../offline/learner-intent';
import { STOPWORDS } from '../offline/lexical';
import { pickBySeed } from '../offline/stable-hash';
import type { ThoughtMessage, ThoughtPartner, ThoughtReplyInput, ThoughtSummaryInput } from './thought-port';

const questions = [
  'What makes you think so — what is it based on?',
  'Can you think of an example where that holds, and one where it might not?',
  'What would have to be true for that to be wrong?',
  'What are you taking for granted there?',
  'If that is right, what follows from it?',
  'How would you explain that to someone hearing it for the first time?',
  'Which part of that are you least sure about?',
  'Is there another way to look at it that you have not tried yet?',
] as const;

/** The offline rolling summary keeps its newest segments within this many characters. */
export const rollingSummaryMaxChars = 1600;

const openers = ['You said', 'So you’re saying', 'Let me reflect that back:', 'I hear'] as const;

/** The learner's idea in a few words: the first sentence without "I think (that)", trimmed to about twelve words. */
export function gist(text: string): string {
  const sentence = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?;])\s/)[0] ?? '';
  const clause = sentence.replace(/^(?:i\s+(?:think|believe|guess|feel|suppose)|maybe|perhaps)(?:\s+that)?[,\s]+/i, '');
  // The lookbehind starts the match only where the trailing run starts, so it is read once (not quadratic).
  const words = clause.replace(/(?<![.!?;,:])[.!?;,:]+$/, '').split(' ').filter(Boolean);
  return words.length > 12 ? `${words.slice(0, 12).join(' ')}…` : words.join(' ');
}

/**
 * The words the learner kept coming back to: content words said in at least two of their
 * messages, most often first, written as the learner first wrote them ("Rust", not "rust").
 */
function recurringWords(messages: readonly string[], limit: number): string[] {
  const counts = new Map<string, { surface: string; messages: number; first: number }>();
  messages.forEach((message, index) => {
    const inThis = new Set<string>();
    for (const surface of message.match(/[\p{L}\p{N}'’-]+/gu) ?? []) {
      const word = surface.toLowerCase();
      if (word.length < 2 || STOPWORDS.has(word) || inThis.has(word) || ignoredInThemes.has(word)) continue;
      inThis.add(word);
      const entry = counts.get(word) ?? { surface, messages: 0, first: index };
      entry.messages += 1;
      counts.set(word, entry);
    }
  });
  return [...counts.values()]
    .filter((entry) => entry.messages >= 2)
    .sort((a, b) => b.messages - a.messages || a.first - b.first)
    .slice(0, limit)
    .map((entry) => entry.surface);
}

/** Words that carry no theme of their own, however often a learner says them. */
const ignoredInThemes = new Set('think thought maybe really just like know feel guess probably because would could should also still want something things thing yeah okay right sure mean'.split(' '));

/** "a, b and c". */
function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** The topic as a sentence can carry it: a question is quoted, a phrase keeps its words. */
function aboutTopic(topic: string): string {
  const flat = topic.replace(/\s+/g, ' ').trim();
  if (flat.endsWith('?')) return `your question “${flat}”`;
  // "Stoicism", "How habits form": lower-case the first letter of a common phrase, not of a name.
  return /^\p{Lu}\p{Ll}+\s+\p{Ll}/u.test(flat) ? flat[0]!.toLowerCase() + flat.slice(1) : flat;
}

export function offlineThoughtReply(input: ThoughtReplyInput): string {
  const first = composeReply(input, 0);
  // A retry gets another wording: the next choice of question and opener, never the same text.
  return input.replacing !== undefined && first === input.replacing ? composeReply(input, 1) : first;
}

function composeReply(input: ThoughtReplyInput, shift: number): string {
  const last = input.recentMessages.at(-1);
  if (!last || last.role !== 'learner') {
    if (shift > 0) return 'Where shall we start? Name something you have been wondering about, and say what your hunch is so far.';
    return input.topic
      ? `Let’s think through ${aboutTopic(input.topic)} together. I won’t lecture — I’ll ask questions and you steer. ${input.topic.trim().endsWith('?') ? 'What’s your hunch so far, and why?' : 'What do you already believe about it, and why?'}`
      : 'What would you like to think through today? Tell me the question or the idea, and what you make of it so far.';
  }
  // Seeded by the conversation alone: the same conversation always gets the same reply.
  const seed = `${input.topic ?? ''}:${input.recentMessages.length}:${input.summary.length}:${last.content}`;
  const idea = gist(last.content);
  // What the message does comes first (issue 28): "ok" or "hmm" is not an idea to reflect back.
  const intent = readLearnerIntent(last.content);
  if (intent.kind === 'continue') {
    return shift > 0
      ? 'No rush. If you had to decide right now, which way would you lean, and why?'
      : `Take your time. What comes to mind first when you think about ${input.topic ? aboutTopic(input.topic) : 'it'}?`;
  }
  if (intent.kind === 'stuck') {
    return shift > 0
      ? 'That’s fine — let’s make it smaller. What is one thing you’re fairly sure of here?'
      : 'That’s a fine place to start. Let’s make it smaller: what is one thing about it you’re fairly sure of, even if it seems obvious?';
  }
  if (/\?\s*$/.test(last.content.trim())) {
    return shift > 0
      ? `Let’s stay with “${idea}” a moment. What would you expect the answer to be, and what makes you think so?`
      : `That’s a good question to sit with: “${idea}”. Before I weigh in — what’s your first guess, and what is it based on?`;
  }
  const previous = input.recentMessages.filter((message) => message.role === 'partner').at(-1)?.content ?? '';
  // Never the same question twice in a row.
  let question = pickBySeed(questions, seed);
  if (previous.includes(question)) question = questions[(questions.indexOf(question) + 1) % questions.length]!;
  if (shift > 0) question = questions[(questions.indexOf(question) + shift) % questions.length]!;
  const opener = shift > 0 ? openers[(openers.indexOf(pickBySeed(openers, `${seed}:opener`)) + shift) % openers.length]! : pickBySeed(openers, `${seed}:opener`);
  return `${opener} “${idea}”. ${question}`;
}

function ideasOf(messages: readonly ThoughtMessage[]): string[] {
  return messages.filter((message) => message.role === 'learner').map((message) => gist(message.content)).filter(Boolean);
}

/**
 * The texts between each “ and the first ” after it, in order, as /“([^”]*)”/g found them but read
 * once: that pattern scanned to the end again from every “ of a summary with no ” left.
 */
function quotedIn(text: string): string[] {
  const quoted: string[] = [];
  for (let open = text.indexOf('“'); open >= 0; open = text.indexOf('“', open)) {
    const close = text.indexOf('”', open + 1);
    if (close < 0) break;
    quoted.push(text.slice(open + 1, close));
    open = close + 1;
  }
  return quoted;
}

export function offlineThoughtSummary(input: ThoughtSummaryInput): string {
  const ideas = ideasOf(input.messages);
  if (input.final) {
    const said = input.messages.filter((message) => message.role === 'learner' && readLearnerIntent(message.content).kind !== 'continue').map((message) => message.content);
    // The rolling summary quotes the earlier ideas; with the latest ones they are the whole path.
    const earlier = quotedIn(input.previousSummary).filter(Boolean);
    const path = [...earlier, ...said.map(gist).filter(Boolean)];
    const heading = input.topic ? `You thought through ${aboutTopic(input.topic)}.` : 'You thought something through.';
    const parts = [heading];
    if (path.length === 1) parts.push(`Your idea: “${path[0]}”.`);
    else if (path.length > 1) parts.push(`You started from “${path[0]}” and ended at “${path.at(-1)}”.`);
    else parts.push('You did not get to an idea of your own yet — that is fine for a first pass.');
    const recurring = recurringWords(said, 3);
    if (recurring.length > 0) parts.push(`You kept coming back to ${listed(recurring)}.`);
    parts.push('A good next step: take the idea you felt least sure about and test it against one real example.');
    return parts.join(' ');
  }
  const added = ideas.map((idea) => `“${idea}”`).join('; ');
  // Segments of the rolling summary, oldest first; the oldest go when it grows too long, so it stays bounded.
  const segments = [...input.previousSummary.split(/(?=The learner said: )/), added ? `The learner said: ${added}.` : ''].map((segment) => segment.trim()).filter(Boolean);
  while (segments.length > 1 && segments.join(' ').length > rollingSummaryMaxChars) segments.shift();
  return segments.join(' ');
}

export function createOfflineThoughtPartner(): ThoughtPartner {
  return {
    async *reply(input, signal) {
      const text = offlineThoughtReply(input);
      // A few words at a time, as a model would stream it.
      for (const piece of text.match(/\S+\s*/g) ?? [text]) {
        if (signal.aborted) return;
        yield piece;
      }
    },
    async summarize(input) {
      return { output: offlineThoughtSummary(input), usage: null, model: 'offline' };
    },
  };
}

