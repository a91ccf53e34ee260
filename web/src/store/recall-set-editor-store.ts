import { UpdateRecallSetBody, type RecallPointInput, type RecallSetDetail } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { fieldErrorsFromIssues, fieldErrorsFromServer, firstErrorField, formField, type FieldErrors, type FieldIssue } from './form-errors';

/** One row of the editor. */
export interface PointDraft {
  /** React key and element id prefix (`point-3` → `point-3-content`); stable while editing. */
  key: string;
  /** The stored point's id, kept on save so its review schedule is kept. */
  id?: string;
  content: string;
  context: string;
}

/** What a save came to: saved (the set as stored), or refused with the field to move the focus to. */
export type RecallSetSaveResult = { ok: true; value: RecallSetDetail } | { ok: false; focus: string | null };

export interface RecallSetEditorState {
  /** `loading` only while an existing set is fetched; `load-error` when it could not be. */
  status: 'loading' | 'load-error' | 'ready';
  loadError: string | null;
  name: string;
  description: string;
  points: PointDraft[];
  /**
   * One plain message per field, keyed by the field's element id (`set-name`,
   * `point-3-content`; `form` for what belongs to no field). Issue 18: clear errors, nothing dropped.
   */
  errors: FieldErrors;
  saving: boolean;
  /** The draft differs from what was loaded (or from the blank form). */
  dirty: boolean;
  /** Fetches the set being edited; a new set needs none. */
  load(): Promise<void>;
  setName(name: string): void;
  setDescription(description: string): void;
  updatePoint(key: string, fields: Partial<Pick<PointDraft, 'content' | 'context'>>): void;
  /** Adds a blank row at the end; returns its key (the page focuses it). */
  addPoint(): string;
  /** Removes a row and its errors. */
  removePoint(key: string): void;
  /** Checks the draft with the shared schema, then creates or updates the set. The draft is kept whatever happens. */
  save(): Promise<RecallSetSaveResult>;
}

interface Snapshot {
  name: string;
  description: string;
  points: ReadonlyArray<Pick<PointDraft, 'id' | 'content' | 'context'>>;
}

/** The element id of a field, which is also its key in the errors: `set-name`, `point-3-content`. */
export function fieldIdOf(points: readonly PointDraft[], path: ReadonlyArray<PropertyKey>): string | null {
  const [field, index, part] = path;
  if (field === 'name') return 'set-name';
  if (field === 'description') return 'set-description';
  if (field === 'points' && typeof index === 'number' && points[index]) {
    return `${points[index].key}-${part === 'context' ? 'context' : 'content'}`;
  }
  return null;
}

/** What each field is called in the summary above the Save button. */
export function fieldLabel(points: readonly PointDraft[], fieldId: string): string {
  if (fieldId === 'set-name') return 'Name';
  if (fieldId === 'set-description') return 'Description';
  const index = points.findIndex((point) => fieldId.startsWith(`${point.key}-`));
  if (index < 0) return '';
  return fieldId.endsWith('-context') ? `Point ${index + 1}, context` : `Point ${index + 1}`;
}

/** The fields in the order they stand on the page (the first with a problem takes the focus). */
export function fieldOrder(points: readonly PointDraft[]): string[] {
  return ['set-name', 'set-description', ...points.flatMap((point) => [`${point.key}-content`, `${point.key}-context`])];
}

/** A blank point is flagged where it is, never dropped silently. */
function worded(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([field, message]) => [
      field,
      field.endsWith('-content') && message === 'This cannot be empty.' ? 'This point is empty: write it, or remove the row.' : message,
    ]),
  );
}

function without(errors: FieldErrors, fieldIds: readonly string[]): FieldErrors {
  if (!fieldIds.some((fieldId) => errors[fieldId] !== undefined)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([fieldId]) => !fieldIds.includes(fieldId)));
}

function snapshotOf(state: Snapshot): Snapshot {
  return { name: state.name, description: state.description, points: state.points.map(({ id, content, context }) => ({ id, content, context })) };
}

function sameDraft(a: Snapshot, b: Snapshot): boolean {
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.points.length === b.points.length &&
    a.points.every((point, index) => {
      const other = b.points[index]!;
      return point.id === other.id && point.content === other.content && point.context === other.context;
    })
  );
}

