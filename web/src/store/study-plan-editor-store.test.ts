import type { StudyPlanDetail, StudyPlanImportBody } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult, StudyPlanDraftBody } from '../api/http-client';
import { planTemplates } from './learning';
import { createStudyPlanEditorStore, jsonErrorLine, type PlanEditorMode } from './study-plan-editor-store';

const addition: StudyPlanDetail = {
  id: 'sp_1',
  title: 'Two-digit addition',
  topic: 'Adding two-digit numbers in columns',
  audience: 'Grade 2',
  stepCount: 3,
  concepts: ['carrying'],
  shared: true,
  owned: true,
  builtIn: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  plan: JSON.parse(planTemplates.json) as StudyPlanDetail['plan'],
};

type Sent = { create: StudyPlanDraftBody } | { update: { studyPlanId: string; body: StudyPlanDraftBody } } | { import: StudyPlanImportBody };

/** A fake API port that records what was sent and answers with what the test says. */
function setup(mode: PlanEditorMode, answers: { get?: ApiResult<StudyPlanDetail>; save?: ApiResult<StudyPlanDetail> } = {}) {
  const sent: Sent[] = [];
  const save = async () => answers.save ?? { ok: true as const, value: addition };
  const store = createStudyPlanEditorStore(
    {
      getStudyPlan: async () => answers.get ?? { ok: true, value: addition },
      createStudyPlan: async (body) => {
        sent.push({ create: body });
        return save();
      },
      updateStudyPlan: async (studyPlanId, body) => {
        sent.push({ update: { studyPlanId, body } });
        return save();
      },
      importStudyPlan: async (body) => {
        sent.push({ import: body });
        return save();
      },
    },
    mode,
  );
  return { store, sent };
}

const refusal = {
  status: 400,
  code: 'invalid_payload',
  message: 'plan.steps.0.concept: is empty; plan.objectives: a plan needs at least one learning objective',
};

