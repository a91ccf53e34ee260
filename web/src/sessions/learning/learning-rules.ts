import type { SessionTypeRules } from '../session-type';
import { ruleDefaults } from '../rule-defaults';

/** Learning sessions (SPEC §4.4): a study plan's steps, shown in their own bar and rail. */
export const learningRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Learning',
  defaultTitle: 'Learning session',
  endNote: 'You see a summary of the steps you covered. You can start the plan again at any time.',
  backRoute: { name: 'plans' },
  // A completed plan still answers questions (SPEC §4.4 step 1: post-completion replies).
  followUpAfter: (summary) => summary.learning !== undefined && summary.reason === 'plan_completed',
  startAgain: async ({ summary }) =>
    summary.learning
      ? { ok: true, value: { type: 'learning', studyPlanId: summary.learning.studyPlanId } }
      : { ok: false, error: 'This session does not say which study plan to start again.' },
};
