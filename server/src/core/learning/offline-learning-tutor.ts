/**
 * The offline learning tutor (SPEC §4.4 "Offline"): with no key, a deterministic tutor that
 * follows the plan — explains from the content hint, asks the step's check questions and
 * judges answers lexically against the expected answers and accepted variants, walks
 * probe → hint → explain on wrong answers, introduces practice items (the server generates,
 * presents and scores them), advances and completes. It answers in the master tutor's
 * structured output, so the engine treats it exactly like a model.
 */
import type { StudyPlanStep } from '@tutorloop/shared';
import type { LearningCall, LearningTutor, MasterTurnInput, PostCompletionInput, WelcomeInput } from './learning-port';
import { judgeAnswer, maskedAnswer } from './answer-match';
import { maxSentences } from './signals';
import type { TutorTurnOutput } from './tutor-turn';

const offlineModel = 'offline';

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.trim()).filter(Boolean);
}

function firstSentences(text: string, count: number): string {
  return sentences(text).slice(0, Math.max(1, count)).join(' ');
}

const confusionPattern = /^(?:i\s+(?:don'?t|do not)\s+(?:know|get it|understand)|no idea|not sure|idk|dunno|i'?m (?:lost|confused|stuck)|help|pass|no clue)\b/i;
const questionStart = /^(?:what|why|how|when|where|which|who|can you|could you|would you|is it|are|do|does|did|should|explain|tell me)\b/i;

/** A question or a request for clarification rather than an answer attempt. */
function isQuestion(message: string): boolean {
  const trimmed = message.trim();
  return trimmed.endsWith('?') || (questionStart.test(trimmed) && trimmed.split(/\s+/).length > 2 && !/\d/.test(trimmed));
}

const topicStopwords = new Set('the a an and or of to in on for is are be it this that with as by at from your you i me my what why how can will just about'.split(' '));

/** Words of the plan (titles, concepts, hints, questions, answers): an off-topic message shares none. */
function planVocabulary(input: MasterTurnInput): Set<string> {
  const texts = [input.plan.title, input.plan.topic, ...input.plan.objectives, ...input.plan.steps.flatMap((step) => [step.concept, step.contentHint, ...(step.type === 'check' ? step.questions.flatMap((q) => [q.question, q.expectedAnswer, ...q.acceptedAnswers]) : [])])];
  const words = new Set<string>();
  for (const text of texts) for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word.length > 2 && !topicStopwords.has(word)) words.add(word.replace(/s$/, ''));
  return words;
}

function isOffTopic(message: string, input: MasterTurnInput): boolean {
  const words = message.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 2 && !topicStopwords.has(word));
  if (words.length < 3 || /\d/.test(message)) return false;
  // While a question waits, a short message is an attempt at it, however wide of the mark.
  if (input.openQuestion && !message.trim().endsWith('?') && message.trim().split(/\s+/).length < 6) return false;
  const vocabulary = planVocabulary(input);
  return !words.some((word) => vocabulary.has(word.replace(/s$/, '')));
}

/**
 * What the offline tutor may say about the current concept: the content hint of the explain
 * step that taught it (an explain step's hint is written for the learner; a check or practice
 * step's hint is guidance for the tutor, never read out).
 */
function teachingText(input: MasterTurnInput, count: number): string {
  // Asked again because a reply leaked (an explanation that states the next question's
  // answer): answer without the explanation this time, rather than the same text twice.
  if (input.retryNote) return '';
  const taught = input.plan.steps.filter((step) => step.type === 'explain' && step.number <= Math.max(input.step.number, 1));
  const explain = [...taught].reverse().find((step) => step.concept === input.step.concept) ?? taught.at(-1) ?? input.plan.steps.find((step) => step.type === 'explain');
  return explain ? firstSentences(explain.contentHint, count) : '';
}

interface Draft {
  response: string[];
  intent: TutorTurnOutput['intent'];
  answerCorrect: boolean | null;
  advanceTo: number | null;
  question: { text: string; expected: string; concept: string } | null;
  complete: boolean;
  summary: string;
}