describe('study plan editor store', () => {
  it('starts a new plan from the JSON template; an untouched template follows the format, written text does not', () => {
    const { store } = setup({ kind: 'new' });
    expect(store.getState()).toMatchObject({ status: 'ready', format: 'json', text: planTemplates.json, shared: false, dirty: false });
    store.getState().changeFormat('markdown');
    expect(store.getState()).toMatchObject({ format: 'markdown', text: planTemplates.markdown, dirty: true });
    store.getState().setText('# my own plan');
    store.getState().changeFormat('json');
    expect(store.getState()).toMatchObject({ format: 'json', text: '# my own plan' });
  });

  it('starts an import empty, in Markdown', () => {
    const { store } = setup({ kind: 'import' });
    expect(store.getState()).toMatchObject({ status: 'ready', format: 'markdown', text: '', dirty: false });
  });

  it('loads an own plan as JSON with its sharing, and is not dirty until edited', async () => {
    const { store } = setup({ kind: 'edit', studyPlanId: 'sp_1' });
    expect(store.getState().status).toBe('loading');
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', format: 'json', text: planTemplates.json, shared: true, dirty: false });
    store.getState().setShared(false);
    expect(store.getState().dirty).toBe(true);
    store.getState().setShared(true);
    expect(store.getState().dirty).toBe(false);
  });

  it('refuses to edit a plan the learner did not write, and says why a plan could not be loaded', async () => {
    const theirs = setup({ kind: 'edit', studyPlanId: 'sp_1' }, { get: { ok: true, value: { ...addition, owned: false } } });
    await theirs.store.getState().load();
    expect(theirs.store.getState()).toMatchObject({
      status: 'load-error',
      loadError: 'Only the author of a study plan can change it. Import a copy to make your own version.',
    });
    const missing = setup({ kind: 'edit', studyPlanId: 'sp_x' }, { get: { ok: false, error: { status: 404, code: 'not_found', message: 'No study plan with that id.' } } });
    await missing.store.getState().load();
    expect(missing.store.getState()).toMatchObject({ status: 'load-error', loadError: 'No study plan with that id.' });
  });

  it('flags empty text and broken JSON on the text, with the line, and sends nothing', async () => {
    const { store, sent } = setup({ kind: 'new' });
    store.getState().setText('  ');
    expect(await store.getState().save()).toEqual({ ok: false });
    expect(store.getState().problems).toEqual([{ field: 'text', label: 'Text', message: 'is empty: write or paste a plan, or load a file.', line: null }]);
    expect(store.getState().refusals).toBe(1);

    const broken = '{\n  "title": "Halves",\n  }\n';
    store.getState().setText(broken);
    expect(await store.getState().save()).toEqual({ ok: false });
    const [problem] = store.getState().problems;
    expect(problem).toMatchObject({ field: 'text', label: 'Text', line: 3 });
    expect(problem!.message).toMatch(/^is not valid JSON \(/);
    expect(store.getState()).toMatchObject({ text: broken, refusals: 2 });
    expect(sent).toEqual([]);
  });

  it('reads a picked file into the text and its format, and refuses any other file', async () => {
    const { store } = setup({ kind: 'import' });
    await store.getState().loadFile({ name: 'halves.json', text: async () => '{"title":"Halves"}' });
    expect(store.getState()).toMatchObject({ format: 'json', text: '{"title":"Halves"}', fileName: 'halves.json', problems: [] });
    await store.getState().loadFile({ name: 'notes.txt', text: async () => 'anything' });
    expect(store.getState().problems).toEqual([{ field: null, label: 'File', message: '“notes.txt” is not a .json or .md file.', line: null }]);
    expect(store.getState()).toMatchObject({ text: '{"title":"Halves"}', fileName: 'halves.json', refusals: 1 });
  });

  it('creates a new plan, imports pasted text, and updates an own plan', async () => {
    const created = setup({ kind: 'new' });
    created.store.getState().setShared(true);
    expect(await created.store.getState().save()).toEqual({ ok: true, value: addition });
    expect(created.sent).toEqual([{ create: { plan: JSON.parse(planTemplates.json), shared: true } }]);
    expect(created.store.getState()).toMatchObject({ saving: false, problems: [], dirty: false });

    const imported = setup({ kind: 'import' });
    imported.store.getState().setText(planTemplates.markdown);
    await imported.store.getState().save();
    expect(imported.sent).toEqual([{ import: { format: 'markdown', text: planTemplates.markdown, shared: false } }]);

    const updated = setup({ kind: 'edit', studyPlanId: 'sp_1' });
    await updated.store.getState().load();
    updated.store.getState().setText(planTemplates.json.replace('"Two-digit addition"', '"Column addition"'));
    const saving = updated.store.getState().save();
    expect(updated.store.getState().saving).toBe(true);
    await saving;
    expect(updated.sent).toEqual([
      { update: { studyPlanId: 'sp_1', body: { plan: { ...addition.plan, title: 'Column addition' }, shared: true } } },
    ]);
  });

  it('lists the server’s refusal field by field and keeps the text', async () => {
    const { store } = setup({ kind: 'import' }, { save: { ok: false, error: refusal } });
    store.getState().setText(planTemplates.markdown);
    expect(await store.getState().save()).toEqual({ ok: false });
    expect(store.getState().problems).toEqual([
      { field: 'plan.steps.0.concept', label: 'Step 1 › Concept', message: 'is empty', line: null },
      { field: 'plan.objectives', label: 'Objectives', message: 'a plan needs at least one learning objective', line: null },
    ]);
    expect(store.getState()).toMatchObject({ text: planTemplates.markdown, saving: false, refusals: 1, dirty: true });
  });

  it('keeps the text on a network failure and says so in plain words', async () => {
    const message = 'Could not reach the server. Check your connection and try again.';
    const { store } = setup({ kind: 'new' }, { save: { ok: false, error: { status: 0, code: 'network', message } } });
    store.getState().setText(`${planTemplates.json} `);
    expect(await store.getState().save()).toEqual({ ok: false });
    expect(store.getState().problems).toEqual([{ field: null, label: null, message, line: null }]);
    expect(store.getState()).toMatchObject({ text: `${planTemplates.json} `, saving: false, dirty: true });
  });
});

describe('jsonErrorLine', () => {
  it('finds the line from a "line N" or a "position N" message', () => {
    expect(jsonErrorLine('x', new SyntaxError('Expected double-quoted property name in JSON at position 20 (line 3 column 3)'))).toBe(3);
    expect(jsonErrorLine('{\n"a": 1,\n}', new SyntaxError('Unexpected token } in JSON at position 10'))).toBe(3);
    expect(jsonErrorLine('{', 'no place given')).toBeNull();
  });
});
