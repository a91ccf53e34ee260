import type { HeaderExtrasProps, RailProps, SessionTypeDefinition } from '../session-type';
import { LearningCompletion } from './learning-completion';
import { LearningBar, LearningRail } from './learning-rail';
import { learningRules } from './learning-rules';

function LearningStep({ state }: HeaderExtrasProps) {
  return state.learning ? <LearningBar progress={state.learning} /> : null;
}

function LearningSteps({ state, layout }: RailProps) {
  return state.learning ? <LearningRail progress={state.learning} layout={layout} /> : null;
}

export const learningSession: SessionTypeDefinition = {
  ...learningRules,
  HeaderExtras: LearningStep,
  // Wide screens show the plan's steps beside the conversation; narrow ones fold them above it.
  Rail: { layoutClassName: 'learning-layout', shown: (state) => state.learning !== undefined, Component: LearningSteps },
  Completion: LearningCompletion,
};
