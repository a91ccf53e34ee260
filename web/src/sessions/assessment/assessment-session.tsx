import type { CompletionProps, HeaderExtrasProps, SessionTypeDefinition } from '../session-type';
import { AssessmentBar } from './assessment-bar';
import { AssessmentResults } from './assessment-results';
import { assessmentRules } from './assessment-rules';

function AssessmentCountdown({ state, finished, onTimeUp }: HeaderExtrasProps) {
  return state.assessment ? <AssessmentBar progress={state.assessment} finished={finished} onTimeUp={onTimeUp} /> : null;
}

function AssessmentCompletion({ summary, startAgain, onBack }: CompletionProps) {
  return (
    <AssessmentResults
      summary={summary}
      retakeBusy={startAgain.busy}
      retakeError={startAgain.error}
      onBack={onBack}
      onRetake={() => startAgain.start()}
    />
  );
}

export const assessmentSession: SessionTypeDefinition = {
  ...assessmentRules,
  HeaderExtras: AssessmentCountdown,
  Rail: null,
  Completion: AssessmentCompletion,
};
