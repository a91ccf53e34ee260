/**
 * The rules of a survey session (SPEC §4.5), pure: which question comes after an answer (the
 * skip rules, forward only), the widget a question is presented as (verbatim), the fixed
 * polite lines around it, what the respondent sees of their progress and their summary.
 * There are no correct answers and no feedback anywhere here.
 */
import { answerForKind, surveyEnd, type SessionSummary, type SkipCondition, type SurveyContent, type SurveyProgress, type SurveyQuestion, type SurveySessionSummary, type WidgetAnswer } from '@tutorloop/shared';
import type { WidgetRequest } from '../provider';
import type { SurveyAnswerRecord, SurveySessionState } from './survey-state';

/** The chat message that skips an optional question (the web's "Skip" button sends it). */
export const skipCommand = 'skip';

export function isSkipCommand(text: string): boolean {
  return text.trim().toLowerCase() === skipCommand;
}

/** The state a new survey session starts with: the first question on screen. */
export function initialSurveyState(surveyId: string, survey: SurveyContent): SurveySessionState {
  return { type: 'survey', surveyId, survey, current: survey.questions[0]!.id, answers: [] };
}

export function questionOf(survey: SurveyContent, questionId: string): { question: SurveyQuestion; position: number } {
  const index = survey.questions.findIndex((question) => question.id === questionId);
  if (index < 0) throw new Error(`survey has no question ${questionId}`);
  return { question: survey.questions[index]!, position: index + 1 };
}

function conditionHolds(question: SurveyQuestion, when: SkipCondition, response: WidgetAnswer): boolean {
  switch (question.kind) {
    case 'multiple_choice': {
      const picked = answerForKind(question.kind, response);
      return picked !== null && 'equals' in when && question.options[picked.answer.selectedIndex] === when.equals;
    }
    case 'rating': {
      const rated = answerForKind(question.kind, response);
      if (!rated) return false;
      if ('equals' in when) return rated.answer.value === when.equals;
      if ('atMost' in when) return rated.answer.value <= when.atMost;
      return rated.answer.value >= when.atLeast;
    }
    case 'free_text':
      return false;
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * The question after `questionId` given its answer (null: skipped): the target of the first
 * skip rule that holds, else the next question in order. Null when the survey ends there.
 */
export function nextQuestionId(survey: SurveyContent, questionId: string, answer: WidgetAnswer | null): string | null {
  const { question, position } = questionOf(survey, questionId);
  if (answer) {
    const rule = question.skip.find((candidate) => conditionHolds(question, candidate.when, answer));
    if (rule) return rule.goTo === surveyEnd ? null : rule.goTo;
  }
  return survey.questions[position]?.id ?? null;
}

/** Whether a skip condition holds whatever the respondent answers (a rating `atLeast` its minimum). */
function holdsForEveryAnswer(question: SurveyQuestion, when: SkipCondition): boolean {
  switch (question.kind) {
    case 'multiple_choice':
      return 'equals' in when && question.options.every((option) => option === when.equals);
    case 'rating':
      if ('equals' in when) return question.min === question.max && when.equals === question.min;
      if ('atMost' in when) return when.atMost >= question.max;
      return when.atLeast <= question.min;
    case 'free_text':
      return false;
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * How many questions the respondent still meets from `questionId` (itself included), on the
 * path its answers so far have chosen: the questions in order, with every skip rule that holds
 * whatever the answer taken. Issue 25: "Question 5 of 6" then "5 answered" — the total was every
 * question of the survey, those on the other branch too.
 */
export function questionsAhead(survey: SurveyContent, questionId: string): number {
  let count = 0;
  let id: string | null = questionId;
  // Skips only go forward, so the walk ends; the bound is a guard all the same.
  while (id !== null && count < survey.questions.length) {
    count += 1;
    const { question, position } = questionOf(survey, id);
    const always = question.skip.find((rule) => holdsForEveryAnswer(question, rule.when));
    id = always ? (always.goTo === surveyEnd ? null : always.goTo) : (survey.questions[position]?.id ?? null);
  }
  return count;
}

/** The widget a question is presented as: its prompt and choices verbatim. */
export function questionWidget(question: SurveyQuestion): WidgetRequest {
  switch (question.kind) {
    case 'multiple_choice':
      return { kind: 'multiple_choice', props: { prompt: question.prompt, options: [...question.options] } };
    case 'rating':
      return { kind: 'rating', props: { prompt: question.prompt, min: question.min, max: question.max, ...(question.labels ? { labels: { ...question.labels } } : {}) } };
    case 'free_text':
      return { kind: 'free_text', props: { prompt: question.prompt, maxLength: question.maxLength, ...(question.placeholder ? { placeholder: question.placeholder } : {}) } };
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The tool call id a question's widget is stored under (each question is presented at most once: skips only go forward). */
export function questionToolCallId(questionId: string): string {
  return `survey-${questionId}`;
}

// The polite lines (SPEC §4.5: "at most a polite transition"): fixed text, never a judgement of an answer.

export function openingLine(survey: SurveyContent): string {
  const count = questionsAhead(survey, survey.questions[0]!.id);
  const intro = `Welcome to “${survey.title}”.${survey.description ? ` ${survey.description}` : ''}`;
  return `${intro} Answer each question below. Question 1 of ${count}.`;
}

const thanks = ['Thank you.', 'Thanks — noted.', 'Got it, thank you.'];

export function transitionLine(position: number, total: number, skipped: boolean): string {
  return `${skipped ? 'No problem, we’ll skip that one.' : thanks[position % thanks.length]} Question ${position} of ${total}.`;
}

export const closingLine = 'That’s the end of the survey — thank you for your answers!';

/** The reply to a chat message while a question waits: the answer goes in the question's widget. */
export function chatRedirect(question: SurveyQuestion): string {
  return question.required
    ? 'This survey is answered through the question above — please give your answer there.'
    : `This survey is answered through the question above — please give your answer there, or send “${skipCommand}” to skip this one.`;
}

/**
 * What the respondent sees of their progress: question n of N counted on their own path (the
 * questions done, then those still ahead), so the last question is "N of N" and the summary's
 * answered and skipped add up to N; whether the question on screen may be skipped.
 */
export function surveyProgress(state: SurveySessionState): SurveyProgress {
  const done = state.answers.length;
  const skipped = state.answers.filter((record) => record.answer === null).length;
  const base = { surveyId: state.surveyId, answered: done - skipped, skipped };
  if (state.current !== null) {
    const { question } = questionOf(state.survey, state.current);
    return { ...base, question: done + 1, totalQuestions: done + questionsAhead(state.survey, state.current), required: question.required };
  }
  return { ...base, question: Math.max(1, done), totalQuestions: Math.max(1, done), required: false };
}

export function answerView(state: SurveySessionState, record: SurveyAnswerRecord) {
  return { questionId: record.questionId, prompt: questionOf(state.survey, record.questionId).question.prompt, answer: record.text };
}

/** The survey part of the summary: the respondent's own answers, in the order given. */
export function surveySummary(state: SurveySessionState, reason: SessionSummary['reason'] | null): SurveySessionSummary {
  const progress = surveyProgress(state);
  return {
    surveyId: state.surveyId,
    title: state.survey.title,
    totalQuestions: progress.totalQuestions,
    answered: progress.answered,
    skipped: progress.skipped,
    finished: reason === 'all_answered',
    answers: state.answers.map((record) => answerView(state, record)),
  };
}
