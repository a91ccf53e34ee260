import { useId, useState, type FormEvent } from 'react';
import { SubmitButton } from './submit-button';
import { Markdown } from '../components/markdown';
import type { WidgetAnswerProps, WidgetInputProps, WidgetReadOnlyProps } from './widget-types';

type RatingProps = WidgetInputProps<'rating'>['widget']['props'];

function valuesOf(props: Pick<RatingProps, 'min' | 'max'>): number[] {
  return Array.from({ length: props.max - props.min + 1 }, (_, offset) => props.min + offset);
}

function valueOf(answer: WidgetReadOnlyProps<'rating'>['answer']): number | null {
  return answer?.value ?? null;
}

/** "4" or "4 — Good": a value with its label, if the scale names it. */
function describe(props: RatingProps, value: number): string {
  const label = props.labels?.[String(value)];
  return label ? `${value} — ${label}` : String(value);
}

/**
 * A scale from `min` to `max` (SPEC §4.5, §5) as a native radio group: Tab enters it, the arrow
 * keys move (and select) along the scale, Space selects, Enter or the button submits. Screen
 * readers announce each value with its label ("5 — Excellent, 5 of 5").
 */
export function Rating({ widget, disabled, autoFocus, onSubmit }: WidgetInputProps<'rating'>) {
  const [selected, setSelected] = useState<number | null>(null);
  const promptId = useId();
  const { prompt, min, max, labels } = widget.props;
  const values = valuesOf(widget.props);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected !== null && !disabled) onSubmit({ value: selected });
  }

  return (
    <form className="widget-form" onSubmit={handleSubmit} aria-labelledby={promptId}>
      <div id={promptId} className="widget-prompt">
        <Markdown text={prompt} />
      </div>
      <div role="radiogroup" aria-labelledby={promptId} className="rating-scale" data-points={values.length}>
        {values.map((value) => {
          const label = labels?.[String(value)];
          return (
            <label key={value} className={`rating-point${selected === value ? ' selected' : ''}`}>
              <input
                type="radio"
                name={`rating-${widget.widgetId}`}
                value={value}
                checked={selected === value}
                aria-label={describe(widget.props, value)}
                autoFocus={autoFocus === true && value === min}
                onChange={() => setSelected(value)}
              />
              <span className="rating-value" aria-hidden="true">
                {value}
              </span>
              {label ? (
                <span className="rating-label" aria-hidden="true">
                  {label}
                </span>
              ) : null}
            </label>
          );
        })}
      </div>
      {/* No second row with the ends' labels: each label stands under its own point (issue 25:
          the survey showed them twice, the lower row out of line with the points). */}
      <div className="widget-actions">
        <SubmitButton disabled={disabled} missing={selected === null ? 'Choose a value to submit.' : null}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}

/** The scale as it was asked, the learner's value marked once known. */
export function RatingPrompt({ widget, answer }: WidgetReadOnlyProps<'rating'>) {
  const chosen = valueOf(answer);
  return (
    <div className="widget-readonly">
      <div className="widget-prompt">
        <Markdown text={widget.props.prompt} />
      </div>
      <p className="rating-readonly">
        Scale {widget.props.min}–{widget.props.max}
        {chosen !== null ? <span className="chosen-mark"> — your answer: {describe(widget.props, chosen)}</span> : null}
      </p>
    </div>
  );
}

/** The value the learner picked, with its label. */
export function RatingAnswer({ widget, answer }: WidgetAnswerProps<'rating'>) {
  const value = valueOf(answer);
  return <p className="widget-answer">{value === null ? '—' : `${describe(widget.props, value)} (of ${widget.props.max})`}</p>;
}
