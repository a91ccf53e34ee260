import {
  CreateRecallSetBody,
  DocumentLimits,
  Limits,
  type DocumentFormat,
  type ProposalSource,
  type ProposeDocumentBody,
  type ProposeDocumentResponse,
  type RecallSetDetail,
} from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { HttpClient } from '../api/http-client';
import { fieldErrorsFromIssues, fieldErrorsFromServer, firstErrorField, formField, type FieldErrors, type FieldIssue } from './form-errors';

/** The part of a browser `File` the page reads (a test passes a plain object). */
export interface DocumentFile {
  name: string;
  size: number;
  type: string;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

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

/** `choose` a document → `reading` it on the server → `review` the proposals and save. */
export type ImportPhase = 'choose' | 'reading' | 'review';

export type DocumentSaveResult = { ok: true; value: RecallSetDetail } | { ok: false; focus: string | null };

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
  updatePoint(key: string, fields: Partial<Pick<ProposalDraft, 'content' | 'context'>>): void;
  /** Joins a point and the one after it; returns the merged point's key (the page focuses it). */
  mergeWithNext(key: string): string | null;
  /** Drops a point (Undo brings it back); returns the key of the point now in its place, if any. */
  dropPoint(key: string): string | null;
  /** Puts the last dropped point back where it was; returns its key. */
  undoDrop(): string | null;
  /** A blank point at the end; returns its key. */
  addPoint(): string;
  /** Checks the draft with the shared schema, then creates the set. The draft is kept whatever happens. */
  save(): Promise<DocumentSaveResult>;
}

export const setNameField = 'document-set-name';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The document format of a file, by its extension and then its type; null for anything else. */
export function formatOfFile(file: Pick<DocumentFile, 'name' | 'type'>): DocumentFormat | null {
  const extension = /\.(\w+)$/.exec(file.name)?.[1]?.toLowerCase();
  if (extension === 'pdf') return 'pdf';
  if (extension === 'md' || extension === 'markdown') return 'markdown';
  if (extension === 'txt' || extension === 'text') return 'text';
  if (extension === 'html' || extension === 'htm') return 'html';
  if (extension !== undefined) return null;
  const byType: Record<string, DocumentFormat> = {
    'application/pdf': 'pdf',
    'text/markdown': 'markdown',
    'text/plain': 'text',
    'text/html': 'html',
  };
  return byType[file.type] ?? null;
}

/** A set's name from a file's: `water-cycle_notes.pdf` → `water cycle notes`. */
export function nameFromFile(fileName: string): string {
  const stem = fileName.replace(/\.\w+$/, '').replace(/[-_]+/g, ' ').trim();
  return stem.slice(0, Limits.setNameMaxLength);
}

/** Bytes as base64 (a PDF travels in JSON, like an .apkg). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** The request body for a file, or why the file cannot be read. */
async function bodyOfFile(file: DocumentFile): Promise<{ ok: true; body: ProposeDocumentBody } | { ok: false; problem: string }> {
  const format = formatOfFile(file);
  const quoted = `“${file.name}”`;
  if (format === null) {
    return { ok: false, problem: `${quoted} is not a document this page reads. Choose a PDF, a Markdown (.md), text (.txt) or HTML file.` };
  }
  if (file.size === 0) return { ok: false, problem: `${quoted} is empty: there is nothing in it to read.` };
  try {
    if (format === 'pdf') {
      if (file.size > DocumentLimits.pdfMaxBytes) {
        return {
          ok: false,
          problem: `${quoted} is ${megabytes(file.size)}; the largest PDF this page reads is ${megabytes(DocumentLimits.pdfMaxBytes)}. Save the chapter you need as its own PDF, or paste its text.`,
        };
      }
      return { ok: true, body: { format, data: base64Of(new Uint8Array(await file.arrayBuffer())) } };
    }
    // A character takes at most four bytes: a larger file cannot fit the limit, so it is not read at all.
    if (file.size > DocumentLimits.textMaxCharacters * 4) return { ok: false, problem: tooLong(quoted) };
    const text = await file.text();
    if (!text.trim()) return { ok: false, problem: `${quoted} is empty: there is nothing in it to read.` };
    if (text.length > DocumentLimits.textMaxCharacters) return { ok: false, problem: tooLong(quoted) };
    return { ok: true, body: { format, text } };
  } catch {
    return { ok: false, problem: `${quoted} could not be read from your device. Choose it again.` };
  }
}

function tooLong(what: string): string {
  const most = DocumentLimits.textMaxCharacters.toLocaleString('en');
  return `${what} is longer than ${most} characters, the most this page reads. Use the part you need.`;
}

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
export function createDocumentImportStore(http: Pick<HttpClient, 'proposeDocument' | 'createRecallSet'>) {
  let nextKey = 0;
  const newKey = () => `proposal-${(nextKey += 1)}`;
  // Each reading gets a number; an answer for an older one (cancelled, replaced) is ignored.
  let reading = 0;
  let controller: AbortController | null = null;

  return createStore<DocumentImportState>()((set, get) => {
    async function propose(body: ProposeDocumentBody, fileName: string | null, ticket: number) {
      controller = new AbortController();
      const result = await http.proposeDocument(body, controller.signal);
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
      pages: null,
      warnings: [],
      proposedCount: 0,
      name: '',
      points: [],
      lastDropped: null,
      errors: {},
      saving: false,
      setPastedText: (pastedText) => set({ pastedText, pastedHtml: null }),
      pasteWebPage: (pastedText, pastedHtml) => set({ pastedText, pastedHtml }),
      setPastedFormat: (pastedFormat) => set({ pastedFormat }),
      readFile: async (file) => {
        if (get().phase === 'reading') return;
        const ticket = (reading += 1);
        set({ phase: 'reading', fileName: file.name, problem: null, notice: null });
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
        set({ phase: 'reading', fileName: null, problem: null, notice: null });
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
        });
      },
      setName: (name) => set({ name, errors: withoutErrors([setNameField]) }),
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
        const { name, points, saving, fileName } = get();
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
          return null;
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
        const checked = CreateRecallSetBody.safeParse(body);
        if (!checked.success) return refuse(worded(fieldErrorsFromIssues(checked.error.issues as FieldIssue[], fieldOf)), points);
        set({ errors: {}, saving: true });
        const result = await http.createRecallSet(body);
        if (!result.ok) return refuse(worded(fieldErrorsFromServer(result.error, fieldOf)), points);
        set({ saving: false });
        return { ok: true, value: result.value };
      },
    };
  });
}

export type DocumentImportStore = ReturnType<typeof createDocumentImportStore>;
