/**
 * The offline thought partner (SPEC §4.5 "Offline: a deterministic reflective partner"): it
 * reflects the learner's own words back and asks one Socratic question — for a reason, an
 * example, a counter-example, an assumption, a consequence — chosen by a stable hash of the
 * conversation, so the same conversation always gets the same replies. It never asserts an
 * answer of its own. Its summaries quote the learner's main ideas, in order.
 */
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
  const words = clause.replace(/[.!?;,:]+$/, '').split(' ').filter(Boolean);
  return words.length > 12 ? `${words.slice(0, 12).join(' ')}…` : words.join(' ');
}

/** The content words of a text, for a topic line. */
function keywords(text: string, limit: number): string[] {
  const seen = new Set<string>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []) {
    if (word.length > 3 && !STOPWORDS.has(word)) seen.add(word);
    if (seen.size >= limit) break;
  }
  return [...seen];
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
      ? `Let’s think about ${input.topic} together. I won’t lecture — I’ll ask questions and you steer. What do you already believe about it, and why?`
      : 'What would you like to think through today? Tell me the question or the idea, and what you make of it so far.';
  }
  // Seeded by the conversation alone: the same conversation always gets the same reply.
  const seed = `${input.topic ?? ''}:${input.recentMessages.length}:${input.summary.length}:${last.content}`;
  const idea = gist(last.content);
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

export function offlineThoughtSummary(input: ThoughtSummaryInput): string {
  const ideas = ideasOf(input.messages);
  const topic = input.topic ? ` about ${input.topic}` : '';
  if (input.final) {
    const latest = ideas.map((idea) => `“${idea}”`).join('; ');
    const covered = [input.previousSummary, latest ? `${latest}.` : ''].filter(Boolean).join(' ');
    const themes = keywords([input.topic ?? '', ...input.messages.map((message) => (message.role === 'learner' ? message.content : ''))].join(' '), 5);
    return `You thought${topic} through ${ideas.length > 0 ? 'these ideas' : 'a few ideas'}: ${covered || '(nothing said yet)'}${themes.length ? ` Themes: ${themes.join(', ')}.` : ''} A good next step: pick the idea you felt least sure about and test it against an example.`;
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