/**
 * The recall set editor: a new set (no `recallSetId`) or an existing one. One store per
 * editor page; the page only shows it.
 */
export function createRecallSetEditorStore(
  http: Pick<HttpClient, 'getRecallSet' | 'createRecallSet' | 'updateRecallSet'>,
  recallSetId?: string,
) {
  const editing = recallSetId !== undefined;
  let nextKey = 0;
  function newDraft(fields: Partial<Omit<PointDraft, 'key'>> = {}): PointDraft {
    nextKey += 1;
    return { key: `point-${nextKey}`, content: '', context: '', ...fields };
  }
  const initialPoints = editing ? [] : [newDraft()];
  let baseline: Snapshot = snapshotOf({ name: '', description: '', points: initialPoints });

  return createStore<RecallSetEditorState>()((set, get) => {
    /** Applies an edit and works out again whether the draft differs from the baseline. */
    function edit(change: Partial<Pick<RecallSetEditorState, 'name' | 'description' | 'points' | 'errors'>>) {
      const next = { ...get(), ...change };
      set({ ...change, dirty: !sameDraft(snapshotOf(next), baseline) });
    }

    function refuse(errors: FieldErrors, points: readonly PointDraft[]): RecallSetSaveResult {
      set({ errors, saving: false });
      const first = firstErrorField(errors, fieldOrder(points));
      return { ok: false, focus: first === formField ? null : first };
    }

    return {
      status: editing ? 'loading' : 'ready',
      loadError: null,
      name: '',
      description: '',
      points: initialPoints,
      errors: {},
      saving: false,
      dirty: false,
      load: async () => {
        if (!recallSetId) return;
        set({ status: 'loading', loadError: null });
        const result = await http.getRecallSet(recallSetId);
        if (!result.ok) {
          set({ status: 'load-error', loadError: result.error.message });
          return;
        }
        const loaded = [...result.value.points]
          .sort((a, b) => a.position - b.position)
          .map((point) => newDraft({ id: point.id, content: point.content, context: point.context ?? '' }));
        const draft = { name: result.value.name, description: result.value.description ?? '', points: loaded.length > 0 ? loaded : [newDraft()] };
        baseline = snapshotOf(draft);
        set({ ...draft, status: 'ready', errors: {}, dirty: false });
      },
      setName: (name) => edit({ name, errors: without(get().errors, ['set-name']) }),
      setDescription: (description) => edit({ description, errors: without(get().errors, ['set-description']) }),
      updatePoint: (key, fields) => {
        const cleared = [...(fields.content !== undefined ? [`${key}-content`] : []), ...(fields.context !== undefined ? [`${key}-context`] : [])];
        edit({
          points: get().points.map((point) => (point.key === key ? { ...point, ...fields } : point)),
          errors: without(get().errors, cleared),
        });
      },
      addPoint: () => {
        const draft = newDraft();
        edit({ points: [...get().points, draft] });
        return draft.key;
      },
      removePoint: (key) =>
        edit({
          points: get().points.filter((point) => point.key !== key),
          errors: without(get().errors, [`${key}-content`, `${key}-context`]),
        }),
      save: async () => {
        const { name, description, points, saving } = get();
        if (saving) return { ok: false, focus: null };
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
        // The server's paths index the rows as they were sent.
        const fieldOf = (path: ReadonlyArray<PropertyKey>) => fieldIdOf(points, path);
        // The shared schema gives the same messages as the server, without the round trip.
        const checked = UpdateRecallSetBody.required({ name: true }).safeParse(body);
        if (!checked.success) return refuse(worded(fieldErrorsFromIssues(checked.error.issues as FieldIssue[], fieldOf)), points);
        set({ errors: {}, saving: true });
        const result = recallSetId
          ? await http.updateRecallSet(recallSetId, body)
          : await http.createRecallSet({ ...body, points: pointInputs.map(({ content, context }) => ({ content, ...(context && { context }) })) });
        if (!result.ok) return refuse(worded(fieldErrorsFromServer(result.error, fieldOf)), points);
        baseline = snapshotOf({ name, description, points });
        set({ saving: false, dirty: !sameDraft(snapshotOf(get()), baseline) });
        return { ok: true, value: result.value };
      },
    };
  });
}

export type RecallSetEditorStore = ReturnType<typeof createRecallSetEditorStore>;
