import { Limits, UpdateRecallSetBody, type RecallPointInput } from '@tutorloop/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';
import {
  fieldErrorsFromIssues,
  fieldErrorsFromServer,
  firstErrorField,
  formField,
  type FieldErrors,
  type FieldIssue,
} from '../store/form-errors';

interface PointDraft {
  /** React key; stable while editing. */
  key: string;
  /** The stored point's id, kept on save so its review schedule is kept. */
  id?: string;
  content: string;
  context: string;
}

let nextKey = 0;
function newDraft(fields: Partial<Omit<PointDraft, 'key'>> = {}): PointDraft {
  nextKey += 1;
  return { key: `point-${nextKey}`, content: '', context: '', ...fields };
}

/** The element id of a field, which is also its key in the errors: `set-name`, `point-3-content`. */
function fieldIdOf(points: readonly PointDraft[], path: ReadonlyArray<PropertyKey>): string | null {
  const [field, index, part] = path;
  if (field === 'name') return 'set-name';
  if (field === 'description') return 'set-description';
  if (field === 'points' && typeof index === 'number' && points[index]) {
    return `${points[index].key}-${part === 'context' ? 'context' : 'content'}`;
  }
  return null;
}

/** What each field is called in the summary above the Save button. */
function fieldLabel(points: readonly PointDraft[], fieldId: string): string {
  if (fieldId === 'set-name') return 'Name';
  if (fieldId === 'set-description') return 'Description';
  const index = points.findIndex((point) => fieldId.startsWith(`${point.key}-`));
  if (index < 0) return '';
  return fieldId.endsWith('-context') ? `Point ${index + 1}, context` : `Point ${index + 1}`;
}

/** Creates a recall set (no `recallSetId`) or edits one. */
export function RecallSetEditorPage({ recallSetId }: { recallSetId?: string }) {
  const editing = recallSetId !== undefined;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [points, setPoints] = useState<PointDraft[]>(() => (editing ? [] : [newDraft()]));
  const [loading, setLoading] = useState(editing);
  const [loadError, setLoadError] = useState<string | null>(null);
  // One plain message per field, shown under it (issue 18: clear errors, nothing dropped).
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const focusPointKey = useRef<string | null>(null);
  useDocumentTitle(editing ? 'Edit recall set' : 'New recall set');

  useEffect(() => {
    if (!recallSetId) return undefined;
    let cancelled = false;
    setLoading(true);
    void http.getRecallSet(recallSetId).then((result) => {
      if (cancelled) return;
      setLoading(false);
      if (!result.ok) {
        setLoadError(result.error.message);
        return;
      }
      setName(result.value.name);
      setDescription(result.value.description ?? '');
      const loaded = [...result.value.points]
        .sort((a, b) => a.position - b.position)
        .map((point) => newDraft({ id: point.id, content: point.content, context: point.context ?? '' }));
      setPoints(loaded.length > 0 ? loaded : [newDraft()]);
    });
    return () => {
      cancelled = true;
    };
  }, [recallSetId]);

  useEffect(() => {
    if (!focusPointKey.current) return;
    document.getElementById(`${focusPointKey.current}-content`)?.focus();
    focusPointKey.current = null;
  }, [points]);

  function updatePoint(key: string, fields: Partial<PointDraft>) {
    setPoints((current) => current.map((point) => (point.key === key ? { ...point, ...fields } : point)));
  }

  function addPoint() {
    const draft = newDraft();
    focusPointKey.current = draft.key;
    setPoints((current) => [...current, draft]);
  }

  function removePoint(key: string) {
    setPoints((current) => current.filter((point) => point.key !== key));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([fieldId]) => !fieldId.startsWith(`${key}-`))));
  }

  function show(issues: FieldErrors) {
    // A blank point is flagged where it is, never dropped silently.
    const worded = Object.fromEntries(
      Object.entries(issues).map(([field, message]) => [
        field,
        field.endsWith('-content') && message === 'This cannot be empty.' ? 'This point is empty: write it, or remove the row.' : message,
      ]),
    );
    setErrors(worded);
    const order = ['set-name', 'set-description', ...points.flatMap((point) => [`${point.key}-content`, `${point.key}-context`])];
    const first = firstErrorField(worded, order);
    if (first && first !== formField) document.getElementById(first)?.focus();
  }

  function clearError(fieldId: string) {
    if (errors[fieldId] === undefined) return;
    setErrors(({ [fieldId]: _removed, ...rest }) => rest);
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    // Every row is sent, so a blank one comes back as a problem of that row.
    const pointInputs: RecallPointInput[] = points.map((point) => ({
        ...(point.id !== undefined && { id: point.id }),
        content: point.content.trim(),
        ...(point.context.trim() && { context: point.context.trim() }),
      }));
    const body = {
      name: name.trim(),
      ...(description.trim() ? { description: description.trim() } : editing ? { description: '' } : {}),
      points: pointInputs,
    };
    // The shared schema gives the same messages as the server, without the round trip.
    const checked = UpdateRecallSetBody.required({ name: true }).safeParse(body);
    const fieldOf = (path: ReadonlyArray<PropertyKey>) => fieldIdOf(points, path);
    if (!checked.success) {
      show(fieldErrorsFromIssues(checked.error.issues as FieldIssue[], fieldOf));
      return;
    }
    setErrors({});
    setSaving(true);
    const result = recallSetId
      ? await http.updateRecallSet(recallSetId, body)
      : await http.createRecallSet({ ...body, points: pointInputs.map(({ content, context }) => ({ content, ...(context && { context }) })) });
    setSaving(false);
    if (!result.ok) {
      show(fieldErrorsFromServer(result.error, fieldOf));
      return;
    }
    navigate({ name: 'sets' });
  }

  if (loading) return <p className="page muted" role="status">Loading…</p>;
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
            onChange={(event) => {
              setName(event.target.value);
              clearError('set-name');
            }}
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
            onChange={(event) => {
              setDescription(event.target.value);
              clearError('set-description');
            }}
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
                  onChange={(event) => {
                    updatePoint(point.key, { content: event.target.value });
                    clearError(`${point.key}-content`);
                  }}
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
                  onChange={(event) => {
                    updatePoint(point.key, { context: event.target.value });
                    clearError(`${point.key}-context`);
                  }}
                  {...errorProps(errors, `${point.key}-context`)}
                />
                <FieldError errors={errors} fieldId={`${point.key}-context`} />
              </div>
              <button
                type="button"
                className="button subtle danger-text remove-point"
                onClick={() => removePoint(point.key)}
                aria-label={`Remove point ${index + 1}`}
              >
                Remove
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={addPoint} disabled={points.length >= Limits.pointsPerSetMax}>
        Add point
      </button>

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

      <div className="actions sticky-actions">
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
