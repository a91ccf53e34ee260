import type { SessionTypeRules } from '../session-type';
import { ruleDefaults } from '../rule-defaults';

/** Thought sessions (SPEC §4.5): a conversation with no checklist and no score. */
export const thoughtRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Thinking',
  defaultTitle: 'Thinking it through',
  endNote: 'You get a summary of where your thinking went.',
  canStop: true,
  canRetry: true,
  backRoute: { name: 'reflect' },
};
