import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';
import { lineOffset, planTemplates, type PlanFormat } from '../store/learning';
import { createStudyPlanEditorStore, type PlanEditorMode } from '../store/study-plan-editor-store';

export type { PlanEditorMode } from '../store/study-plan-editor-store';

const headings: Record<PlanEditorMode['kind'], string> = {
  new: 'New study plan',
  import: 'Import a study plan',
  edit: 'Edit study plan',
};

const formatNames: Record<PlanFormat, string> = { json: 'JSON', markdown: 'Markdown' };

/**
 * A study plan as text — JSON, or Markdown with front matter (SPEC §4.4) — with the server's
 * validation problems listed beside it, one per field. Nothing typed is lost on an error; the
 * draft, its checks and the save live in the store.
 */
export default function StudyPlanEditorPage({ mode }: { mode: PlanEditorMode }) {
  const editingId = mode.kind === 'edit' ? mode.studyPlanId : null;
  // One store per editor: the page is keyed by its mode and plan, so each gets a fresh draft.
  const [store] = useState(() => createStudyPlanEditorStore(http, mode));
  const { status, loadError, format, text, shared, problems, fileName, saving, refusals } = useStore(store);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const problemsHeadingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  const heading = headings[mode.kind];
  useDocumentTitle(heading);

  useEffect(() => {
    void store.getState().load();
  }, [store]);

  // A refused save: the problem list takes the focus (and the screen, on a phone).
  useEffect(() => {
    if (refusals > 0) problemsHeadingRef.current?.focus();
  }, [refusals]);

  function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void store.getState().loadFile(file);
  }

  function showLine(line: number) {
    const element = textRef.current;
    if (!element) return;
    const { start, end } = lineOffset(element.value, line);
    element.focus();
    element.setSelectionRange(start, end);
    // Scroll the selected line into view: roughly its share of the text's height.
    const lines = element.value.split('\n').length;
    element.scrollTop = Math.max(0, ((line - 3) / Math.max(1, lines)) * element.scrollHeight);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const result = await store.getState().save();
    if (result.ok) navigate({ name: 'plan-detail', studyPlanId: result.value.id });
  }

  function cancel() {
    if (editingId) navigate({ name: 'plan-detail', studyPlanId: editingId });
    else navigate({ name: 'plans' });
  }

  if (status === 'loading') return <p className="page muted" role="status">Loading…</p>;
  if (loadError) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>{heading}</h1>
        <p className="form-error" role="alert">
          {loadError}
        </p>
        <button type="button" className="button" onClick={() => navigate({ name: 'plans' })}>
          Back to study plans
        </button>
      </div>
    );
  }

  const textId = `${ids}-text`;
  const hintId = `${ids}-hint`;
  const problemsId = `${ids}-problems`;
  const formatLocked = mode.kind === 'edit';

  return (
    <form className="page plan-editor" onSubmit={handleSubmit} noValidate aria-labelledby={`${ids}-title`}>
      <p className="breadcrumb">
        <a href="#/study-plans">Study plans</a>
      </p>
      <div className="page-heading">
        <h1 id={`${ids}-title`} tabIndex={-1}>
          {heading}
        </h1>
      </div>

      <div className="plan-editor-layout">
        <div className="card plan-editor-card">
          <div className="plan-editor-options">
            <div className="field">
              <label htmlFor={`${ids}-format`}>Format</label>
              <select
                id={`${ids}-format`}
                className="input"
                value={format}
                disabled={formatLocked}
                aria-describedby={formatLocked ? `${ids}-format-hint` : undefined}
                onChange={(event) => store.getState().changeFormat(event.target.value as PlanFormat)}
              >
                <option value="json">JSON</option>
                <option value="markdown">Markdown</option>
              </select>
              {formatLocked ? (
                <p id={`${ids}-format-hint`} className="field-hint">
                  A saved plan is edited as JSON.
                </p>
              ) : null}
            </div>
            {mode.kind !== 'edit' ? (
              <div className="field">
                <span className="field-label" id={`${ids}-file-label`}>
                  File
                </span>
                <label className="button file-button">
                  <input
                    type="file"
                    className="visually-hidden"
                    accept=".json,.md,.markdown,application/json,text/markdown"
                    aria-labelledby={`${ids}-file-label ${ids}-file-action`}
                    onChange={handleFile}
                    data-testid="plan-file"
                  />
                  <span id={`${ids}-file-action`}>Load from a file</span>
                </label>
                <p className="field-hint" data-testid="plan-file-name">
                  {fileName ? `Loaded ${fileName}` : '.json or .md'}
                </p>
              </div>
            ) : null}
          </div>

          <div className="field">
            <label htmlFor={textId}>Plan text</label>
            <textarea
              id={textId}
              ref={textRef}
              className="input mono plan-text"
              rows={22}
              value={text}
              spellCheck={false}
              wrap="off"
              placeholder={planTemplates[format]}
              aria-describedby={problems.length > 0 ? `${hintId} ${problemsId}` : hintId}
              aria-invalid={problems.length > 0 ? true : undefined}
              onChange={(event) => store.getState().setText(event.target.value)}
            />
            <p id={hintId} className="field-hint">
              {formatNames[format]}:{' '}
              {format === 'json'
                ? 'the plan object — title, topic, audience, objectives, teachingApproach and numbered steps.'
                : 'the plan’s fields as YAML front matter between “---” lines, then one “## N. type: concept” section per step.'}
            </p>
          </div>

          <div className="share-row">
            <input id={`${ids}-shared`} type="checkbox" className="switch" role="switch" checked={shared} onChange={(event) => store.getState().setShared(event.target.checked)} />
            <label htmlFor={`${ids}-shared`} className="field-label">
              Share with every learner
            </label>
          </div>

          <div className="actions">
            <button type="button" className="button" onClick={cancel}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={saving} aria-busy={saving}>
              {mode.kind === 'import' ? 'Import' : 'Save'}
            </button>
          </div>
        </div>

        <aside className="plan-editor-side" aria-label="Checks and syntax">
          <div id={problemsId} className={problems.length > 0 ? 'card plan-problems has-problems' : 'card plan-problems'}>
            <h2 ref={problemsHeadingRef} tabIndex={-1}>
              {problems.length > 0 ? `${problems.length === 1 ? '1 problem' : `${problems.length} problems`} to fix` : 'Checks'}
            </h2>
            {/* Announced when a save comes back refused; the text stays as it was. */}
            <div role="alert" data-testid="plan-problems">
              {problems.length > 0 ? (
                <ul className="problem-list">
                  {problems.map((problem, index) => (
                    <li key={index} className="problem" data-testid="plan-problem" data-field={problem.field ?? undefined}>
                      {problem.label ? <span className="problem-field">{problem.label}</span> : null}
                      <span className="problem-message">{problem.message}</span>
                      {problem.line !== null ? (
                        <button type="button" className="link-button problem-line" onClick={() => showLine(problem.line!)}>
                          Line {problem.line}
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
            {problems.length === 0 ? (
              <p className="muted small">The plan is checked when you {mode.kind === 'import' ? 'import' : 'save'} it; any problem is listed here, field by field.</p>
            ) : null}
          </div>
          <details className="card format-help plan-syntax">
            <summary>Syntax</summary>
            <p>
              Steps are numbered 1, 2, 3… in order. Each has a <code>type</code> — <code>explain</code>, <code>check</code> (with
              questions and their expected answers) or <code>practice</code> (a skill blueprint such as{' '}
              <code>MATH.ARITH.ADD.2DIGIT</code>) — the <code>concept</code> it serves and a <code>contentHint</code> for the
              tutor.
            </p>
            <h3>{formatNames[format]} example</h3>
            <pre className="code-block">{planTemplates[format]}</pre>
          </details>
        </aside>
      </div>
    </form>
  );
}
