import { Limits, type CodeLanguage } from '@tutorloop/shared';
import { lazy, Suspense, useId, useRef, type ComponentType, type FormEvent } from 'react';
import { SubmitButton } from './submit-button';
import { LoadBoundary } from '../components/load-boundary';
import { Markdown } from '../components/markdown';
import { useDraft } from '../hooks/use-draft';
import { languageNames, loadLanguage } from './code-languages';
import type { CodeMirrorEditorProps } from './code-mirror-editor';
import type { WidgetAnswerProps, WidgetInputProps } from './widget-types';

type EditorProps = Omit<CodeMirrorEditorProps, 'language' | 'indentSize'>;

/** PEP 8's four spaces for Python; two, the common style, for JavaScript. */
const indentSizes: Record<CodeLanguage, number> = { python: 4, javascript: 2 };

/** CodeMirror with one language, fetched on first use (editor and language load in parallel). */
function lazyEditor(language: CodeLanguage) {
  return lazy(async (): Promise<{ default: ComponentType<EditorProps> }> => {
    const [module, extension] = await Promise.all([import('./code-mirror-editor'), loadLanguage(language)]);
    const Editor = module.default;
    return {
      default: (props: EditorProps) => <Editor {...props} language={extension} indentSize={indentSizes[language]} />,
    };
  });
}

const editors: Record<CodeLanguage, ComponentType<EditorProps>> = {
  python: lazyEditor('python'),
  javascript: lazyEditor('javascript'),
};

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** The plain editor: shown while CodeMirror loads, and if it cannot load. Shares the same code. */
function FallbackEditor({ value, onChange, label, describedBy, maxLength, autoFocus, onFocusChange }: EditorProps) {
  return (
    <textarea
      className="input code-input"
      aria-label={label}
      aria-describedby={describedBy}
      rows={10}
      value={value}
      maxLength={maxLength}
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      onChange={(event) => onChange(event.target.value)}
      autoFocus={autoFocus}
      onFocus={() => onFocusChange?.(true)}
      // Focus moving to another element is the learner's choice; the textarea being replaced
      // by CodeMirror (no related target) keeps the focus for the editor.
      onBlur={(event) => {
        if (event.relatedTarget) onFocusChange?.(false);
      }}
    />
  );
}

/** Code to run against tests on the server, in CodeMirror 6 (lazy-loaded). */
export function CodeEditor({ widget, disabled, autoFocus, onSubmit }: WidgetInputProps<'code_editor'>) {
  const { prompt, language, starterCode } = widget.props;
  // Kept per session until submitted, so a reload or a crashed tab loses nothing (issue 18).
  const [code, setCode] = useDraft(`widget.${widget.widgetId}`, starterCode ?? '');
  // The plain editor had the focus when CodeMirror replaced it: CodeMirror takes it over.
  const fallbackFocused = useRef(false);
  const promptId = useId();
  const hintId = useId();
  const canSubmit = !disabled && code.trim().length > 0;
  const Editor = editors[language];

  function submit() {
    if (!canSubmit) return;
    onSubmit({ code, language });
    setCode(starterCode ?? '');
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    submit();
  }

  const editorProps: EditorProps = {
    value: code,
    onChange: setCode,
    label: 'Code',
    describedBy: hintId,
    maxLength: Limits.codeMaxLength,
    onSubmitShortcut: submit,
    autoFocus: autoFocus === true || fallbackFocused.current,
    onFocusChange: (focused) => {
      fallbackFocused.current = focused;
    },
  };

  return (
    <form className="widget-form" onSubmit={handleSubmit} aria-labelledby={promptId}>
      <div id={promptId} className="widget-prompt">
        <Markdown text={prompt} />
      </div>
      <div className="code-label-row">
        <span className="field-label" aria-hidden="true">
          Code
        </span>
        <span className="language-badge" data-testid="code-language">
          {languageNames[language]}
        </span>
      </div>
      <div className="code-editor-frame" data-testid="code-editor">
        <LoadBoundary fallback={<FallbackEditor {...editorProps} />}>
          <Suspense fallback={<FallbackEditor {...editorProps} />}>
            <Editor {...editorProps} />
          </Suspense>
        </LoadBoundary>
      </div>
      <p id={hintId} className="field-hint">
        Tab indents; press Esc then Tab to leave the editor. {isMac ? '⌘' : 'Ctrl'}+Enter runs and submits.
      </p>
      <div className="widget-actions">
        <SubmitButton disabled={disabled} missing={code.trim().length === 0 ? 'Write some code to submit.' : null}>
          Run &amp; submit
        </SubmitButton>
      </div>
    </form>
  );
}

/** The submitted code, read-only, on the learner's message. */
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
