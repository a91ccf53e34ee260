/**
 * The offline tutor's phrasing (offline-tutor.ts): its template variants, chosen by a hash of
 * turn + point id, and the small helpers that fill them (skipping templates whose own words
 * would name a key term of the point, see cue-builder.ts).
 */
import { templateCollides } from './cue-builder';
import { stableHash } from './stable-hash';

export type Variants = readonly [string, ...string[]];

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

/** A variant chosen by `seed`, skipping templates whose own words would name a key term. */
export function pickTemplate(variants: Variants, seed: string, content: string): string {
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

export function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

export function ideas(n: number): string {
  return n === 1 ? 'one idea' : `${countWord(n)} ideas`;
}

// ---------------------------------------------------------------------------------------
// Phrases

export const WELCOME: Variants = [
  'Welcome! Today we’re reviewing “{title}”. We’ll go through {ideas} — just tell me whatever you remember, in your own words.',
  'Hi! Let’s review “{title}” together. We’ll go through {ideas}; answer in your own words, there’s no rush.',
  'Hello! Time to review “{title}”. We’ll go through {ideas}, one at a time — say whatever comes to mind.',
];

export const ACK_ONE: Variants = ['Yes — that’s it.', 'Exactly right.', 'Spot on — well done.', 'That’s the one. Nice work.'];
export const ACK_TWO: Variants = ['Nice, you covered two of them at once.', 'Two in one go — great recall.'];
export const ACK_MANY: Variants = ['Impressive — that’s {n} ideas in one go.', 'Wow, {n} at once. Excellent.'];
export const ACK_OWN_ONE: Variants = ['Yes — {words}: that’s it.', 'Exactly — {words}, that’s the idea.', 'Spot on: {words}. Well done.'];
export const ACK_OWN_MANY: Variants = ['Nice — {words}: that covers {n} of them at once.', 'Great recall — {words}, and that’s {n} ideas in one go.'];
export const TO_GO: Variants = ['{n} to go.', '{n} left.', 'Only {n} more.'];
export const ONE_TO_GO: Variants = ['Just one more to go.', 'One left.'];

export const NUDGE: Variants = ['Not quite yet — let’s narrow it down.', 'Hmm, not yet.', 'Let’s come at it from another angle.', 'Not quite — no worries.'];
/** The learner asked for help ("hint please", "no idea"): the stronger cue follows, with no verdict. */
export const STUCK_HELP: Variants = ['No problem — here’s some help.', 'Sure — let’s make it easier.', 'That’s fine — here’s a nudge.'];
/** The learner only acknowledged ("ok", "got it"): the same cue again, without a verdict. */
export const CONTINUE_ANSWER: Variants = ['Take your time.', 'Sure.', 'Whenever you’re ready.'];
export const WIDGET_MISS: Variants = ['Thanks for that — not quite, though.', 'Thanks — that’s not it yet.'];

export const CUE_CONTEXT: Variants = [
  'Next one — {context}. What do you remember about it?',
  'Let’s turn to this: {context}. What can you tell me?',
  'Here’s the next one: {context}. What comes to mind?',
];
export const CUE_CONTEXT_QUESTION: Variants = ['Here’s the next one: {context}', 'Next question: {context}'];
/** A card asked again (its answer is never masked into a cue, issue 28). */
export const CUE_CARD_AGAIN: Variants = ['Have another think: {context}', 'Let’s try that one again: {context}', 'Once more: {context}'];
export const CUE_ANCHOR: Variants = [
  'Here’s a keyword to start from: “{anchor}”. What do you remember that goes with it?',
  'Let’s start from one word: “{anchor}”. What comes to mind?',
  'One word to get you going: “{anchor}”. What can you tell me?',
];
export const CUE_CLOZE: Variants = [
  'Here’s a hint — try filling in the blanks: “{cloze}”',
  'Let me give you a skeleton to work from: “{cloze}”',
  'Here’s something to go on — fill in the gaps: “{cloze}”',
];
export const CUE_CLOZE_AGAIN: Variants = ['Here’s the skeleton again: “{cloze}” Take your time.', 'Let’s look at the blanks once more: “{cloze}”'];
export const FREE_TEXT_INVITE: Variants = [
  'Write down whatever you can in the box — a rough version is fine.',
  'Try writing it out in your own words below; it doesn’t have to be perfect.',
];
export const CODE_INVITE: Variants = [
  'Try writing it as code in the editor below.',
  'Show me in code — the editor is below.',
];
export const BACK_TO_REVIEW: Variants = ['Good — back to the review, then.', 'Right, let’s pick the review back up.'];
export const CHOICE_INTRO: Variants = [
  'Let’s try it another way — which of these is right?',
  'Let’s try a different approach — pick the one that fits.',
  'Here’s another way in: which of these is the one we’re after?',
];

export const CHOICES_STILL_OPEN: Variants = ['The choices above are still open — which one fits?', 'Take another look at the options above and pick the one that fits.'];
export const CLARIFY_ANSWER: Variants = [
  'Sure — I mean: we’re reviewing “{title}”, and I’d like you to tell me, in your own words, whatever you remember about the idea below.',
  'Good question. We’re reviewing “{title}”: tell me whatever you remember about the idea below — any part of it counts.',
];
export const HINT_ANSWER: Variants = ['Here’s the hint I can give you at this point:', 'Sure — here’s the hint again:'];
export const GUESS_ANSWER: Variants = [
  'I can’t say yes or no to that — it’s exactly what we’re trying to recall. If you think so, tell me as an answer, in your own words, and I’ll check it.',
  'That’s what we’re trying to recall, so I won’t give it away — say it as an answer and I’ll check it.',
];
export const RECALLED_ANSWER: Variants = ['From what you’ve already recalled: “{content}”. Now, back to this one.', 'You recalled that one already: “{content}”. Back to the current idea.'];
export const HOLD_ANSWER: Variants = [
  'Good question — answering it now would give part of the review away, so let’s keep it for the end.',
  'I’ll hold that one for later: the answer is part of what we’re recalling.',
];

export const CLOSING: Variants = [
  'That’s everything — you’ve recalled all {ideas} from “{title}”. Great work today!',
  'And that completes “{title}”: every idea recalled. Well done!',
];

export const EXPLORE: Variants = [
  'Let’s explore {topic} — what do you already know about it?',
  'Good tangent. What do you already know about {topic}?',
  'Sure, let’s dig into {topic} for a bit. What’s your current understanding of it?',
];
export const RABBITHOLE_RECALL_ONE: Variants = [
  'By the way, that also covered one of the ideas on your list — nice.',
  'Nice — that also counts for one of the ideas we’re reviewing.',
];
export const RABBITHOLE_RECALL_MANY: Variants = ['By the way, that also covered {n} of the ideas on your list — nice.'];
export const RABBITHOLE_ALL_DONE: Variants = ['That completes everything for “{title}”, too.'];
