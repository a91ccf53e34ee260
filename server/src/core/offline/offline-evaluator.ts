/**
 * The offline batch evaluator (SPEC §4.1, §7): decides, for one learner message, which of the
 * still-unchecked points it demonstrates, by matching the message against each point's key
 * ideas, weighted by how much they identify the point among the points evaluated together
 * (see `idea-match.ts` for the rule and thresholds, `contradictions.ts` for what refuses a
 * match). Deterministic and synchronous.
 *
 * - A card (an Anki front and a short answer, `question-answer.ts`) is recalled by its answer;
 *   the question's words echoed back recall nothing, a message that says something else of the
 *   question is a contradiction ("vitamin A deficiency causes scurvy" for "Vitamin C deficiency
 *   → scurvy"), and one that only mentions the answer in passing, about something else, is not
 *   an answer ("I'm flying to Canberra next week").
 *
 * - A question or request for clarification (`learner-message.ts`) is never graded: the
 *   result says `messageKind: 'question'`, recalls nothing, and the feedback asks the tutor to
 *   answer briefly without giving anything away and return to the cue.
 * - A message that contradicts a point (negation, an antonym, a different number, a sister
 *   term in place of the point's) never recalls it; the feedback names the contradiction.
 *
 * - Evidence is ONLY the latest learner-authored message (chat or widget answer); tutor
 *   messages never count — see `learner-evidence.ts` for why.
 * - Every point of `input.points` is checked; several can be recalled at once. An answer
 *   from the code editor also counts when it contains the code a point quotes in backticks.
 * - confidence = 0.5 + 0.5 × coverage, clamped to 0–1, rounded to 2 decimals. Picking an
 *   option of a multiple-choice widget is recognition rather than free recall, so it is
 *   capped at CHOICE_CONFIDENCE_CAP, and it only credits the point the widget was about
 *   when the widget is one of ours (a wrong pick must not check off the distractor's point).
 * - feedback (for the tutor only): in `recall` mode, what was recalled, the near misses with
 *   their contradiction or the missing words of their core statement (so a partial answer gets a
 *   follow-up that asks for exactly that), and how many remain; in `rabbithole` mode only what
 *   was recalled, or '' when nothing was.
 */
import type { ChecklistPoint, EvaluationInput, EvaluationResult, RecalledPoint } from '../provider';
import { latestLearnerEvidence } from './learner-evidence';
import { codeSpanOf } from './code-points';
import { LIGHT_WORDS, matchPoint, pointSetOf, prepareMessage, type IdeaHit, type KeyIdea, type PointMatch, type PointSet, type PreparedMessage } from './idea-match';
import { isCard, withoutQuestionWords } from './question-answer';
import { classifyLearnerMessage } from './learner-message';
import { normalizeText } from './lexical';
import { pointIdFromToolCallId } from './tool-call-ids';

/** Highest confidence credited for picking the right option of a multiple-choice widget. */
export const CHOICE_CONFIDENCE_CAP = 0.6;
/** Most near misses named in the feedback. */
export const MAX_NEAR_MISSES_IN_FEEDBACK = 3;
/** Most key terms listed in one observation. */
const MAX_TERMS_LISTED = 8;
/** Longest quotation of a point in the feedback. */
const SNIPPET_MAX_LENGTH = 60;

/** confidence = 0.5 + 0.5 × coverage, clamped to 0–1 and rounded to 2 decimals. */
export function confidenceFromCoverage(coverage: number): number {
  const c = Math.min(1, Math.max(0, 0.5 + 0.5 * coverage));
  return Math.round(c * 100) / 100;
}

function listIdeas(ideas: readonly KeyIdea[]): string {
  const shown = ideas.slice(0, MAX_TERMS_LISTED).map((idea) => idea.surface);
  return shown.join(', ') + (ideas.length > MAX_TERMS_LISTED ? ', …' : '');
}

/** "glucose ← “sugar”": which idea the learner's own words expressed. */
function listHits(hits: readonly IdeaHit[]): string {
  const shown = hits.slice(0, MAX_TERMS_LISTED).map((hit) => (hit.relation === 'same' ? hit.idea.surface : `${hit.idea.surface} ← “${hit.words}”`));
  return shown.join(', ') + (hits.length > MAX_TERMS_LISTED ? ', …' : '');
}