/** How the tutor opens a step, the reply length following the learner's style. */
function presentStep(step: StudyPlanStep, input: MasterTurnInput, unasked: number[]): Pick<Draft, 'response' | 'question'> {
  const length = Math.max(1, maxSentences(input.style) - 2);
  switch (step.type) {
    case 'explain':
      return { response: [`Next up: ${step.concept}.`, firstSentences(step.contentHint, length + 1), 'Does that make sense? Tell me in a few words what you take from it.'], question: null };
    case 'check': {
      const index = unasked[0] ?? 0;
      const question = step.questions[index]!;
      return { response: [`Let’s check ${step.concept}.`, question.question], question: { text: question.question, expected: question.expectedAnswer, concept: step.concept } };
    }
    case 'practice':
      return { response: [`Time to practise ${step.concept}.`, 'Try the problem below; take it one step at a time.'], question: null };
    default: {
      const unreachable: never = step;
      throw new Error(`unknown step ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Moves on from the current step: the next one presented, or the plan completed on the last. */
function moveOn(input: MasterTurnInput, draft: Draft): void {
  const total = input.plan.steps.length;
  if (input.extension) {
    draft.response.push('Want another challenge, or shall we stop here?');
    return;
  }
  if (input.step.number >= total) {
    draft.complete = true;
    draft.response.push(`That’s the whole of ${input.plan.title} — well done. You can end the session whenever you like.`);
    draft.summary += '; plan complete';
    return;
  }
  const next = input.plan.steps[input.step.number]!;
  const unasked = next.type === 'check' ? next.questions.map((_, index) => index) : [];
  const presented = presentStep(next, input, unasked);
  draft.advanceTo = next.number;
  draft.response.push(...presented.response);
  draft.question = presented.question;
  draft.summary += `; moved to step ${next.number}`;
}

/** After a question closed: the step's next check question, or on to the next step. */
function continueStep(input: MasterTurnInput, draft: Draft, justAsked: number | null): void {
  const step = input.step;
  if (step.type === 'check') {
    const remaining = input.unaskedQuestions.filter((index) => index !== justAsked);
    const next = remaining[0];
    if (next !== undefined) {
      const question = step.questions[next]!;
      draft.response.push(`Next question: ${question.question}`);
      draft.question = { text: question.question, expected: question.expectedAnswer, concept: step.concept };
      return;
    }
  }
  moveOn(input, draft);
}

/** The plan's index of the open question on the current step, if it is one of its check questions. */
function openPlanIndex(input: MasterTurnInput): number | null {
  return input.openQuestion && input.openQuestion.step === input.step.number ? input.openQuestion.planQuestion : null;
}

export function offlineMasterTurn(input: MasterTurnInput): TutorTurnOutput {
  const { step, openQuestion, learnerMessage, practice } = input;
  const draft: Draft = { response: [], intent: 'continuation', answerCorrect: null, advanceTo: null, question: null, complete: false, summary: `step ${step.number} (${step.type}, ${step.concept})` };

  if (practice?.outcome) {
    draft.intent = 'answer';
    draft.response.push(practice.outcome.correct ? 'That’s right — nicely done.' : `Not quite${practice.outcome.note ? '' : ''}: the answer was marked wrong. Look back at how ${step.concept} works and compare.`);
    draft.summary += `; practice item ${practice.outcome.correct ? 'right' : 'wrong'}`;
    if (practice.answered < practice.total) draft.response.push('Here’s another one to try.');
    else moveOn(input, draft);
  } else if (learnerMessage !== null && confusionPattern.test(learnerMessage.trim()) && openQuestion) {
    // "I don't know" counts as a wrong attempt: the next phase helps more.
    judgeWrong(input, draft, openQuestion.wrongAttempts + 1, 'confusion');
  } else if (learnerMessage !== null && isOffTopic(learnerMessage, input)) {
    draft.intent = 'off_topic';
    draft.response.push(`That’s a bit outside what we’re doing — let’s stay with ${input.plan.topic} for now.`);
    if (openQuestion) draft.response.push(`So: ${openQuestion.question}`);
    else draft.response.push(teachingText(input, 1));
    draft.summary += '; off-topic message redirected';
  } else if (learnerMessage !== null && openQuestion) {
    const right = judgeAnswer(learnerMessage, openQuestion.expectedAnswer, openQuestion.acceptedAnswers);
    if (right) {
      draft.intent = 'answer';
      draft.answerCorrect = true;
      draft.response.push(`Yes — ${openQuestion.expectedAnswer} is right.`);
      draft.summary += '; answered right';
      continueStep(input, draft, openPlanIndex(input));
    } else if (isQuestion(learnerMessage)) {
      draft.intent = 'question';
      draft.response.push(`Good question. ${teachingText(input, 2)}`, `So, back to it: ${openQuestion.question}`);
      draft.summary += '; learner asked a question';
    } else {
      judgeWrong(input, draft, openQuestion.wrongAttempts + 1, 'answer');
    }
  } else if (learnerMessage !== null && isQuestion(learnerMessage)) {
    draft.intent = 'question';
    draft.response.push(`Good question. ${teachingText(input, 2)}`, step.type === 'practice' ? 'Give the problem a try when you’re ready.' : 'Does that help?');
    draft.summary += '; learner asked a question';
  } else if (step.type === 'practice' && practice && !practice.presenting) {
    draft.response.push('Have a go at the practice problem above — your answer goes in the box under it.');
  } else if (step.type === 'practice' && practice?.presenting) {
    draft.response.push(...presentStep(step, input, []).response);
  } else if (step.type === 'check' && input.unaskedQuestions.length > 0) {
    const presented = presentStep(step, input, input.unaskedQuestions);
    draft.response.push(...presented.response);
    draft.question = presented.question;
  } else {
    if (learnerMessage !== null) draft.response.push(learnerMessage.trim().split(/\s+/).length <= 3 ? 'Good.' : 'Thanks — that’s a fair way to put it.');
    moveOn(input, draft);
  }

  const question = draft.question;
  return {
    response: draft.response.filter(Boolean).join(' '),
    intent: draft.intent,
    answer_correct: draft.answerCorrect,
    misconceptions_detected: [],
    mastery_signal: draft.answerCorrect === true ? 'strong' : draft.answerCorrect === false ? 'needs_remediation' : 'adequate',
    mastery_updates: [],
    advance_to_step: draft.advanceTo,
    question_asked: question?.text ?? null,
    expected_answer: question?.expected ?? null,
    question_concept: question?.concept ?? null,
    session_complete: draft.complete,
    turn_summary: draft.summary,
    reasoning: 'offline tutor: lexical judging against the plan’s expected answers',
  };
}

/** A wrong (or "I don't know") answer: probe, then hint, then explain and move on. */
function judgeWrong(input: MasterTurnInput, draft: Draft, attempt: number, intent: 'answer' | 'confusion'): void {
  const question = input.openQuestion!;
  draft.intent = intent;
  draft.answerCorrect = false;
  if (attempt === 1) {
    draft.response.push(
      intent === 'confusion' ? 'No problem — let’s work it out together.' : 'Not quite.',
      `Think about ${question.concept}: ${teachingText(input, 1)}`,
      `With that in mind, what would you say now? ${question.question}`,
    );
    draft.summary += '; wrong → probe';
  } else if (attempt === 2) {
    draft.response.push('Still not it — here’s a hint.', `The answer has this shape: ${maskedAnswer(question.expectedAnswer)}.`, `Try once more: ${question.question}`);
    draft.summary += '; wrong → hint';
  } else {
    draft.response.push(`Let me explain. The answer is ${question.expectedAnswer}.`, teachingText(input, 2));
    draft.summary += '; wrong → explain';
    continueStep(input, draft, openPlanIndex(input));
  }
}

/** "Read a number" → "read a number" (an acronym such as "IPv4" stays as it is). */
function lowerFirst(text: string): string {
  return /^\p{Lu}\p{Ll}/u.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

export function offlineWelcome(input: WelcomeInput): string {
  const { plan, step } = input;
  const opening = `Welcome! Today’s topic is ${plan.topic}. By the end you should be able to ${lowerFirst(plan.objectives[0]!.replace(/\.$/, ''))}.`;
  if (step.type === 'explain') return `${opening} ${firstSentences(step.contentHint, 1)} What do you already know about ${step.concept}?`;
  return `${opening} We’ll start with ${step.concept}. What do you already know about it?`;
}

export function offlinePostCompletion(input: PostCompletionInput): string {
  const weakest = input.concepts.find((entry) => entry.level !== 'mastered');
  return `We’ve finished ${input.plan.title}. ${weakest ? `If you want to strengthen ${weakest.concept}, start a new session on it later.` : 'You’ve got every concept of it — nice work.'} You can end this session, or start another plan from the study plans page.`;
}

function call<T>(output: T): LearningCall<T> {
  return { output, usage: null, model: offlineModel };
}

/** The offline provider's learning tutor. */
export function createOfflineLearningTutor(): LearningTutor {
  return {
    masterTurn: async (input, signal) => {
      signal.throwIfAborted();
      return call(offlineMasterTurn(input));
    },
    welcome: async (input, signal) => {
      signal.throwIfAborted();
      return call(offlineWelcome(input));
    },
    postCompletion: async (input, signal) => {
      signal.throwIfAborted();
      return call(offlinePostCompletion(input));
    },
  };
}
