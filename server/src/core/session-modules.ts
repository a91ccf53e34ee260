/**
 * The registry of session types: one module each (session/session-module.ts). The only file
 * that knows every type; the hub, the HTTP routes and the services dispatch through it.
 */
import { assessmentModule, type AssessmentModuleDeps } from './assessment-session/assessment-module';
import { clozeModule, type ClozeModuleDeps } from './cloze/cloze-module';
import { learningModule, type LearningModuleDeps } from './learning/learning-module';
import { learningTutorFor } from './learning/learning-model';
import { recallModule, type RecallModuleDeps } from './recall/recall-module';
import type { SessionModules } from './session/session-module';
import { surveyModule, type SurveyModuleDeps } from './survey/survey-module';
import { thoughtModule, type ThoughtModuleDeps } from './thought/thought-module';
import { thoughtPartnerFor } from './thought/thought-model';

/**
 * Everything the session types' modules need, together. A type's own model port is built here
 * from the provider (its models, or the type's offline version), so neither the provider port
 * nor llm/ names a type; a test may pass its own instead.
 */
export type SessionModulesDeps = RecallModuleDeps &
  AssessmentModuleDeps &
  Omit<LearningModuleDeps, 'learningTutor'> &
  Partial<Pick<LearningModuleDeps, 'learningTutor'>> &
  Omit<ThoughtModuleDeps, 'thoughtPartner'> &
  Partial<Pick<ThoughtModuleDeps, 'thoughtPartner'>> &
  SurveyModuleDeps &
  ClozeModuleDeps;

export function createSessionModules(deps: SessionModulesDeps): SessionModules {
  return {
    recall: recallModule(deps),
    assessment: assessmentModule(deps),
    learning: learningModule({ ...deps, learningTutor: deps.learningTutor ?? learningTutorFor(deps.provider) }),
    thought: thoughtModule({ ...deps, thoughtPartner: deps.thoughtPartner ?? thoughtPartnerFor(deps.provider) }),
    survey: surveyModule(deps),
    cloze: clozeModule(deps),
  };
}
