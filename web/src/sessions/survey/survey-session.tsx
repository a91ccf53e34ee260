import type { SessionTypeDefinition } from '../session-type';
import { surveyRules } from './survey-rules';
import { SurveySummary } from './survey-summary';

export const surveySession: SessionTypeDefinition = {
  ...surveyRules,
  HeaderExtras: null,
  Rail: null,
  Completion: SurveySummary,
};
