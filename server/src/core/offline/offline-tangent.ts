/**
 * The offline tutor's judgment about rabbit holes (SPEC §4.1: entering and leaving a rabbit
 * hole is possible by the tutor's judgment, not only from the client). A model tutor decides
 * from the meaning; the offline tutor reads explicit phrasing in the learner's latest chat
 * message, which is deterministic and never fires on an ordinary answer:
 *
 *   enter — in recall mode, "by the way", "side question", "off topic", "tangent",
 *           "I'm curious about / wondering about …": the topic is what follows the phrase;
 *   exit  — in rabbit-hole mode, "back to the review / list / questions", "let's get back",
 *           "let's continue", "enough about this".
 */
import type { ConversationMessage, ModeChange, TutorInput } from '../provider';

/** Longest topic taken from the learner's words. */
export const TANGENT_TOPIC_MAX_LENGTH = 80;

const enterPhrase =
  /\b(?:by the way|btw|side question|off[- ]topic|(?:a |on a )?tangent|(?:i'?m|i am) (?:curious|wondering) about|(?:i'?m|i am) curious (?:why|how|whether)|can we (?:talk|chat) about)\b/gi;
const exitPattern =
  /\b(?:(?:get|go|come) back to (?:the )?(?:review|list|questions?|recall|material|ideas?)|back to (?:the )?(?:review|list|questions?|recall|material)|let'?s (?:get back|go back|continue|carry on|move on)|enough (?:of|about) (?:this|that)|done with (?:this|that) tangent)\b/i;

function latestLearnerChat(conversation: readonly ConversationMessage[]): string | null {
  const last = conversation.at(-1);
  return last?.role === 'learner' ? last.content : null;
}

/**
 * What follows the first tangent phrase after which only punctuation and spaces lead into a last
 * line (as `phrase[,:;\s-]*(.*)$` read it), or null. Found in one pass: that pattern read the rest
 * of the message again from every "btw" of a message full of them.
 */
function afterEnterPhrase(text: string): string | null {
  const phrase = new RegExp(enterPhrase);
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'), text.lastIndexOf('\u2028'), text.lastIndexOf('\u2029'));
  for (let match = phrase.exec(text); match; match = phrase.exec(text)) {
    let rest = match.index + match[0].length;
    while (rest < text.length && /[,:;\s-]/.test(text[rest]!)) rest += 1;
    if (rest > lastBreak) return text.slice(rest);
    phrase.lastIndex = match.index + 1;
  }
  return null;
}

function topicFrom(rest: string, whole: string): string {
  const cleaned = (rest.trim() || whole.trim())
    .replace(/^(?:about|on|regarding|why|how)\s+/i, (word) => (/^(?:why|how)/i.test(word) ? word : ''))
    .replace(/(?<![?.!])[?.!]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned.length <= TANGENT_TOPIC_MAX_LENGTH) return cleaned || 'this tangent';
  const cut = cleaned.slice(0, TANGENT_TOPIC_MAX_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

/** The mode change the learner's latest chat message calls for, or null. */
export function tangentSignal(input: Pick<TutorInput, 'trigger' | 'mode' | 'conversation'>): ModeChange | null {
  if (input.trigger !== 'learner_message') return null;
  const text = latestLearnerChat(input.conversation);
  if (!text) return null;
  if (input.mode === 'rabbithole') return exitPattern.test(text) ? { mode: 'recall' } : null;
  const rest = afterEnterPhrase(text);
  return rest === null ? null : { mode: 'rabbithole', topic: topicFrom(rest, text) };
}
