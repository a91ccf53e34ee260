import type { SessionTypeRules } from '../session-type';
import { ruleDefaults } from '../rule-defaults';

/** Surveys (SPEC §4.5): question n of N, optional questions may be skipped, nothing scored. */
export const surveyRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Survey',
  defaultTitle: 'Survey',
  endNote: 'The answers you gave so far are kept; the questions left stay unanswered.',
  progressLabel: (state) => (state.survey ? `Question ${state.survey.question} of ${state.survey.totalQuestions}` : null),
  // The server reads the chat message `skip` as skipping the question.
  canSkip: (state) => state.survey?.required === false,
  backRoute: { name: 'reflect' },
};
