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
import { readLearnerIntent, type LearnerIntent } from '../offline/learner-intent';
import { answerTokens, judgeAnswer, mentionsAnswer } from './answer-match';
import { maxSentences } from './signals';
import type { TutorTurnOutput } from './tutor-turn';

const offlineModel = 'offline';

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.trim()).filter(Boolean);
}

function firstSentences(text: string, count: number): string {
  return sentences(text).slice(0, Math.max(1, count)).join(' ');
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

/** The words a sentence is about: lowercase content tokens, for overlap between texts. */
function aboutWords(text: string): Set<string> {
  return new Set(answerTokens(text).filter((token) => token.length > 2 && !topicStopwords.has(token)).map((token) => token.replace(/s$/, '')));
}

/** Sentences of the plan's explanations of the current concept (or, failing that, of every explanation so far). */
function conceptSentences(input: MasterTurnInput): string[] {
  const taught = input.plan.steps.filter((step) => step.type === 'explain' && step.number <= Math.max(input.step.number, 1));
  const own = taught.filter((step) => step.concept === input.step.concept);
  return (own.length > 0 ? own : taught).flatMap((step) => sentences(step.contentHint));
}

/** Whether the tutor's last reply already said `text` (a hint is never the sentence just said). */
function saidRecently(input: MasterTurnInput, text: string): boolean {
  if (!text) return false;
  const last = [...input.recentMessages].reverse().find((message) => message.role === 'tutor');
  return last !== undefined && last.content.includes(text);
}

/** The sentences of `pool` ranked by how many words they share with `about`, safe ones only. */
function rankedSentences(pool: readonly string[], about: string, input: MasterTurnInput): string[] {
  const wanted = aboutWords(about);
  const answer = input.openQuestion?.expectedAnswer;
  return pool
    .map((sentence, index) => ({ sentence, index, score: [...aboutWords(sentence)].filter((word) => wanted.has(word)).length }))
    .filter((entry) => !answer || !mentionsAnswer(entry.sentence, answer))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.sentence);
}

/** A learner's question answered from the plan's own explanations: the sentences closest to it. */
function answerFromContent(input: MasterTurnInput, question: string): string {
  const ranked = rankedSentences(
    input.plan.steps.filter((step) => step.type === 'explain' && step.number <= Math.max(input.step.number, 1)).flatMap((step) => sentences(step.contentHint)),
    question,
    input,
  ).filter((sentence) => !saidRecently(input, sentence));
  if (ranked.length === 0) return `Good question — it goes beyond what this plan covers, so I can’t answer it well here. ${teachingText(input, 1)}`.trim();
  return `Good question. ${ranked.slice(0, 2).join(' ')}`;
}

/** The current concept explained from a sentence other than the first (for "I don't get it"). */
function secondExplanation(input: MasterTurnInput): string {
  const pool = conceptSentences(input);
  return pool.slice(1, 3).join(' ') || pool[0] || '';
}

/**
 * The hint for the open question: the explanation's sentence most related to the question
 * (not the one the probe already used, never one that states the answer), and the plan's
 * misconception note for the concept when there is one — substance, never the answer's length.
 */
function hintFor(input: MasterTurnInput): string {
  const question = input.openQuestion!;
  const probe = teachingText(input, 1);
  const sentence = rankedSentences(conceptSentences(input), question.question, input).find((candidate) => candidate !== probe && !saidRecently(input, candidate));
  const slip = input.plan.misconceptions.find((entry) => entry.concept === question.concept && !mentionsAnswer(entry.description, question.expectedAnswer));
  const parts = [sentence ?? probe];
  if (slip) parts.push(`Watch out for a common slip: ${lowerFirst(slip.description.replace(/\.$/, ''))}.`);
  return parts.filter(Boolean).join(' ');
}

function redirectOffTopic(input: MasterTurnInput, draft: Draft): void {
  draft.intent = 'off_topic';
  draft.response.push(`That’s a bit outside what we’re doing — let’s stay with ${input.plan.topic} for now.`);
  if (input.openQuestion) draft.response.push(`So: ${input.openQuestion.question}`);
  else draft.response.push(teachingText(input, 1));
  draft.summary += '; off-topic message redirected';
}

/**
 * A message while a question is open, read for its intent first (issue 28 item 1): a right
 * answer (hedged or not) closes the question; "ok" or a remark asks it again without spending
 * a phase; "I don't know" goes to the hint; a question is answered from the plan and the
 * question stays open; only a real attempt that is wrong moves probe → hint → explain.
 */
