import type { SessionTypeDefinition } from '../session-type';
import { thoughtRules } from './thought-rules';
import { ThoughtSummary } from './thought-summary';

export const thoughtSession: SessionTypeDefinition = {
  ...thoughtRules,
  HeaderExtras: null,
  Rail: null,
  Completion: ThoughtSummary,
};
