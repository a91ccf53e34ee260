import {
  CreateRecallSetBody,
  DocumentLimits,
  Limits,
  type ProposalSource,
  type ProposeDocumentBody,
  type ProposeDocumentResponse,
  type RecallSetDetail,
  UpdateRecallSetBody,
} from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { bodyOfFile, nameFromFile, tooLong, type DocumentFile } from './document-file';
import { fieldErrorsFromIssues, fieldErrorsFromServer, firstErrorField, formField, type FieldErrors, type FieldIssue } from './form-errors';

export { base64Of, formatOfFile, nameFromFile, type DocumentFile } from './document-file';

/** How pasted notes are read when they did not come from a web page. */
export type PastedFormat = 'markdown' | 'text';

/** One proposed point as the learner edits it. */
export interface ProposalDraft {
  /** React key and element id prefix (`proposal-3` → `proposal-3-content`). */
  key: string;
  content: string;
  context: string;
  /** Where it came from: one source, several after a merge, none for a point the learner added. */
  sources: ProposalSource[];
}

/** `choose` a document → `reading` it on the server → `review` the proposals and save → `saved` into an existing set. */
export type ImportPhase = 'choose' | 'reading' | 'review' | 'saved';

/** Where Save puts the points: a new set, or one of the learner's sets (by id), appended to its points. */
export type SaveTarget = { kind: 'new' } | { kind: 'existing'; recallSetId: string };

/** What saving into an existing set did: how many points were added, and those skipped as already in it. */
export interface AppendOutcome {
  set: RecallSetDetail;
  added: number;
  skipped: string[];
}

export type DocumentSaveResult = { ok: true; value: RecallSetDetail; appended: AppendOutcome | null } | { ok: false; focus: string | null };

export interface DocumentImportState {
  phase: ImportPhase;
  /** The file being read or reviewed; null for pasted notes. */
  fileName: string | null;
  pastedText: string;
  pastedFormat: PastedFormat;
  /** The HTML flavour of notes pasted from a web page (its headings are kept); dropped once the text is edited. */
  pastedHtml: string | null;
  /** Why the last document was not read, in plain words (wrong type, too large, empty, refused). */
  problem: string | null;
  /** A short note for the live region (a cancelled reading). */
  notice: string | null;
  /** While a PDF is read: pages read so far of its pages (null until the server says, and for pasted text). */
  progress: { pagesDone: number; pages: number } | null;
  /** Pages read (a PDF), else null; and the server's notes on the reading. */
  pages: number | null;
  warnings: string[];
  /** How many points the server proposed (the list changes as the learner edits). */
  proposedCount: number;
  name: string;
  points: ProposalDraft[];
  /** The last dropped point and where it stood, so Undo can put it back. */
  lastDropped: { point: ProposalDraft; index: number } | null;
  /** One message per field, keyed by element id (`document-set-name`, `proposal-3-content`, `form`). */
  errors: FieldErrors;
  saving: boolean;
  target: SaveTarget;
  /** After saving into an existing set: what was added and skipped. */
  appended: AppendOutcome | null;
  setPastedText(text: string): void;
  /** Notes pasted from a web page: the text is shown, the HTML is what the server reads. */
  pasteWebPage(text: string, html: string): void;
  setPastedFormat(format: PastedFormat): void;
  /** Checks the file, then has the server propose points from it. */
  readFile(file: DocumentFile): Promise<void>;
  /** Has the server propose points from the pasted notes. */
  readPasted(): Promise<void>;
  /** Stops waiting for the server; the pasted notes stay. */
  cancel(): void;
  /** Back to choosing a document: the proposals go, the pasted notes stay. */
  startOver(): void;
  setName(name: string): void;
  setTarget(target: SaveTarget): void;
  updatePoint(key: string, fields: Partial<Pick<ProposalDraft, 'content' | 'context'>>): void;
  /** Joins a point and the one after it; returns the merged point's key (the page focuses it). */
  mergeWithNext(key: string): string | null;
  /** Drops a point (Undo brings it back); returns the key of the point now in its place, if any. */
  dropPoint(key: string): string | null;
  /** Puts the last dropped point back where it was; returns its key. */
  undoDrop(): string | null;
  /** A blank point at the end; returns its key. */
  addPoint(): string;
  /**
   * Checks the draft with the shared schema, then creates the set, or appends the points to the
   * chosen set (points it already holds are skipped). The draft is kept whatever happens.
   */
  save(): Promise<DocumentSaveResult>;
}

