import type { SessionTypeRules } from '../session-type';
import { ruleDefaults } from '../rule-defaults';

/** Assessments: items under a deadline, counted in their own bar; results at the end. */
export const assessmentRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Assessment',
  defaultTitle: 'Assessment',
  endNote: 'Items you have not answered score zero. Your results are shown right away.',
  scoresAnswers: true,
  resultsTitle: () => 'Assessment results',
  backRoute: { name: 'assessments' },
  startAgain: async ({ summary }) =>
    summary.assessment
      ? { ok: true, value: { type: 'assessment', blueprintId: summary.assessment.blueprintId } }
      : { ok: false, error: 'These results do not say which assessment to take again.' },
};
