import { Limits, type CodeExample, type CodeLanguage, type RunExamplesResponse } from '@tutorloop/shared';
import { lazy, Suspense, useContext, useEffect, useId, useRef, useState, type ComponentType, type FormEvent } from 'react';
import { SubmitButton } from './submit-button';
import { LoadBoundary } from '../components/load-boundary';
import { Markdown } from '../components/markdown';
import { useDraft } from '../hooks/use-draft';
import { useNow } from '../hooks/use-now';
import { languageNames, loadLanguage } from './code-languages';
import type { CodeMirrorEditorProps } from './code-mirror-editor';
import { TestCaseRow } from '../components/test-case-row';
import { formatElapsed, RunExamplesContext, runSummary } from './run-examples';
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

/** A "Run examples" run: none yet, in flight (since when), or its answer for the code it ran. */
type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; startedAt: number }
  | { phase: 'done'; response: RunExamplesResponse; code: string; tookMs: number }
  | { phase: 'failed'; message: string; code: string };

/**
 * Code to run against tests on the server, in CodeMirror 6 (lazy-loaded). Like an IDE (issue
 * 25): an item the server generated lists its visible examples, and "Run examples" runs the code
 * on them — not an answer, nothing is stored — with the elapsed time while it runs (the first
 * Python run starts the interpreter) and each example's expected and actual output after.
 */
export function CodeEditor({ widget, disabled, autoFocus, onSubmit }: WidgetInputProps<'code_editor'>) {
  const { prompt, language, starterCode, examples } = widget.props;
  // Kept per session until submitted, so a reload or a crashed tab loses nothing (issue 18).
  const [code, setCode] = useDraft(`widget.${widget.widgetId}`, starterCode ?? '');
  // The plain editor had the focus when CodeMirror replaced it: CodeMirror takes it over.
  const fallbackFocused = useRef(false);
  const promptId = useId();
  const hintId = useId();
  const examplesId = useId();
  const runExamples = useContext(RunExamplesContext);
  const canRunExamples = runExamples !== null && (examples?.length ?? 0) > 0;
  const [run, setRun] = useState<RunState>({ phase: 'idle' });
  const running = run.phase === 'running';
  const now = useNow(100, running);
  // An answer that comes back after the widget left (answered, or the session ended) is dropped.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const canSubmit = !disabled && code.trim().length > 0;
  const Editor = editors[language];

  async function handleRunExamples() {
    if (!runExamples || running || disabled || code.trim().length === 0) return;
    const ran = code;
    const startedAt = Date.now();
    setRun({ phase: 'running', startedAt });
    const result = await runExamples(widget.widgetId, { code: ran, language });
    if (!mounted.current) return;
    // The time the learner waited (queue and network included), not only the sandbox's.
    const tookMs = Date.now() - startedAt;
    setRun(result.ok ? { phase: 'done', response: result.value, code: ran, tookMs } : { phase: 'failed', message: result.error.message, code: ran });
  }

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
      {examples && examples.length > 0 ? <ExampleList id={examplesId} examples={examples} /> : null}
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
        Tab indents; press Esc then Tab to leave the editor. {isMac ? '⌘' : 'Ctrl'}+Enter submits.
        {canRunExamples ? ' Run examples tries your code on the examples without submitting it.' : ''}
      </p>
      <div className="widget-actions">
        {canRunExamples ? (
          <button
            type="button"
            className="button run-examples-button"
            data-testid="run-examples"
            onClick={() => void handleRunExamples()}
            disabled={disabled || running || code.trim().length === 0}
            aria-busy={running}
            aria-describedby={examplesId}
          >
            {running ? (
              <>
                <span className="run-spinner" aria-hidden="true" />
                Running… <span className="run-elapsed" data-testid="run-elapsed">{formatElapsed(now.getTime() - run.startedAt)}</span>
              </>
            ) : (
              'Run examples'
            )}
          </button>
        ) : null}
        <SubmitButton disabled={disabled} missing={code.trim().length === 0 ? 'Write some code to submit.' : null}>
          Submit
        </SubmitButton>
      </div>
      {canRunExamples ? <RunOutcome run={run} stale={run.phase !== 'idle' && run.phase !== 'running' && run.code !== code} /> : null}
    </form>
  );
}

/** The item's visible examples, shown with the task: each call and what it must return. */
function ExampleList({ id, examples }: { id: string; examples: CodeExample[] }) {
  return (
    <div className="code-examples" data-testid="code-examples">
      <p id={id} className="code-examples-title">
        Examples
      </p>
      <ul>
        {examples.map((example) => (
          <li key={example.input}>
            <code>{example.input}</code> <span className="muted">returns</span> <code>{example.expected}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What the last run said: one line announced politely (how many examples pass, or why none
 * ran), then each example's expected and actual output and what the code printed.
 */
function RunOutcome({ run, stale }: { run: RunState; stale: boolean }) {
  const summary =
    run.phase === 'running'
      ? 'Running your code on the examples…'
      : run.phase === 'failed'
        ? run.message
        : run.phase === 'done'
          ? runSummary(run.response)
          : '';
  const outcome = run.phase === 'done' ? (run.response.passed === run.response.total ? 'run-pass' : 'run-fail') : run.phase === 'failed' ? 'run-fail' : 'run-pending';
  return (
    <div className="run-outcome" data-testid="run-status">
      <p className={`run-summary ${outcome}`} role="status" aria-live="polite" data-testid="run-summary">
        {summary}
        {run.phase === 'done' ? <span className="muted small"> Not submitted · took {formatElapsed(run.tookMs)}</span> : null}
      </p>
      {run.phase === 'done' ? (
        <>
          {stale ? <p className="muted small">You changed your code since this run.</p> : null}
          {run.response.error && run.response.examples.every((example) => example.actual === null) ? (
            <pre className="code-block run-error">
              <code>{run.response.error.message}</code>
            </pre>
          ) : null}
          <ol className="test-cases" data-testid="run-results" aria-label="Examples run">
            {run.response.examples.map((example) => (
              <TestCaseRow key={example.input} testCase={example} />
            ))}
          </ol>
          {run.response.output ? (
            <details className="run-output">
              <summary>Printed output</summary>
              <pre className="code-block">
                <code>{run.response.output}</code>
              </pre>
            </details>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** The submitted code, read-only, on the learner's message. */
export function CodeEditorAnswer({ answer }: WidgetAnswerProps<'code_editor'>) {
  const { language } = answer;
  return (
    <div className="widget-answer">
      <span className="language-badge">{languageNames[language]}</span>
      <pre className="code-block">
        <code>{answer.code}</code>
      </pre>
    </div>
  );
}
