import type { StudyPlanDetail } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import type { ApiResult, HttpClient } from '../api/http-client';
import { formatOfFile, parsePlanProblems, planTemplates, type PlanFormat, type PlanProblem } from './learning';

/** What the editor is for: a new plan (starts from a template), an import (paste or upload), or an own plan's edit (JSON). */
export type PlanEditorMode = { kind: 'new' } | { kind: 'import' } | { kind: 'edit'; studyPlanId: string };

/** A file the author picked (a browser `File` is one). */
export interface PlanFile {
  name: string;
  text(): Promise<string>;
}

/** What a save came to: the plan as stored, or refused (the problems are in the state). */
export type PlanSaveResult = { ok: true; value: StudyPlanDetail } | { ok: false };

export interface StudyPlanEditorState {
  /** `loading` only while an own plan is fetched; `load-error` when it could not be (or is not the learner's). */
  status: 'loading' | 'load-error' | 'ready';
  loadError: string | null;
  format: PlanFormat;
  text: string;
  shared: boolean;
  /** The file the text came from, if any. */
  fileName: string | null;
  /** The checks' findings, field by field; empty when there is nothing to fix. */
  problems: PlanProblem[];
  /** Counts refused saves: each one moves the focus to the problem list (and the view, on a phone). */
  refusals: number;
  saving: boolean;
  /** The text, format or sharing differs from what was loaded (or from the starting template). */
  dirty: boolean;
  /** Fetches the plan being edited; a new plan or an import needs none. */
  load(): Promise<void>;
  setText(text: string): void;
  setShared(shared: boolean): void;
  /** An untouched template follows the format; anything the author wrote stays as it is. */
  changeFormat(format: PlanFormat): void;
  /** Reads a picked `.json` or `.md` file into the text, or refuses any other file. */
  loadFile(file: PlanFile): Promise<void>;
  /** Checks what can be checked here, then creates, imports or updates the plan. The text is kept whatever happens. */
  save(): Promise<PlanSaveResult>;
}

/** "Unexpected token } in JSON at position 57" / "… (line 4 column 3)" → the line, when the browser says. */
export function jsonErrorLine(text: string, error: unknown): number | null {
  const message = error instanceof Error ? error.message : String(error);
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return text.slice(0, Number(position[1])).split('\n').length;
  return null;
}

type Draft = Pick<StudyPlanEditorState, 'format' | 'text' | 'shared'>;

/**
 * A study plan as text — JSON, or Markdown with front matter (SPEC §4.4) — with the server's
 * validation problems, one per field. One store per editor page; the page only shows it.
 */
export function createStudyPlanEditorStore(
  http: Pick<HttpClient, 'getStudyPlan' | 'createStudyPlan' | 'updateStudyPlan' | 'importStudyPlan'>,
  mode: PlanEditorMode,
) {
  const editingId = mode.kind === 'edit' ? mode.studyPlanId : null;
  let baseline: Draft = { format: mode.kind === 'import' ? 'markdown' : 'json', text: mode.kind === 'new' ? planTemplates.json : '', shared: false };

  return createStore<StudyPlanEditorState>()((set, get) => {
    /** Applies an edit and works out again whether the draft differs from the baseline. */
    function edit(change: Partial<Pick<StudyPlanEditorState, 'format' | 'text' | 'shared' | 'fileName' | 'problems'>>) {
      const next = { ...get(), ...change };
      set({ ...change, dirty: next.format !== baseline.format || next.text !== baseline.text || next.shared !== baseline.shared });
    }

    function refuse(problems: PlanProblem[]): PlanSaveResult {
      set({ problems, saving: false, refusals: get().refusals + 1 });
      return { ok: false };
    }

    return {
      status: editingId ? 'loading' : 'ready',
      loadError: null,
      ...baseline,
      fileName: null,
      problems: [],
      refusals: 0,
      saving: false,
      dirty: false,
      load: async () => {
        if (!editingId) return;
        set({ status: 'loading', loadError: null });
        const result = await http.getStudyPlan(editingId);
        if (!result.ok) {
          set({ status: 'load-error', loadError: result.error.message });
          return;
        }
        if (!result.value.owned) {
          set({ status: 'load-error', loadError: 'Only the author of a study plan can change it. Import a copy to make your own version.' });
          return;
        }
        baseline = { format: 'json', text: `${JSON.stringify(result.value.plan, null, 2)}\n`, shared: result.value.shared };
        set({ ...baseline, status: 'ready', problems: [], dirty: false });
      },
      setText: (text) => edit({ text }),
      setShared: (shared) => edit({ shared }),
      changeFormat: (format) => {
        const { text, format: current } = get();
        edit({ format, problems: [], ...(mode.kind === 'new' && text === planTemplates[current] && { text: planTemplates[format] }) });
      },
      loadFile: async (file) => {
        const fileFormat = formatOfFile(file.name);
        if (!fileFormat) {
          refuse([{ field: null, label: 'File', message: `“${file.name}” is not a .json or .md file.`, line: null }]);
          return;
        }
        edit({ text: await file.text(), format: fileFormat, fileName: file.name, problems: [] });
      },
      save: async () => {
        const { text, format, shared, saving } = get();
        if (saving) return { ok: false };
        if (!text.trim()) {
          return refuse([{ field: 'text', label: 'Text', message: 'is empty: write or paste a plan, or load a file.', line: null }]);
        }
        let result: ApiResult<StudyPlanDetail>;
        if (format === 'json' && mode.kind !== 'import') {
          let plan: unknown;
          try {
            plan = JSON.parse(text);
          } catch (error) {
            const line = jsonErrorLine(text, error);
            return refuse([{ field: 'text', label: 'Text', message: `is not valid JSON (${error instanceof Error ? error.message : String(error)})`, line }]);
          }
          set({ saving: true });
          result = editingId ? await http.updateStudyPlan(editingId, { plan, shared }) : await http.createStudyPlan({ plan, shared });
        } else {
          set({ saving: true });
          result = await http.importStudyPlan({ format, text, shared });
        }
        if (!result.ok) {
          // A 400 lists the plan's problems field by field; anything else (network, server) is one message.
          return refuse(result.error.status === 400 ? parsePlanProblems(result.error.message) : [{ field: null, label: null, message: result.error.message, line: null }]);
        }
        baseline = { format, text, shared };
        set({ saving: false, problems: [] });
        edit({});
        return { ok: true, value: result.value };
      },
    };
  });
}

export type StudyPlanEditorStore = ReturnType<typeof createStudyPlanEditorStore>;
