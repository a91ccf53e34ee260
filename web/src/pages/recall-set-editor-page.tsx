import { Limits } from '@tutorloop/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';
import { formField, type FieldErrors } from '../store/form-errors';
import { createRecallSetEditorStore, fieldLabel } from '../store/recall-set-editor-store';

/** Creates a recall set (no `recallSetId`) or edits one; the draft, its checks and the save live in the store. */
export function RecallSetEditorPage({ recallSetId }: { recallSetId?: string }) {
  const editing = recallSetId !== undefined;
  // One store per editor: the page is keyed by the set, so a new set or another set gets a fresh draft.
  const [store] = useState(() => createRecallSetEditorStore(http, recallSetId));
  const { status, loadError, name, description, points, errors, saving } = useStore(store);
  const focusPointKey = useRef<string | null>(null);
  useDocumentTitle(editing ? 'Edit recall set' : 'New recall set');

  useEffect(() => {
    void store.getState().load();
  }, [store]);

  useEffect(() => {
    if (!focusPointKey.current) return;
    const field = document.getElementById(`${focusPointKey.current}-content`);
    // focus() alone scrolls the field just into view, which is under the sticky bar; scrollIntoView
    // keeps the field's scroll-margin (styles.css) clear of it.
    field?.focus({ preventScroll: true });
    field?.scrollIntoView({ block: 'nearest' });
    focusPointKey.current = null;
  }, [points]);

  function addPoint() {
    focusPointKey.current = store.getState().addPoint();
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const result = await store.getState().save();
    if (result.ok) navigate({ name: 'sets' });
    else if (result.focus) document.getElementById(result.focus)?.focus();
  }

  if (status === 'loading') return <p className="page muted" role="status">Loading…</p>;
  if (loadError) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>Edit recall set</h1>
        <p className="form-error" role="alert">
          {loadError}
        </p>
        <button type="button" className="button" onClick={() => navigate({ name: 'sets' })}>
          Back to recall sets
        </button>
      </div>
    );
  }

  return (
    <form className="page editor" onSubmit={handleSubmit} noValidate aria-labelledby="editor-title">
      <div className="page-heading">
        <h1 id="editor-title" tabIndex={-1}>
          {editing ? 'Edit recall set' : 'New recall set'}
        </h1>
      </div>

      <div className="card editor-card">
        <div className="field">
          <label htmlFor="set-name">Name</label>
          <input
            id="set-name"
            className="input"
            value={name}
            maxLength={Limits.setNameMaxLength}
            onChange={(event) => store.getState().setName(event.target.value)}
            required
            {...errorProps(errors, 'set-name')}
          />
          <FieldError errors={errors} fieldId="set-name" />
        </div>
        <div className="field">
          <label htmlFor="set-description">Description</label>
          <textarea
            id="set-description"
            className="input"
            rows={2}
            value={description}
            maxLength={Limits.setDescriptionMaxLength}
            onChange={(event) => store.getState().setDescription(event.target.value)}
            {...errorProps(errors, 'set-description')}
          />
          <FieldError errors={errors} fieldId="set-description" />
        </div>
      </div>

      <h2 className="section-title">
        Points <span className="muted">({points.length})</span>
      </h2>
      <p className="muted small">
        One fact or idea per point, in your own words. The tutor never shows a point to you before you recall it; the
        optional context helps it ask the right question.
      </p>
      <ol className="point-list">
        {points.map((point, index) => (
          <li key={point.key} className="card point-row" data-testid="point-row">
            <fieldset>
              <legend className="point-legend">Point {index + 1}</legend>
              <div className="field">
                <label htmlFor={`${point.key}-content`}>Point</label>
                <textarea
                  id={`${point.key}-content`}
                  className="input"
                  rows={2}
                  value={point.content}
                  maxLength={Limits.pointContentMaxLength}
                  onChange={(event) => store.getState().updatePoint(point.key, { content: event.target.value })}
                  {...errorProps(errors, `${point.key}-content`)}
                />
                <FieldError errors={errors} fieldId={`${point.key}-content`} />
              </div>
              <div className="field">
                <label htmlFor={`${point.key}-context`}>
                  Context <span className="muted">(optional)</span>
                </label>
                <input
                  id={`${point.key}-context`}
                  className="input"
                  value={point.context}
                  maxLength={Limits.pointContextMaxLength}
                  onChange={(event) => store.getState().updatePoint(point.key, { context: event.target.value })}
                  {...errorProps(errors, `${point.key}-context`)}
                />
                <FieldError errors={errors} fieldId={`${point.key}-context`} />
              </div>
              <button
                type="button"
                className="button subtle danger-text remove-point"
                onClick={() => store.getState().removePoint(point.key)}
                aria-label={`Remove point ${index + 1}`}
              >
                Remove
              </button>
            </fieldset>
          </li>
        ))}
      </ol>

      {Object.keys(errors).length > 0 ? (
        // The summary beside Save; each message also stands under its field.
        <div className="form-error" role="alert" data-testid="editor-errors">
          <p>{Object.keys(errors).length === 1 ? 'One thing to fix before saving:' : `${Object.keys(errors).length} things to fix before saving:`}</p>
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
                    {fieldLabel(points, fieldId)}: {message}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {/* "Add point" rides in the sticky bar: placed after the list, the bar covered it (issue 25). */}
      <div className="actions sticky-actions">
        <button type="button" className="button add-point" onClick={addPoint} disabled={points.length >= Limits.pointsPerSetMax}>
          Add point
        </button>
        <button type="button" className="button" onClick={() => navigate({ name: 'sets' })}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={saving} aria-busy={saving}>
          Save
        </button>
      </div>
    </form>
  );
}

/** `aria-invalid` and the error's id for a field with a problem. */
function errorProps(errors: FieldErrors, fieldId: string) {
  return errors[fieldId] === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `${fieldId}-error` };
}

/** The field's problem in plain words, right under it. */
function FieldError({ errors, fieldId }: { errors: FieldErrors; fieldId: string }) {
  const message = errors[fieldId];
  if (message === undefined) return null;
  return (
    <p id={`${fieldId}-error`} className="field-error" data-testid="field-error">
      {message}
    </p>
  );
}
