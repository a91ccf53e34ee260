/**
 * The registry of session types: one module each (session/session-module.ts). The only file
 * that knows every type; the hub, the HTTP routes and the services dispatch through it.
 */
import { assessmentModule, type AssessmentModuleDeps } from './assessment-session/assessment-module';
import { learningModule, type LearningModuleDeps } from './learning/learning-module';
import { recallModule, type RecallModuleDeps } from './recall/recall-module';
import type { SessionModules } from './session/session-module';
import { surveyModule, type SurveyModuleDeps } from './survey/survey-module';
import { thoughtModule, type ThoughtModuleDeps } from './thought/thought-module';

/** Everything the session types' modules need, together. */
export type SessionModulesDeps = RecallModuleDeps & AssessmentModuleDeps & LearningModuleDeps & ThoughtModuleDeps & SurveyModuleDeps;

export function createSessionModules(deps: SessionModulesDeps): SessionModules {
  return {
    recall: recallModule(deps),
    assessment: assessmentModule(deps),
    learning: learningModule(deps),
    thought: thoughtModule(deps),
    survey: surveyModule(deps),
  };
}
