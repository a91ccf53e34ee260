import { DocumentLimits, Limits } from '@tutorloop/shared';
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { ConfirmDialog } from '../components/confirm-dialog';
import { errorProps, FieldError, focusSoon, ProposalRow } from '../components/document-proposal-row';
import { plural, Reading, Saved } from '../components/document-import-steps';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http, recallSetsStore, routerStore } from '../services';
import { createDocumentImportStore, hasUnsavedPoints, setNameField, type DocumentImportStore, type ProposalDraft } from '../store/document-import-store';
import type { Route } from '../store/router-store';
import { formField, type FieldErrors } from '../store/form-errors';
import '../document-import.css';

const accepted = '.pdf,.md,.markdown,.txt,.html,.htm,application/pdf,text/markdown,text/plain,text/html';

/**
 * A recall set from a document (SPEC §4.7, issue 26): a PDF, a Markdown, text or HTML file
 * (picked or dropped) or pasted notes are read by the server, which proposes points with their
 * sources; the learner keeps, edits, merges, drops and adds points, names the set and saves it.
 */
export default function DocumentImportPage() {
  // One store per visit: leaving the page drops the draft and cancels a reading under way.
  const [store] = useState(() => createDocumentImportStore(http));
  const phase = useStore(store, (state) => state.phase);
  const fileName = useStore(store, (state) => state.fileName);
  const notice = useStore(store, (state) => state.notice);
  const proposedCount = useStore(store, (state) => state.proposedCount);
  useDocumentTitle('Recall points from a document');

  useEffect(() => () => store.getState().cancel(), [store]);

  // Proposals not saved: closing the tab asks (the browser's own question), and so does leaving
  // for another page of the app (ours, below); once the learner agrees, the page lets go.
  const unsaved = useStore(store, hasUnsavedPoints);
  const [leavingFor, setLeavingFor] = useState<Route | null>(null);
  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    routerStore.getState().setLeaveGuard((to) => {
      // Read now, not when the guard was set: a save that just finished navigates before React re-renders.
      if (!hasUnsavedPoints(store.getState())) return true;
      setLeavingFor(to);
      return false;
    });
    return () => {
      window.removeEventListener('beforeunload', ask);
      routerStore.getState().setLeaveGuard(null);
    };
  }, [store, unsaved]);

  // A file dropped beside the drop zone would make the browser open it and leave the page.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  // The controls of one phase leave the page with it: the focus goes to the next phase's start.
  const previousPhase = useRef(phase);
  useEffect(() => {
    if (previousPhase.current === phase) return;
    previousPhase.current = phase;
    focusSoon(phase === 'review' ? 'document-review-title' : phase === 'reading' ? 'document-cancel' : phase === 'saved' ? 'document-saved-title' : 'document-file');
  }, [phase]);

  const what = fileName ? `“${fileName}”` : 'your notes';
  const status =
    phase === 'reading'
      ? `Reading ${what}…`
      : phase === 'review'
        ? `${plural(proposedCount, 'point', 'points')} proposed from ${what}.`
        : phase === 'saved'
          ? 'Saved.'
          : (notice ?? '');

  return (
    <div className="page document-import">
      <div className="page-heading">
        <h1 tabIndex={-1}>Recall points from a document</h1>
      </div>
      {/* One live region for the whole page, present from the start so every change is announced. */}
      <p className="visually-hidden" role="status" data-testid="document-status">
        {status}
      </p>
      {phase === 'choose' ? <ChooseDocument store={store} /> : null}
      {phase === 'reading' ? <Reading store={store} what={what} /> : null}
      {phase === 'review' ? <Review store={store} what={what} /> : null}
      {phase === 'saved' ? <Saved store={store} /> : null}
      {leavingFor ? (
        <ConfirmDialog
          title="Leave without saving these points?"
          confirmLabel="Leave and discard"
          cancelLabel="Stay"
          danger
          onConfirm={() => {
            routerStore.getState().setLeaveGuard(null);
            setLeavingFor(null);
            navigate(leavingFor);
          }}
          onCancel={() => setLeavingFor(null)}
        >
          <p>The proposed points and your changes to them are not saved yet. Save them into a set first to keep them.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function ChooseDocument({ store }: { store: DocumentImportStore }) {
  const { pastedText, pastedFormat, pastedHtml, problem, notice } = useStore(store);
  const [dragging, setDragging] = useState(false);

  function handleDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) {
      void store.getState().readFile(file);
      return;
    }
    // Text dragged from another window goes into the notes, to read as pasted.
    const text = event.dataTransfer.getData('text/plain');
    const html = event.dataTransfer.getData('text/html');
    if (html && !pastedText.trim()) store.getState().pasteWebPage(text, html);
    else if (text) store.getState().setPastedText(pastedText ? `${pastedText}\n\n${text}` : text);
  }

  function handlePaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const file = event.clipboardData.files[0];
    if (file) {
      event.preventDefault();
      void store.getState().readFile(file);
      return;
    }
    const html = event.clipboardData.getData('text/html');
    // Into empty notes, a web page's HTML is what the server reads (its headings become sources);
    // pasted among typed notes it is just more text.
    if (!html || pastedText.trim()) return;
    event.preventDefault();
    store.getState().pasteWebPage(event.clipboardData.getData('text/plain'), html);
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    void store.getState().readPasted();
  }

  return (
    <>
      <p className="document-intro muted">
        The server reads the document and proposes recall points — central statements, definitions and relations — each
        beside the passage it came from. You keep, edit, merge or drop them; nothing is saved until you do.
      </p>
      {problem ? (
        <p className="form-error" role="alert" data-testid="document-problem">
          {problem}
        </p>
      ) : null}
      {notice ? <p className="notice">{notice}</p> : null}
      <div className="document-sources">
        <section
          className={dragging ? 'card drop-zone dragging' : 'card drop-zone'}
          aria-labelledby="document-file-title"
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={handleDrop}
        >
          <h2 id="document-file-title">A file</h2>
          <div className="field">
            <label htmlFor="document-file">Choose a file, or drop it here</label>
            <input
              id="document-file"
              className="input"
              type="file"
              accept={accepted}
              aria-describedby="document-file-hint"
              onChange={(event) => {
                const file = event.target.files?.[0];
                // Cleared, so choosing the same file again after a refusal reads it again.
                event.target.value = '';
                if (file) void store.getState().readFile(file);
              }}
            />
            <p id="document-file-hint" className="field-hint">
              A PDF with a text layer (up to {DocumentLimits.pdfMaxBytes / 1024 / 1024} MB and {DocumentLimits.pdfMaxPages} pages; a
              scanned one needs text recognition first), or a Markdown (.md), text (.txt) or HTML file.
            </p>
          </div>
        </section>

        <form className="card" onSubmit={handleSubmit} noValidate aria-labelledby="document-paste-title">
          <h2 id="document-paste-title">Pasted notes</h2>
          <div className="field">
            <label htmlFor="document-notes">Notes</label>
            <textarea
              id="document-notes"
              className="input"
              rows={8}
              value={pastedText}
              maxLength={DocumentLimits.textMaxCharacters}
              aria-describedby="document-notes-hint"
              onChange={(event) => store.getState().setPastedText(event.target.value)}
              onPaste={handlePaste}
            />
            <p id="document-notes-hint" className="field-hint">
              {pastedHtml !== null
                ? 'Pasted from a web page: its headings are kept as the points’ sources. Editing the text reads it as plain text.'
                : 'Type or paste your notes, or a page copied from a website.'}
            </p>
          </div>
          {pastedHtml === null ? (
            <div className="field">
              <label htmlFor="document-notes-format">Written as</label>
              <select
                id="document-notes-format"
                className="input"
                value={pastedFormat}
                onChange={(event) => store.getState().setPastedFormat(event.target.value === 'text' ? 'text' : 'markdown')}
              >
                <option value="markdown">Markdown (# headings kept)</option>
                <option value="text">Plain text</option>
              </select>
            </div>
          ) : null}
          <div className="actions">
            <button type="submit" className="button primary">
              Propose points
            </button>
          </div>
        </form>
      </div>
      <div className="actions">
        <button type="button" className="button" onClick={() => navigate({ name: 'sets' })}>
          Back to recall sets
        </button>
      </div>
    </>
  );
}

function Review({ store, what }: { store: DocumentImportStore; what: string }) {
  const { name, points, pages, warnings, proposedCount, lastDropped, errors, saving, target } = useStore(store);
  const sets = useStore(recallSetsStore, (state) => state.recallSets);
  const [confirmingStartOver, setConfirmingStartOver] = useState(false);
  useEffect(() => {
    if (recallSetsStore.getState().status === 'idle') void recallSetsStore.getState().load();
  }, []);

  async function handleSave(event: FormEvent) {
    event.preventDefault();
    const result = await store.getState().save();
    if (result.ok) {
      void recallSetsStore.getState().load();
      // Into an existing set the page says what was added and skipped; a new set opens at once.
      if (!result.appended) navigate({ name: 'set-detail', recallSetId: result.value.id });
    } else if (result.focus) document.getElementById(result.focus)?.focus();
  }

  const errorCount = Object.keys(errors).length;
  return (
    <form className="document-review" onSubmit={(event) => void handleSave(event)} noValidate aria-labelledby="document-review-title">
      <h2 id="document-review-title" tabIndex={-1}>
        Proposed points
      </h2>
      <p className="muted" data-testid="document-summary">
        {plural(proposedCount, 'point', 'points')} proposed from {what}
        {pages !== null ? ` (${plural(pages, 'page', 'pages')} read)` : ''}. Keep, edit, merge or drop them, then save the
        set.
      </p>
      {warnings.length > 0 ? (
        <ul className="notice document-warnings" aria-label="About the reading">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {proposedCount === 0 ? <p className="notice">No statement stood out to propose. Add the points you want below.</p> : null}

      <div className="card document-name">
        <fieldset className="document-targets">
          <legend>Save into</legend>
          <label className="document-target">
            <input type="radio" name="document-target" checked={target.kind === 'new'} onChange={() => store.getState().setTarget({ kind: 'new' })} />
            A new set
          </label>
          <label className="document-target">
            <input
              type="radio"
              name="document-target"
              checked={target.kind === 'existing'}
              disabled={sets.length === 0}
              aria-describedby={sets.length === 0 ? 'document-no-sets' : undefined}
              onChange={() => sets[0] && store.getState().setTarget({ kind: 'existing', recallSetId: sets[0].id })}
            />
            One of my sets
          </label>
          {sets.length === 0 ? (
            <p id="document-no-sets" className="field-hint">
              You have no sets yet.
            </p>
          ) : null}
        </fieldset>
        {target.kind === 'new' ? (
          <div className="field">
            <label htmlFor={setNameField}>Name of the set</label>
            <input
              id={setNameField}
              className="input"
              value={name}
              maxLength={Limits.setNameMaxLength}
              onChange={(event) => store.getState().setName(event.target.value)}
              required
              {...errorProps(errors, setNameField)}
            />
            <FieldError errors={errors} fieldId={setNameField} />
          </div>
        ) : (
          <div className="field">
            <label htmlFor="document-target-set">Set to add the points to</label>
            <select
              id="document-target-set"
              className="input"
              value={target.recallSetId}
              aria-describedby="document-target-hint"
              onChange={(event) => store.getState().setTarget({ kind: 'existing', recallSetId: event.target.value })}
            >
              {sets.map((recallSet) => (
                <option key={recallSet.id} value={recallSet.id}>
                  {recallSet.name} ({plural(recallSet.pointCount, 'point', 'points')})
                </option>
              ))}
            </select>
            <p id="document-target-hint" className="field-hint">
              The points are added after the set’s own; any it already holds are skipped, and the schedules of its points stay as they are.
            </p>
          </div>
        )}
      </div>

      <ol className="proposal-list" aria-label="Points to save">
        {points.map((point, index) => (
          <ProposalRow key={point.key} store={store} point={point} number={index + 1} last={index === points.length - 1} errors={errors} />
        ))}
      </ol>
      <button
        type="button"
        className="button"
        onClick={() => focusSoon(`${store.getState().addPoint()}-content`)}
        disabled={points.length >= Limits.pointsPerSetMax}
      >
        Add a point
      </button>

      {errorCount > 0 ? (
        <div className="form-error" role="alert" data-testid="document-errors">
          <p>{errorCount === 1 ? 'One thing to fix before saving:' : `${errorCount} things to fix before saving:`}</p>
          <ul>
            {Object.entries(errors).map(([fieldId, message]) => (
              <li key={fieldId}>
                {fieldId === formField ? (
                  message
                ) : (
                  <a
                    href={`#${fieldId}`}
                    onClick={(event) => {
                      event.preventDefault();
                      document.getElementById(fieldId)?.focus();
                    }}
                  >
                    {labelOf(points, fieldId)}: {message}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="actions sticky-actions document-actions">
        {lastDropped ? (
          <p className="undo-bar" data-testid="undo-bar">
            <span>Dropped: “{lastDropped.point.content.slice(0, 60)}{lastDropped.point.content.length > 60 ? '…' : ''}”</span>
            <button
              id="document-undo"
              type="button"
              className="button subtle"
              onClick={() => {
                const key = store.getState().undoDrop();
                if (key) focusSoon(`${key}-content`);
              }}
            >
              Undo
            </button>
          </p>
        ) : null}
        <button type="button" className="button" onClick={() => setConfirmingStartOver(true)}>
          Start over
        </button>
        <button type="submit" className="button primary" disabled={saving} aria-busy={saving}>
          {target.kind === 'new' ? 'Save set' : 'Save into set'} ({plural(points.length, 'point', 'points')})
        </button>
      </div>
      {confirmingStartOver ? (
        <ConfirmDialog
          title="Start over with another document?"
          confirmLabel="Discard these points"
          danger
          onConfirm={() => store.getState().startOver()}
          onCancel={() => setConfirmingStartOver(false)}
        >
          <p>The points above and your changes to them are not saved and will be lost. Your pasted notes stay.</p>
        </ConfirmDialog>
      ) : null}
    </form>
  );
}

function labelOf(points: readonly ProposalDraft[], fieldId: string): string {
  if (fieldId === setNameField) return 'Name of the set';
  const index = points.findIndex((point) => fieldId.startsWith(`${point.key}-`));
  return fieldId.endsWith('-context') ? `Point ${index + 1}, context` : `Point ${index + 1}`;
}
