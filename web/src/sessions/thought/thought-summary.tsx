import { ReflectionShell } from '../reflection-shell';
import type { CompletionProps } from '../session-type';

/** The end of a thought session: where the learner's thinking went (SPEC §4.5), no score. */
export function ThoughtSummary({ summary, onBack }: CompletionProps) {
  const thought = summary.thought;
  return (
    <ReflectionShell onBack={onBack}>
      <h1 id="reflection-heading" tabIndex={-1}>
        {thought?.topic ? `Thinking about ${thought.topic}` : 'Your thinking session'}
      </h1>
      {thought ? (
        <>
          <p className="muted">
            {thought.learnerMessages} message{thought.learnerMessages === 1 ? '' : 's'} from you.
          </p>
          <p className="thought-summary" data-testid="thought-summary">
            {thought.summary}
          </p>
        </>
      ) : null}
    </ReflectionShell>
  );
}
