import { useId, useState, type FormEvent } from 'react';
import { Markdown } from '../components/markdown';
import { SubmitButton } from './submit-button';
import type { WidgetAnswerProps, WidgetInputProps, WidgetReadOnlyProps } from './widget-types';

function selectedIndexOf(answer: WidgetReadOnlyProps<'multiple_choice'>['answer']): number | null {
  return answer?.selectedIndex ?? null;
}

/**
 * One choice out of 2–6, as a native radio group: arrow keys move (and select) within the
 * group, Tab leaves it, Space selects, and screen readers announce "n of m".
 */
export function MultipleChoice({ widget, disabled, autoFocus, onSubmit }: WidgetInputProps<'multiple_choice'>) {
  const [selected, setSelected] = useState<number | null>(null);
  const promptId = useId();
  const { prompt, options, context } = widget.props;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected !== null && !disabled) onSubmit({ selectedIndex: selected });
  }

  return (
    <form className="widget-form" onSubmit={handleSubmit} aria-labelledby={promptId}>
      <div id={promptId} className="widget-prompt">
        <Markdown text={prompt} />
      </div>
      {context ? <p className="widget-context">{context}</p> : null}
      <div role="radiogroup" aria-labelledby={promptId} className="choices">
        {options.map((option, index) => (
          <label key={index} className="choice">
            <input
              type="radio"
              name={`choice-${widget.widgetId}`}
              value={index}
              checked={selected === index}
              autoFocus={autoFocus === true && index === 0}
              onChange={() => setSelected(index)}
            />
            <span>{option}</span>
          </label>
        ))}
      </div>
      <div className="widget-actions">
        <SubmitButton disabled={disabled} missing={selected === null ? 'Pick an option to submit.' : null}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}

/** The question with its options; the learner's pick is marked once known. */
export function MultipleChoicePrompt({ widget, answer }: WidgetReadOnlyProps<'multiple_choice'>) {
  const chosen = selectedIndexOf(answer);
  return (
    <div className="widget-readonly">
      <div className="widget-prompt">
        <Markdown text={widget.props.prompt} />
      </div>
      <ul className="choices-readonly">
        {widget.props.options.map((option, index) => (
          <li key={index} className={index === chosen ? 'chosen' : undefined}>
            {option}
            {index === chosen ? <span className="chosen-mark"> — your answer</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The option the learner chose. */
export function MultipleChoiceAnswer({ widget, answer }: WidgetAnswerProps<'multiple_choice'>) {
  const index = selectedIndexOf(answer);
  const option = index === null ? undefined : widget.props.options[index];
  return <p className="widget-answer">{option ?? `Option ${(index ?? 0) + 1}`}</p>;
}
