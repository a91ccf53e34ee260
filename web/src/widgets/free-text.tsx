import { useId, type FormEvent, type KeyboardEvent } from 'react';
import { SubmitButton } from './submit-button';
import { Markdown } from '../components/markdown';
import { useDraft } from '../hooks/use-draft';
import type { WidgetAnswerProps, WidgetInputProps } from './widget-types';

/** A written answer with a live character count; the widget's `maxLength` is enforced. */
export function FreeText({ widget, disabled, autoFocus, onSubmit }: WidgetInputProps<'free_text'>) {
  // Kept per session until submitted, so a reload or a crashed tab loses nothing (issue 18).
  const [text, setText] = useDraft(`widget.${widget.widgetId}`, '');
  const promptId = useId();
  const inputId = useId();
  const countId = useId();
  const { prompt, placeholder, context, maxLength } = widget.props;
  const canSubmit = !disabled && text.trim().length > 0;

  function handleSubmit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSubmit) return;
    onSubmit({ text });
    setText('');
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter makes a new line here (answers may be long); Ctrl/⌘+Enter submits.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      handleSubmit();
    }
  }

  return (
    <form className="widget-form" onSubmit={handleSubmit} aria-labelledby={promptId}>
      <div id={promptId} className="widget-prompt">
        <Markdown text={prompt} />
      </div>
      {context ? <p className="widget-context">{context}</p> : null}
      <label htmlFor={inputId} className="field-label">
        Your answer
      </label>
      <textarea
        id={inputId}
        className="input"
        rows={4}
        value={text}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-describedby={countId}
        onChange={(event) => setText(event.target.value.slice(0, maxLength))}
        onKeyDown={handleKeyDown}
        autoFocus={autoFocus}
      />
      <div className="widget-actions">
        <span id={countId} className="char-count" data-testid="char-count">
          {text.length} / {maxLength}
        </span>
        <SubmitButton disabled={disabled} missing={text.trim().length === 0 ? 'Write your answer to submit.' : null}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}

export function FreeTextAnswer({ answer }: WidgetAnswerProps<'free_text'>) {
  return <p className="widget-answer plain-text">{answer.text}</p>;
}