function answerOpenQuestion(input: MasterTurnInput, draft: Draft, message: string, intent: LearnerIntent): void {
  const question = input.openQuestion!;
  const attempt = intent.kind === 'answer' ? intent.answer : message;
  if (judgeAnswer(attempt, question.expectedAnswer, question.acceptedAnswers) || (intent.kind !== 'question' && judgeAnswer(message, question.expectedAnswer, question.acceptedAnswers))) {
    draft.intent = 'answer';
    draft.answerCorrect = true;
    draft.response.push(intent.kind === 'answer' && intent.hedged ? `Yes — trust yourself: ${question.expectedAnswer} is right.` : `Yes — ${question.expectedAnswer} is right.`);
    draft.summary += '; answered right';
    continueStep(input, draft, openPlanIndex(input));
    return;
  }
  switch (intent.kind) {
    case 'continue':
    case 'remark':
      draft.intent = 'continuation';
      draft.response.push(intent.kind === 'remark' ? 'Right.' : 'Sure.', `Here’s the question again: ${question.question}`, 'Have a go — or say “hint” if you’d like one.');
      draft.summary += '; no answer yet, question asked again';
      return;
    case 'stuck':
      judgeWrong(input, draft, Math.max(question.wrongAttempts + 1, 2), 'confusion');
      return;
    case 'question':
      if (isOffTopic(message, input)) return redirectOffTopic(input, draft);
      draft.intent = 'question';
      draft.response.push(answerFromContent(input, message), `So, back to it: ${question.question}`);
      draft.summary += '; learner asked a question';
      return;
    case 'answer':
      if (isOffTopic(message, input)) return redirectOffTopic(input, draft);
      judgeWrong(input, draft, question.wrongAttempts + 1, 'answer');
      return;
    default: {
      const unreachable: never = intent;
      throw new Error(`unknown intent ${JSON.stringify(unreachable)}`);
    }
  }
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
  } else if (learnerMessage !== null && openQuestion) {
    answerOpenQuestion(input, draft, learnerMessage, readLearnerIntent(learnerMessage));
  } else if (learnerMessage !== null && readLearnerIntent(learnerMessage).kind === 'question') {
    if (isOffTopic(learnerMessage, input)) redirectOffTopic(input, draft);
    else {
      draft.intent = 'question';
      draft.response.push(answerFromContent(input, learnerMessage), step.type === 'practice' ? 'Give the problem a try when you’re ready.' : 'Does that help?');
      draft.summary += '; learner asked a question';
    }
  } else if (learnerMessage !== null && step.type === 'explain' && readLearnerIntent(learnerMessage).kind === 'stuck' && !saidRecently(input, secondExplanation(input))) {
    // "I don't get it" after an explanation: the same idea again, from another of its sentences.
    draft.intent = 'confusion';
    draft.response.push('Let me put it another way.', secondExplanation(input), 'Does that make more sense?');
    draft.summary += '; explained again';
  } else if (learnerMessage !== null && readLearnerIntent(learnerMessage).kind === 'answer' && isOffTopic(learnerMessage, input)) {
    redirectOffTopic(input, draft);
  } else if (step.type === 'practice' && practice && !practice.presenting) {
    draft.response.push('Have a go at the practice problem above — your answer goes in the box under it.');
  } else if (step.type === 'practice' && practice?.presenting) {
    draft.response.push(...presentStep(step, input, []).response);
  } else if (step.type === 'check' && input.unaskedQuestions.length > 0) {
    const presented = presentStep(step, input, input.unaskedQuestions);
    draft.response.push(...presented.response);
    draft.question = presented.question;
  } else {
    if (learnerMessage !== null) {
      const intent = readLearnerIntent(learnerMessage);
      // "ok" / "got it" moves on with no verdict on words that were not an answer.
      if (intent.kind === 'continue') draft.response.push('Great — on we go.');
      else if (intent.kind === 'stuck') draft.response.push('No problem — we’ll come back to it as we go.');
      else draft.response.push(learnerMessage.trim().split(/\s+/).length <= 3 ? 'Good.' : 'Thanks — that’s a fair way to put it.');
    }
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
    draft.response.push(intent === 'confusion' ? 'That’s all right — here’s a hint.' : 'Still not it — here’s a hint.', hintFor(input), `Try once more: ${question.question}`);
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