/** True while proposals are on the page and not saved: leaving then asks first. */
export function hasUnsavedPoints(state: Pick<DocumentImportState, 'phase' | 'points' | 'lastDropped'>): boolean {
  return state.phase === 'review' && (state.points.length > 0 || state.lastDropped !== null);
}

/** Two points say the same when their words do, case, spacing and end punctuation aside. */
export function samePointKey(content: string): string {
  return content.trim().toLowerCase().split(/\s+/u).join(' ').replace(/(?<![.!?;:])[.!?;:]+$/u, '');
}

export const setNameField = 'document-set-name';

function draftsOf(response: ProposeDocumentResponse, newKey: () => string): ProposalDraft[] {
  return response.proposals.map((proposal) => ({
    key: newKey(),
    content: proposal.content,
    // The heading a point came from is the cue the tutor asks with ("Evaporation").
    context: (proposal.source.heading ?? '').slice(0, Limits.pointContextMaxLength),
    sources: [proposal.source],
  }));
}

function joined(first: string, second: string, separator: string): string {
  const a = first.trim();
  const b = second.trim();
  if (!a || !b || a === b) return a || b;
  return `${a}${separator}${b}`;
}

/**
 * The document import page (SPEC §4.7, issue 26): one store per mounted page. The server only
 * proposes; the learner's edits live here until Save creates the set with `POST /api/recall-sets`.
 */