function ideaCount(m: PointMatch): string {
  const n = m.ideas.length;
  if (m.hits.length === n) return n === 1 ? 'its key idea' : `all ${n} key ideas`;
  return `${m.hits.length} of ${n} key ideas`;
}

function observationFor(m: PointMatch, viaChoice: boolean): string {
  const base = `expressed ${ideaCount(m)}: ${listHits(m.hits)}`;
  return viaChoice ? `picked it in a multiple-choice question (recognition, not free recall); ${base}` : base;
}

function snippet(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_MAX_LENGTH) return `"${flat}"`;
  const cut = flat.slice(0, SNIPPET_MAX_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `"${(space > SNIPPET_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…"`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

interface Scored {
  point: ChecklistPoint;
  match: PointMatch;
}

function recallFeedback(recalled: Scored[], nearMisses: Scored[], remaining: number): string {
  const parts: string[] = [];
  if (recalled.length > 0) {
    parts.push(`Recalled just now: ${recalled.map((s) => `${snippet(s.point.content)} (${ideaCount(s.match)}: ${listHits(s.match.hits)})`).join('; ')}.`);
  } else {
    parts.push('Nothing new recalled in the latest message.');
  }
  for (const s of nearMisses) {
    const said = s.match.hits.length > 0 ? ` — expressed ${listHits(s.match.hits)}` : '';
    parts.push(
      s.match.conflict
        ? `Contradiction on ${snippet(s.point.content)}: the learner ${s.match.conflict}${said}.`
        : `Near miss: ${snippet(s.point.content)}${said}; missing ${listIdeas(s.match.missingCore.length > 0 ? s.match.missingCore : s.match.missing)}.`,
    );
  }
  if (remaining === 0) {
    parts.push('Every idea has now been recalled.');
  } else {
    parts.push(`${plural(remaining, 'idea', 'ideas')} still to recall.`);
    parts.push(
      recalled.length > 0
        ? 'Acknowledge briefly in the learner’s own words, then cue the next idea without giving it away.'
        : 'Cue the current idea again from a different key idea, without giving it away.',
    );
  }
  return parts.join(' ');
}

const QUESTION_FEEDBACK =
  'The learner asked a question instead of answering: this is not an attempt and nothing is graded. Answer it briefly without giving away any idea that is still to recall, then return to the same cue (no stronger hint).';

function rabbitholeFeedback(recalled: Scored[]): string {
  if (recalled.length === 0) return '';
  return `Recalled: ${recalled.map((s) => snippet(s.point.content)).join('; ')}.`;
}

/** Content words a card's answer may come with that neither answer nor ask about its question ("Canberra, my aunt lives there"). */
export const CARD_ASIDE_MAX_WORDS = 2;

/** The message's content words that express nothing of the point (hedges and fillers are not content). */
function asideWords(message: PreparedMessage, match: PointMatch): number {
  const used = new Set(match.hits.flatMap((hit) => hit.wordIndices));
  return message.text.words.filter((word, index) => !used.has(index) && (word.value !== null || (!word.functionWord && !LIGHT_WORDS.has(word.norm)))).length;
}

/**
 * How the learner's text covers a point. Code from the editor is also matched against the
 * code the point quotes (a program never contains the prose around it); the better wins.
 */
function matchOf(text: PreparedMessage, point: ChecklistPoint, viaCode: boolean, raw: string, set: PointSet): PointMatch {
  if (isCard(point)) {
    // A card's answer must be said: its question's words, echoed back, recall nothing…
    const stripped = prepareMessage(withoutQuestionWords(raw, point.context!, point.content));
    const answer = matchPoint(stripped, point.content, { set });
    if (!answer.recalled) return answer;
    // …what the learner says of the question must not contradict it ("vitamin A deficiency
    // causes scurvy" for "Vitamin C deficiency → scurvy", "he didn't paint it")…
    const question = matchPoint(text, point.context!);
    if (question.conflict) return { ...answer, recalled: false, nearMiss: true, conflict: question.conflict };
    // …and the answer must be what the message is about: "two" in "the House serves two-year
    // terms" does not answer "Number of US senators per state".
    if (asideWords(stripped, answer) > CARD_ASIDE_MAX_WORDS) {
      // The question's words, said besides the answer, tie the message to it ("Ottawa is where Canada's government sits").
      const answerWords = new Set(answer.hits.flatMap((hit) => hit.words.toLowerCase().split(/\s+/)));
      const rest = raw.split(/\s+/).filter((word) => !answerWords.has(word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''))).join(' ');
      if (matchPoint(prepareMessage(rest), point.context!).hits.length === 0) return { ...answer, recalled: false, nearMiss: false };
    }
    return answer;
  }
  const whole = matchPoint(text, point.content, { set });
  const span = viaCode ? codeSpanOf(point.content) : null;
  if (!span || whole.recalled) return whole;
  const code = matchPoint(text, span);
  return code.recalled ? code : whole;
}

