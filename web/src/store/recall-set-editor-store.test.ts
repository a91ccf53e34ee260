import type { CreateRecallSetBody, RecallSetDetail, UpdateRecallSetBody } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiError, ApiResult } from '../api/http-client';
import { createRecallSetEditorStore, fieldLabel } from './recall-set-editor-store';

const rivers: RecallSetDetail = {
  id: 'rs_1',
  name: 'Rivers',
  description: 'Big ones',
  pointCount: 2,
  dueCount: 2,
  newCount: 2,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  // Out of order on purpose: the editor lists them by position.
  points: [
    { id: 'p_2', content: 'The Amazon carries the most water', context: null, position: 1 },
    { id: 'p_1', content: 'The Nile flows north', context: 'Africa', position: 0 },
  ],
};

const networkError: ApiError = { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' };

/** A fake API port that records what was sent and answers with what the test says. */
function fakeApi(answers: { get?: ApiResult<RecallSetDetail>; save?: (body: unknown) => ApiResult<RecallSetDetail> } = {}) {
  const calls = { created: [] as CreateRecallSetBody[], updated: [] as Array<{ recallSetId: string; body: UpdateRecallSetBody }> };
  const save = answers.save ?? ((body: unknown) => ({ ok: true, value: { ...rivers, ...(body as object), points: [] } }) as ApiResult<RecallSetDetail>);
  return {
    calls,
    http: {
      getRecallSet: async () => answers.get ?? { ok: true as const, value: rivers },
      createRecallSet: async (body: CreateRecallSetBody) => {
        calls.created.push(body);
        return save(body);
      },
      updateRecallSet: async (recallSetId: string, body: UpdateRecallSetBody) => {
        calls.updated.push({ recallSetId, body });
        return save(body);
      },
    },
  };
}

/** The draft as a learner sees it: name, description and each row's text. */
function draftOf(store: ReturnType<typeof createRecallSetEditorStore>) {
  const { name, description, points } = store.getState();
  return { name, description, points: points.map(({ content, context }) => ({ content, context })) };
}

describe('recall set editor store', () => {
  it('starts a new set with one blank row, and knows when it has been edited', () => {
    const store = createRecallSetEditorStore(fakeApi().http);
    expect(store.getState()).toMatchObject({ status: 'ready', name: '', description: '', errors: {}, dirty: false });
    expect(store.getState().points).toHaveLength(1);
    store.getState().setName('Rivers');
    expect(store.getState().dirty).toBe(true);
    store.getState().setName('');
    expect(store.getState().dirty).toBe(false);
  });

  it('loads an existing set with its points in order, and is not dirty until edited', async () => {
    const store = createRecallSetEditorStore(fakeApi().http, 'rs_1');
    expect(store.getState().status).toBe('loading');
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', loadError: null, dirty: false });
    expect(draftOf(store)).toEqual({
      name: 'Rivers',
      description: 'Big ones',
      points: [
        { content: 'The Nile flows north', context: 'Africa' },
        { content: 'The Amazon carries the most water', context: '' },
      ],
    });
    const [first] = store.getState().points;
    store.getState().updatePoint(first!.key, { context: 'East Africa' });
    expect(store.getState().dirty).toBe(true);
    store.getState().updatePoint(first!.key, { context: 'Africa' });
    expect(store.getState().dirty).toBe(false);
    store.getState().addPoint();
    expect(store.getState().dirty).toBe(true);
  });

  it('says why a set could not be loaded', async () => {
    const store = createRecallSetEditorStore(
      fakeApi({ get: { ok: false, error: { status: 404, code: 'not_found', message: 'No recall set with that id.' } } }).http,
      'rs_x',
    );
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'load-error', loadError: 'No recall set with that id.' });
  });

  it('flags each problem under its own field, sends nothing, and keeps every row', async () => {
    const { http, calls } = fakeApi();
    const store = createRecallSetEditorStore(http);
    const editor = store.getState();
    editor.setName('   ');
    const first = editor.points[0]!.key;
    editor.updatePoint(first, { content: 'The Nile flows north' });
    const blank = editor.addPoint();
    editor.updatePoint(blank, { context: 'a context without its point' });
    const long = editor.addPoint();
    editor.updatePoint(long, { content: 'The Amazon', context: 'x'.repeat(2001) });

    const result = await store.getState().save();
    // The first field with a problem takes the focus.
    expect(result).toEqual({ ok: false, focus: 'set-name' });
    expect(store.getState().errors).toEqual({
      'set-name': 'This cannot be empty.',
      [`${blank}-content`]: 'This point is empty: write it, or remove the row.',
      [`${long}-context`]: 'Use at most 2000 characters.',
    });
    expect(calls).toEqual({ created: [], updated: [] });
    expect(draftOf(store).points).toEqual([
      { content: 'The Nile flows north', context: '' },
      { content: '', context: 'a context without its point' },
      { content: 'The Amazon', context: 'x'.repeat(2001) },
    ]);
    const points = store.getState().points;
    expect(fieldLabel(points, `${blank}-content`)).toBe('Point 2');
    expect(fieldLabel(points, `${long}-context`)).toBe('Point 3, context');

    // Editing a field clears its message; removing a row clears the row's.
    store.getState().setName('Rivers');
    store.getState().removePoint(blank);
    expect(store.getState().errors).toEqual({ [`${long}-context`]: 'Use at most 2000 characters.' });
    store.getState().updatePoint(long, { context: 'South America' });
    expect(store.getState().errors).toEqual({});
  });

  it('creates a new set from the trimmed draft, without ids or blank contexts', async () => {
    const { http, calls } = fakeApi();
    const store = createRecallSetEditorStore(http);
    store.getState().setName('  Rivers ');
    store.getState().updatePoint(store.getState().points[0]!.key, { content: ' The Nile flows north ', context: '  ' });
    const result = await store.getState().save();
    expect(result.ok).toBe(true);
    expect(calls.created).toEqual([{ name: 'Rivers', points: [{ content: 'The Nile flows north' }] }]);
    expect(store.getState()).toMatchObject({ saving: false, errors: {}, dirty: false });
  });

  it('updates an existing set, keeping each point’s id and clearing an emptied description', async () => {
    const { http, calls } = fakeApi();
    const store = createRecallSetEditorStore(http, 'rs_1');
    await store.getState().load();
    store.getState().setDescription('');
    const saving = store.getState().save();
    expect(store.getState().saving).toBe(true);
    expect((await saving).ok).toBe(true);
    expect(calls.updated).toEqual([
      {
        recallSetId: 'rs_1',
        body: {
          name: 'Rivers',
          description: '',
          points: [
            { id: 'p_1', content: 'The Nile flows north', context: 'Africa' },
            { id: 'p_2', content: 'The Amazon carries the most water' },
          ],
        },
      },
    ]);
    expect(store.getState().dirty).toBe(false);
  });

  it('puts the server’s refusal under the fields it names, and keeps the draft', async () => {
    const { http } = fakeApi({
      save: () => ({ ok: false, error: { status: 400, code: 'invalid_payload', message: 'points.1.id: no point with that id in this set' } }),
    });
    const store = createRecallSetEditorStore(http, 'rs_1');
    await store.getState().load();
    const second = store.getState().points[1]!.key;
    store.getState().updatePoint(second, { content: 'The Amazon is the largest river' });
    const before = draftOf(store);

    const result = await store.getState().save();
    expect(result).toEqual({ ok: false, focus: `${second}-content` });
    expect(store.getState().errors).toEqual({ [`${second}-content`]: 'No point with that id in this set.' });
    expect(store.getState()).toMatchObject({ saving: false, dirty: true });
    expect(draftOf(store)).toEqual(before);
  });

  it('keeps the draft on a network failure and says so in plain words, for the whole form', async () => {
    const { http } = fakeApi({ save: () => ({ ok: false, error: networkError }) });
    const store = createRecallSetEditorStore(http);
    store.getState().setName('Rivers');
    store.getState().updatePoint(store.getState().points[0]!.key, { content: 'The Nile flows north' });

    const result = await store.getState().save();
    expect(result).toEqual({ ok: false, focus: null });
    expect(store.getState().errors).toEqual({ form: 'Could not reach the server. Check your connection and try again.' });
    expect(store.getState()).toMatchObject({ saving: false, dirty: true });
    expect(draftOf(store)).toEqual({ name: 'Rivers', description: '', points: [{ content: 'The Nile flows north', context: '' }] });
  });
});
