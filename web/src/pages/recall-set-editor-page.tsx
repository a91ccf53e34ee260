import { Limits, UpdateRecallSetBody, type RecallPointInput } from '@tutorloop/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';

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

/** "points.1.content: …" → "Point 2: …", so a validation message names what to fix. */
function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const [field, index] = issue.path;
  if (field === 'points' && typeof index === 'number') return `Point ${index + 1}: ${issue.message}`;
  if (field === 'name') return `Name: ${issue.message}`;
  if (field === 'description') return `Description: ${issue.message}`;
  return issue.message;
}

/** Creates a recall set (no `recallSetId`) or edits one. */
export function RecallSetEditorPage({ recallSetId }: { recallSetId?: string }) {
  const editing = recallSetId !== undefined;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [points, setPoints] = useState<PointDraft[]>(() => (editing ? [] : [newDraft()]));
  const [loading, setLoading] = useState(editing);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
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
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const pointInputs: RecallPointInput[] = points
      // An untouched empty row is not a point.
      .filter((point) => point.content.trim() || point.context.trim())
      .map((point) => ({
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
    if (!checked.success) {
      setErrors(checked.error.issues.map(describeIssue));
      return;
    }
    setErrors([]);
    setSaving(true);
    const result = recallSetId
      ? await http.updateRecallSet(recallSetId, body)
      : await http.createRecallSet({ ...body, points: pointInputs.map(({ content, context }) => ({ content, ...(context && { context }) })) });
    setSaving(false);
    if (!result.ok) {
      setErrors([result.error.message]);
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
            onChange={(event) => setName(event.target.value)}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="set-description">Description</label>
          <textarea
            id="set-description"
            className="input"
            rows={2}
            value={description}
            maxLength={Limits.setDescriptionMaxLength}
            onChange={(event) => setDescription(event.target.value)}
          />
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
                  onChange={(event) => updatePoint(point.key, { content: event.target.value })}
                />
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
                  onChange={(event) => updatePoint(point.key, { context: event.target.value })}
                />
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

      {errors.length > 0 ? (
        <div className="form-error" role="alert" data-testid="editor-errors">
          {errors.length === 1 ? (
            <p>{errors[0]}</p>
          ) : (
            <ul>
              {errors.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          )}
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