/** The options of the widget a choice answered, when the tutor's call is in the window. */
function choiceOptionsOf(input: EvaluationInput, toolCallId: string | undefined): string[] | null {
  if (!toolCallId) return null;
  for (const m of input.recentMessages) {
    if (m.role !== 'tutor' || m.toolCall?.id !== toolCallId) continue;
    const options = m.toolCall.input['options'];
    return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : null;
  }
  return null;
}

/** Which of `input.points` the latest learner message recalls, with feedback for the tutor. */
export function evaluateOffline(input: EvaluationInput): EvaluationResult {
  const seen = new Set<string>();
  const points = input.points.filter((p) => !seen.has(p.id) && seen.add(p.id));
  if (points.length === 0) return { recalledPoints: [], feedback: '' };

  const evidence = latestLearnerEvidence(input.recentMessages);
  // A question is answered, never graded (issue 15); only chat can be one — a widget answer is an answer.
  // So is a point still to recall said word for word, even one that reads like a reply ("K", potassium's symbol, is also "ok").
  const saysAPoint = evidence !== null && points.some((point) => normalizeText(point.content) === normalizeText(evidence.text));
  if (evidence?.source === 'chat' && !saysAPoint && classifyLearnerMessage(evidence.text) === 'question') {
    return { recalledPoints: [], feedback: input.mode === 'rabbithole' ? '' : QUESTION_FEEDBACK, messageKind: 'question' };
  }
  const text = prepareMessage(evidence?.text ?? '');
  const viaChoice = evidence?.source === 'choice';
  // A pick in one of our own multiple-choice widgets only speaks for the point it was about,
  // and only when it is that point's own wording (a distractor differs from it in one idea).
  const choicePointId = viaChoice && evidence.toolCallId ? pointIdFromToolCallId(evidence.toolCallId) : null;

  const viaCode = evidence?.source === 'code';
  // Weights depend on the set: a word every point shares identifies none of them.
  const set = pointSetOf(points.map((point) => point.content));
  const scored: Scored[] = points.map((point) => ({ point, match: matchOf(text, point, viaCode, evidence?.text ?? '', set) }));
  const pickedOwnWording = (point: ChecklistPoint) => normalizeText(point.content) === normalizeText(evidence?.text ?? '');
  const recalled = scored.filter((s) => {
    if (choicePointId !== null) return s.point.id === choicePointId && pickedOwnWording(s.point);
    if (viaChoice && choiceOptionsOf(input, evidence.toolCallId)?.some((option) => normalizeText(option) === normalizeText(s.point.content))) {
      return pickedOwnWording(s.point) || s.match.recalled;
    }
    // The point word for word is recalled even where it has no key idea to weigh ("K", a card's one-letter answer).
    return s.match.recalled || (evidence?.source === 'chat' && pickedOwnWording(s.point));
  });
  const recalledIds = new Set(recalled.map((s) => s.point.id));

  const recalledPoints: RecalledPoint[] = recalled.map((s) => {
    if (evidence?.source === 'chat' && pickedOwnWording(s.point)) return { id: s.point.id, confidence: 1, observation: 'said the point word for word' };
    const confidence = confidenceFromCoverage(s.match.coverage);
    return {
      id: s.point.id,
      confidence: viaChoice ? Math.min(confidence, CHOICE_CONFIDENCE_CAP) : confidence,
      observation: observationFor(s.match, viaChoice),
    };
  });

  if (input.mode === 'rabbithole') return { recalledPoints, feedback: rabbitholeFeedback(recalled) };

  const nearMisses = scored
    .filter((s) => !recalledIds.has(s.point.id) && s.match.nearMiss)
    .sort((a, b) => Number(b.match.conflict !== null) - Number(a.match.conflict !== null) || b.match.coverage - a.match.coverage)
    .slice(0, MAX_NEAR_MISSES_IN_FEEDBACK);
  const remaining = points.length - recalled.length;
  return { recalledPoints, feedback: recallFeedback(recalled, nearMisses, remaining) };
}
