/**
 * A survey's results for its owner (SPEC §4.5, §6), pure: counts per option, a rating's mean
 * and distribution, the free-text answers, per question of the survey as it is now; and the
 * same answers as CSV, one row per respondent (session). Answers to a question the survey no
 * longer has are left out; an option index the question no longer has is not counted.
 */
import { answerForKind, kindOfAnswer, type SurveyContent, type SurveyQuestion, type SurveyQuestionResult, type SurveyResults, type WidgetAnswer } from '@tutorloop/shared';
import type { StoredSurveyResponse } from '../storage/surveys';
import { toCsv } from '../csv/csv';

/** A session that answered the survey: when it began answering and whether it reached the end. */
export interface Respondent {
  sessionId: string;
  completed: boolean;
}

function questionResult(question: SurveyContent['questions'][number], responses: StoredSurveyResponse[]): SurveyQuestionResult {
  const mine = responses.filter((response) => response.questionId === question.id);
  const given = mine.filter((response) => response.answer !== null);
  const base = { questionId: question.id, prompt: question.prompt, answered: given.length, skipped: mine.length - given.length };
  switch (question.kind) {
    case 'multiple_choice': {
      const counts = question.options.map(() => 0);
      for (const response of given) {
        const picked = answerForKind(question.kind, response.answer);
        if (picked && picked.answer.selectedIndex < counts.length) counts[picked.answer.selectedIndex]! += 1;
      }
      return { ...base, kind: 'multiple_choice', options: question.options.map((option, index) => ({ option, count: counts[index]! })) };
    }
    case 'rating': {
      const values = given.flatMap((response) => {
        const rated = answerForKind(question.kind, response.answer);
        return rated && rated.answer.value >= question.min && rated.answer.value <= question.max ? [rated.answer.value] : [];
      });
      const distribution = Array.from({ length: question.max - question.min + 1 }, (_, offset) => ({ value: question.min + offset, count: values.filter((value) => value === question.min + offset).length }));
      const mean = values.length > 0 ? Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100 : null;
      return { ...base, kind: 'rating', min: question.min, max: question.max, mean, distribution };
    }
    case 'free_text':
      return { ...base, kind: 'free_text', answers: given.flatMap((response) => answerForKind(question.kind, response.answer)?.answer.text ?? []) };
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

export function surveyResults(surveyId: string, survey: SurveyContent, responses: StoredSurveyResponse[], respondents: Respondent[]): SurveyResults {
  return {
    surveyId,
    title: survey.title,
    respondents: respondents.length,
    completed: respondents.filter((respondent) => respondent.completed).length,
    questions: survey.questions.map((question) => questionResult(question, responses)),
  };
}

/** The text of an option of a multiple-choice question ('' for any other kind or an index it no longer has). */
function optionText(question: SurveyQuestion, index: number): string {
  switch (question.kind) {
    case 'multiple_choice':
      return question.options[index] ?? '';
    case 'rating':
    case 'free_text':
      return '';
    default: {
      const unreachable: never = question;
      throw new Error(`unknown question ${JSON.stringify(unreachable)}`);
    }
  }
}

/**
 * An answer as its CSV cell, read as what was answered: a question edited to another kind
 * since still shows the value given then.
 */
function csvCell(question: SurveyQuestion, stored: WidgetAnswer, answerText: string | null): string | number {
  const answer = kindOfAnswer(stored);
  if (!answer) return answerText ?? '';
  switch (answer.kind) {
    case 'rating':
      return answer.answer.value;
    case 'multiple_choice':
      return optionText(question, answer.answer.selectedIndex);
    case 'free_text':
      return answer.answer.text;
    case 'code_editor':
      return answerText ?? '';
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
    }
  }
}

/** One row per respondent, in the order they first answered: `respondent, session_id, answered_at, completed`, then one column per question (its id); a skipped or unseen question is empty. */
export function surveyResultsCsv(survey: SurveyContent, responses: StoredSurveyResponse[], respondents: Respondent[]): string {
  const header = ['respondent', 'session_id', 'answered_at', 'completed', ...survey.questions.map((question) => question.id)];
  const rows = respondents.map((respondent, index) => {
    const mine = responses.filter((response) => response.sessionId === respondent.sessionId);
    const first = mine.reduce<Date | null>((earliest, response) => (earliest === null || response.answeredAt < earliest ? response.answeredAt : earliest), null);
    return [
      index + 1,
      respondent.sessionId,
      first ? first.toISOString() : '',
      respondent.completed ? 'yes' : 'no',
      ...survey.questions.map((question) => {
        const response = mine.find((candidate) => candidate.questionId === question.id);
        if (!response?.answer) return '';
        return csvCell(question, response.answer, response.answerText);
      }),
    ];
  });
  return toCsv([header, ...rows]);
}