export function createDocumentImportStore(http: Pick<HttpClient, 'proposeDocument' | 'createRecallSet' | 'getRecallSet' | 'updateRecallSet'>) {
  let nextKey = 0;
  const newKey = () => `proposal-${(nextKey += 1)}`;
  // Each reading gets a number; an answer for an older one (cancelled, replaced) is ignored.
  let reading = 0;
  let controller: AbortController | null = null;

  return createStore<DocumentImportState>()((set, get) => {
    async function propose(body: ProposeDocumentBody, fileName: string | null, ticket: number) {
      controller = new AbortController();
      const onProgress = (pagesDone: number, pages: number) => {
        if (ticket === reading) set({ progress: { pagesDone, pages } });
      };
      const result = await http.proposeDocument(body, controller.signal, onProgress);
      if (ticket !== reading) return;
      controller = null;
      if (!result.ok) {
        const what = fileName ? `“${fileName}”` : 'your notes';
        set({ phase: 'choose', problem: `Could not read ${what}. ${result.error.message}` });
        return;
      }
      const points = draftsOf(result.value, newKey);
      set({
        phase: 'review',
        pages: result.value.pages,
        warnings: result.value.warnings,
        proposedCount: points.length,
        points,
        name: fileName ? nameFromFile(fileName) : '',
        lastDropped: null,
        errors: {},
      });
    }

    function refuse(errors: FieldErrors, points: readonly ProposalDraft[]): DocumentSaveResult {
      set({ errors, saving: false });
      const first = firstErrorField(errors, [setNameField, ...points.flatMap((point) => [`${point.key}-content`, `${point.key}-context`])]);
      return { ok: false, focus: first === formField ? null : first };
    }

    /**
     * The points added after the set's own (sent back with their ids, so their schedules stay), with
     * those it already holds — or that the draft says twice — skipped and named.
     */
    async function append(recallSetId: string, drafted: ReadonlyArray<{ content: string; context?: string }>, points: readonly ProposalDraft[]): Promise<DocumentSaveResult> {
      const current = await http.getRecallSet(recallSetId);
      if (!current.ok) return refuse({ [formField]: `Could not open the set to add to. ${current.error.message}` }, points);
      const existing = current.value;
      const known = new Set(existing.points.map((point) => samePointKey(point.content)));
      const fresh: Array<{ content: string; context?: string }> = [];
      const skipped: string[] = [];
      for (const point of drafted) {
        const key = samePointKey(point.content);
        if (known.has(key)) skipped.push(point.content);
        else {
          known.add(key);
          fresh.push(point);
        }
      }
      let saved = existing;
      if (fresh.length > 0) {
        const total = existing.points.length + fresh.length;
        if (total > Limits.pointsPerSetMax) {
          return refuse(
            { [formField]: `“${existing.name}” holds ${existing.points.length} points; adding ${fresh.length} would pass the limit of ${Limits.pointsPerSetMax} a set. Drop some, or save them as a new set.` },
            points,
          );
        }
        const kept = existing.points.map((point) => ({ id: point.id, content: point.content, ...(point.context ? { context: point.context } : {}) }));
        const result = await http.updateRecallSet(recallSetId, { points: [...kept, ...fresh] });
        if (!result.ok) return refuse({ [formField]: `Could not add the points to “${existing.name}”. ${result.error.message}` }, points);
        saved = result.value;
      }
      const appended: AppendOutcome = { set: saved, added: fresh.length, skipped };
      set({ saving: false, phase: 'saved', appended });
      return { ok: true, value: saved, appended };
    }

    function withoutErrors(fieldIds: readonly string[]): FieldErrors {
      const { errors } = get();
      if (!fieldIds.some((fieldId) => errors[fieldId] !== undefined)) return errors;
      return Object.fromEntries(Object.entries(errors).filter(([fieldId]) => !fieldIds.includes(fieldId)));
    }

    return {
      phase: 'choose',
      fileName: null,
      pastedText: '',
      pastedFormat: 'markdown',
      pastedHtml: null,
      problem: null,
      notice: null,
      progress: null,
      pages: null,
      warnings: [],
      proposedCount: 0,
      name: '',
      points: [],
      lastDropped: null,
      errors: {},
      saving: false,
      target: { kind: 'new' },
      appended: null,
      setPastedText: (pastedText) => set({ pastedText, pastedHtml: null }),
      pasteWebPage: (pastedText, pastedHtml) => set({ pastedText, pastedHtml }),
      setPastedFormat: (pastedFormat) => set({ pastedFormat }),
      readFile: async (file) => {
        if (get().phase === 'reading') return;
        const ticket = (reading += 1);
        set({ phase: 'reading', fileName: file.name, problem: null, notice: null, progress: null });
        const checked = await bodyOfFile(file);
        if (ticket !== reading) return;
        if (!checked.ok) {
          set({ phase: 'choose', problem: checked.problem });
          return;
        }
        await propose(checked.body, file.name, ticket);
      },
      readPasted: async () => {
        const { phase, pastedText, pastedHtml, pastedFormat } = get();
        if (phase === 'reading') return;
        if (!pastedText.trim()) {
          set({ problem: 'Paste or type your notes first: there is nothing to read yet.', notice: null });
          return;
        }
        const text = pastedHtml ?? pastedText;
        if (text.length > DocumentLimits.textMaxCharacters) {
          set({ problem: tooLong('The pasted text'), notice: null });
          return;
        }
        const ticket = (reading += 1);
        set({ phase: 'reading', fileName: null, problem: null, notice: null, progress: null });
        await propose({ format: pastedHtml !== null ? 'html' : pastedFormat, text }, null, ticket);
      },
      cancel: () => {
        if (get().phase !== 'reading') return;
        reading += 1;
        controller?.abort();
        controller = null;
        set({ phase: 'choose', notice: 'Reading cancelled. Nothing was saved.' });
      },
      startOver: () => {
        reading += 1;
        controller?.abort();
        controller = null;
        set({
          phase: 'choose',
          fileName: null,
          problem: null,
          notice: null,
          pages: null,
          warnings: [],
          proposedCount: 0,
          name: '',
          points: [],
          lastDropped: null,
          errors: {},
          progress: null,
          appended: null,
        });
      },
      setName: (name) => set({ name, errors: withoutErrors([setNameField]) }),
      setTarget: (target) => set({ target, errors: withoutErrors([setNameField, formField]) }),
      updatePoint: (key, fields) => {
        const cleared = [
          ...(fields.content !== undefined ? [`${key}-content`] : []),
          ...(fields.context !== undefined ? [`${key}-context`] : []),
        ];
        set({ points: get().points.map((point) => (point.key === key ? { ...point, ...fields } : point)), errors: withoutErrors(cleared) });
      },
      mergeWithNext: (key) => {
        const points = get().points;
        const index = points.findIndex((point) => point.key === key);
        const first = points[index];
        const second = points[index + 1];
        if (!first || !second) return null;
        const merged: ProposalDraft = {
          key: first.key,
          content: joined(first.content, second.content, ' '),
          context: joined(first.context, second.context, '; '),
          sources: [...first.sources, ...second.sources],
        };
        set({
          points: [...points.slice(0, index), merged, ...points.slice(index + 2)],
          errors: withoutErrors([`${first.key}-content`, `${first.key}-context`, `${second.key}-content`, `${second.key}-context`]),
          lastDropped: null,
        });
        return merged.key;
      },
      dropPoint: (key) => {
        const points = get().points;
        const index = points.findIndex((point) => point.key === key);
        const point = points[index];
        if (!point) return null;
        const rest = points.filter((other) => other.key !== key);
        set({ points: rest, lastDropped: { point, index }, errors: withoutErrors([`${key}-content`, `${key}-context`]) });
        return (rest[index] ?? rest[index - 1])?.key ?? null;
      },
      undoDrop: () => {
        const { lastDropped, points } = get();
        if (!lastDropped) return null;
        const index = Math.min(lastDropped.index, points.length);
        set({ points: [...points.slice(0, index), lastDropped.point, ...points.slice(index)], lastDropped: null });
        return lastDropped.point.key;
      },
      addPoint: () => {
        const point: ProposalDraft = { key: newKey(), content: '', context: '', sources: [] };
        set({ points: [...get().points, point] });
        return point.key;
      },
      save: async () => {
        const { name, points, saving, fileName, target } = get();
        if (saving) return { ok: false, focus: null };
        if (points.length === 0) return refuse({ [formField]: 'Keep or add at least one point to save a set.' }, points);
        const body = {
          name: name.trim(),
          description: fileName ? `From “${fileName}”.` : 'From pasted notes.',
          points: points.map((point) => ({
            content: point.content.trim(),
            ...(point.context.trim() && { context: point.context.trim() }),
          })),
        };
        const fieldOf = (path: ReadonlyArray<PropertyKey>): string | null => {
          const [field, index, part] = path;
          if (field === 'name') return setNameField;
          if (field !== 'points' || typeof index !== 'number' || !points[index]) return null;
          return `${points[index].key}-${part === 'context' ? 'context' : 'content'}`;
        };
        const worded = (errors: FieldErrors): FieldErrors =>
          Object.fromEntries(
            Object.entries(errors).map(([field, message]) => [
              field,
              message !== 'This cannot be empty.'
                ? message
                : field === setNameField
                  ? 'Give the set a name.'
                  : field.endsWith('-content')
                    ? 'This point is empty: write it, or drop it.'
                    : message,
            ]),
          );
        // Into an existing set the name is the set's own: only the points are checked.
        const checked = target.kind === 'new' ? CreateRecallSetBody.safeParse(body) : UpdateRecallSetBody.safeParse({ points: body.points });
        if (!checked.success) return refuse(worded(fieldErrorsFromIssues(checked.error.issues as FieldIssue[], fieldOf)), points);
        set({ errors: {}, saving: true });
        if (target.kind === 'existing') return append(target.recallSetId, body.points, points);
        const result = await http.createRecallSet(body);
        if (!result.ok) return refuse(worded(fieldErrorsFromServer(result.error, fieldOf)), points);
        set({ saving: false, phase: 'saved', appended: null });
        return { ok: true, value: result.value, appended: null };
      },
    };
  });
}

export type DocumentImportStore = ReturnType<typeof createDocumentImportStore>;
