// A plain monospace textarea for now: CodeMirror 6, lazy-loaded (import() on first use so
// it stays out of the initial bundle), replaces it later behind the same props.
import { Limits } from '@tutorloop/shared';
import { useId, useState, type FormEvent } from 'react';
import { Markdown } from '../components/markdown';
import type { WidgetAnswerProps, WidgetInputProps } from './widget-types';

const languageNames = { python: 'Python', javascript: 'JavaScript' } as const;

/** Code to run against tests on the server. */
export function CodeEditor({ widget, disabled, onSubmit }: WidgetInputProps<'code_editor'>) {
  const { prompt, language, starterCode } = widget.props;
  const [code, setCode] = useState(starterCode ?? '');
  const promptId = useId();
  const inputId = useId();
  const canSubmit = !disabled && code.trim().length > 0;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (canSubmit) onSubmit({ code, language });
  }

  return (
    <form className="widget-form" onSubmit={handleSubmit} aria-labelledby={promptId}>
      <div id={promptId} className="widget-prompt">
        <Markdown text={prompt} />
      </div>
      <div className="code-label-row">
        <label htmlFor={inputId} className="field-label">
          Code
        </label>
        <span className="language-badge" data-testid="code-language">
          {languageNames[language]}
        </span>
      </div>
      <textarea
        id={inputId}
        className="input code-input"
        rows={10}
        value={code}
        maxLength={Limits.codeMaxLength}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="widget-actions">
        <button type="submit" className="button primary" disabled={!canSubmit}>
          Run &amp; submit
        </button>
      </div>
    </form>
  );
}

export function CodeEditorAnswer({ widget, answer }: WidgetAnswerProps<'code_editor'>) {
  const language = 'language' in answer ? answer.language : widget.props.language;
  return (
    <div className="widget-answer">
      <span className="language-badge">{languageNames[language]}</span>
      <pre className="code-block">
        <code>{'code' in answer ? answer.code : ''}</code>
      </pre>
    </div>
  );
}
