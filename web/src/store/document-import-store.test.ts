import type { CreateRecallSetBody, ProposeDocumentBody, ProposeDocumentResponse, RecallSetDetail, UpdateRecallSetBody } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../api/http-client';
import { createDocumentImportStore, formatOfFile, hasUnsavedPoints, type DocumentFile } from './document-import-store';

const proposed: ProposeDocumentResponse = {
  proposals: [
    { content: 'Evaporation is the change of liquid water into water vapour.', source: { page: 1, heading: 'Evaporation', quote: 'Evaporation is the change of liquid water into water vapour.' } },
    { content: 'Condensation is the change of water vapour into droplets.', source: { page: 1, heading: 'Condensation', quote: 'Condensation is the change of water vapour into droplets.' } },
    { content: 'Clouds consist of tiny droplets.', source: { page: 2, heading: 'Condensation', quote: 'Clouds consist of billions of tiny droplets.' } },
  ],
  pages: 2,
  warnings: ['Page 3 had no text (scanned or images only) and was skipped.'],
};

function savedSet(body: CreateRecallSetBody): RecallSetDetail {
  return {
    id: 'rs_new',
    name: body.name,
    description: body.description ?? null,
    pointCount: body.points?.length ?? 0,
    dueCount: 0,
    newCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    points: (body.points ?? []).map((point, position) => ({ id: `p_${position}`, content: point.content, context: point.context ?? null, position })),
  };
}

/** A fake API port: records what was sent; `propose` answers at once, or waits for `release()`. */
function fakeApi(answers: { propose?: ApiResult<ProposeDocumentResponse>; create?: ApiResult<RecallSetDetail>; hold?: boolean; existing?: RecallSetDetail; pagesRead?: number } = {}) {
  const calls = { proposed: [] as ProposeDocumentBody[], created: [] as CreateRecallSetBody[], updated: [] as Array<[string, UpdateRecallSetBody]>, signals: [] as Array<AbortSignal | undefined> };
  let release: () => void = () => {};
  const http = {
    proposeDocument: async (body: ProposeDocumentBody, signal?: AbortSignal, onProgress?: (pagesDone: number, pages: number) => void): Promise<ApiResult<ProposeDocumentResponse>> => {
      calls.proposed.push(body);
      calls.signals.push(signal);
      for (let page = 0; page <= (answers.pagesRead ?? -1); page += 1) onProgress?.(page, 300);
      if (answers.hold) await new Promise<void>((resolve) => (release = resolve));
      return answers.propose ?? { ok: true, value: proposed };
    },
    getRecallSet: async (recallSetId: string): Promise<ApiResult<RecallSetDetail>> =>
      answers.existing?.id === recallSetId ? { ok: true, value: answers.existing } : { ok: false, error: { status: 404, code: 'not_found', message: 'No such recall set.' } },
    updateRecallSet: async (recallSetId: string, body: UpdateRecallSetBody): Promise<ApiResult<RecallSetDetail>> => {
      calls.updated.push([recallSetId, body]);
      const points = (body.points ?? []).map((point, position) => ({ id: point.id ?? `p_new_${position}`, content: point.content, context: point.context ?? null, position }));
      return { ok: true, value: { ...answers.existing!, pointCount: points.length, points } };
    },
    createRecallSet: async (body: CreateRecallSetBody): Promise<ApiResult<RecallSetDetail>> => {
      calls.created.push(body);
      return answers.create ?? { ok: true, value: savedSet(body) };
    },
  };
  return { http, calls, release: () => release() };
}

function file(name: string, content: string | Uint8Array, type = ''): DocumentFile {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return {
    name,
    type,
    size: bytes.length,
    text: async () => new TextDecoder().decode(bytes),
    arrayBuffer: async () => bytes.slice().buffer,
  };
}

/** What the learner sees of the list: each point's text and context, and the pages it came from. */
function listOf(store: ReturnType<typeof createDocumentImportStore>) {
  return store.getState().points.map((point) => ({ content: point.content, context: point.context, pages: point.sources.map((source) => source.page) }));
}

describe('document import store (SPEC §4.7)', () => {
  it('reads a Markdown file: the proposals are listed with their sources, the set named after the file', async () => {
    const api = fakeApi();
    const store = createDocumentImportStore(api.http);
    await store.getState().readFile(file('water-cycle_notes.md', '# Water cycle\nEvaporation is …'));
    expect(api.calls.proposed).toEqual([{ format: 'markdown', text: '# Water cycle\nEvaporation is …' }]);
    expect(store.getState()).toMatchObject({ phase: 'review', fileName: 'water-cycle_notes.md', name: 'water cycle notes', pages: 2, proposedCount: 3, warnings: proposed.warnings });
    expect(listOf(store)).toEqual([
      { content: proposed.proposals[0]!.content, context: 'Evaporation', pages: [1] },
      { content: proposed.proposals[1]!.content, context: 'Condensation', pages: [1] },
      { content: proposed.proposals[2]!.content, context: 'Condensation', pages: [2] },
    ]);
  });

  it('sends a PDF as base64 and knows files by their extension, else by their type', async () => {
    const api = fakeApi();
    const store = createDocumentImportStore(api.http);
    await store.getState().readFile(file('article.pdf', new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d])));
    expect(api.calls.proposed).toEqual([{ format: 'pdf', data: 'JVBERi0=' }]);
    expect([formatOfFile({ name: 'a.HTM', type: '' }), formatOfFile({ name: 'notes', type: 'text/plain' }), formatOfFile({ name: 'a.docx', type: 'text/plain' })]).toEqual(['html', 'text', null]);
  });

  it('refuses a wrong type, an empty file and a server refusal in plain words, keeping the pasted notes', async () => {
    const api = fakeApi({ propose: { ok: false, error: { status: 400, code: 'invalid_payload', message: 'This PDF has no text layer (it looks scanned).' } } });
    const store = createDocumentImportStore(api.http);
    store.getState().setPastedText('My own notes, typed by hand.');
    await store.getState().readFile(file('slides.pptx', 'x'));
    expect(store.getState()).toMatchObject({ phase: 'choose', problem: '“slides.pptx” is not a document this page reads. Choose a PDF, a Markdown (.md), text (.txt) or HTML file.' });
    await store.getState().readFile(file('blank.txt', '  \n'));
    expect(store.getState().problem).toBe('“blank.txt” is empty: there is nothing in it to read.');
    expect(api.calls.proposed).toEqual([]);
    await store.getState().readFile(file('scan.pdf', '%PDF-1.4'));
    expect(store.getState()).toMatchObject({ phase: 'choose', problem: 'Could not read “scan.pdf”. This PDF has no text layer (it looks scanned).', pastedText: 'My own notes, typed by hand.' });
  });

  it('refuses a PDF over the size limit before sending anything', async () => {
    const api = fakeApi();
    const store = createDocumentImportStore(api.http);
    const huge: DocumentFile = { ...file('book.pdf', '%PDF-'), size: 17 * 1024 * 1024 };
    await store.getState().readFile(huge);
    expect(store.getState().problem).toBe('“book.pdf” is 17 MB; the largest PDF this page reads is 16 MB. Save the chapter you need as its own PDF, or paste its text.');
    expect(api.calls.proposed).toEqual([]);
  });

  it('reads pasted notes, as HTML when they were pasted from a web page, until the text is edited', async () => {
    const api = fakeApi();
    const store = createDocumentImportStore(api.http);
    await store.getState().readPasted();
    expect(store.getState().problem).toBe('Paste or type your notes first: there is nothing to read yet.');
    store.getState().pasteWebPage('Rain\nRain is water.', '<h2>Rain</h2><p>Rain is water.</p>');
    await store.getState().readPasted();
    store.getState().startOver();
    expect(store.getState()).toMatchObject({ phase: 'choose', points: [], pastedText: 'Rain\nRain is water.' });
    store.getState().setPastedText('Rain\nRain is water falling.');
    store.getState().setPastedFormat('text');
    await store.getState().readPasted();
    expect(api.calls.proposed).toEqual([
      { format: 'html', text: '<h2>Rain</h2><p>Rain is water.</p>' },
      { format: 'text', text: 'Rain\nRain is water falling.' },
    ]);
    expect(store.getState()).toMatchObject({ phase: 'review', fileName: null, name: '' });
  });

  it('cancels a reading: the request is aborted, its late answer ignored, the notes kept', async () => {
    const api = fakeApi({ hold: true });
    const store = createDocumentImportStore(api.http);
    store.getState().setPastedText('Long notes');
    const reading = store.getState().readPasted();
    expect(store.getState().phase).toBe('reading');
    store.getState().cancel();
    expect(api.calls.signals[0]?.aborted).toBe(true);
    api.release();
    await reading;
    expect(store.getState()).toMatchObject({ phase: 'choose', notice: 'Reading cancelled. Nothing was saved.', pastedText: 'Long notes', points: [] });
  });

  it('edits, merges two neighbours, drops one (and undoes it), adds one, then saves exactly that list', async () => {
    const api = fakeApi();
    const store = createDocumentImportStore(api.http);
    await store.getState().readFile(file('article.pdf', '%PDF-1.7'));
    const [first, second] = store.getState().points;
    store.getState().updatePoint(first!.key, { content: 'Evaporation turns liquid water into vapour.' });
    expect(store.getState().mergeWithNext(second!.key)).toBe(second!.key);
    expect(store.getState().mergeWithNext(second!.key)).toBeNull();
    expect(listOf(store)).toEqual([
      { content: 'Evaporation turns liquid water into vapour.', context: 'Evaporation', pages: [1] },
      { content: `${proposed.proposals[1]!.content} ${proposed.proposals[2]!.content}`, context: 'Condensation', pages: [1, 2] },
    ]);
    expect(store.getState().dropPoint(first!.key)).toBe(second!.key);
    expect(store.getState().undoDrop()).toBe(first!.key);
    expect(store.getState().points.map((point) => point.key)).toEqual([first!.key, second!.key]);
    store.getState().dropPoint(second!.key);
    const added = store.getState().addPoint();
    store.getState().updatePoint(added, { content: 'The sun drives the water cycle.', context: 'Overview' });
    store.getState().setName('  Water cycle ');

    const saved = await store.getState().save();
    expect(saved).toMatchObject({ ok: true, value: { id: 'rs_new' } });
    expect(api.calls.created).toEqual([
      {
        name: 'Water cycle',
        description: 'From “article.pdf”.',
        points: [
          { content: 'Evaporation turns liquid water into vapour.', context: 'Evaporation' },
          { content: 'The sun drives the water cycle.', context: 'Overview' },
        ],
      },
    ]);
  });

  it('refuses to save a blank name or point and says where, keeping every typed character; a server refusal too', async () => {
    const api = fakeApi({ create: { ok: false, error: { status: 429, code: 'rate_limited', message: 'Too many requests; try again in a minute.' } } });
    const store = createDocumentImportStore(api.http);
    await store.getState().readFile(file('notes.txt', 'Some notes.'));
    const [first] = store.getState().points;
    const blank = store.getState().addPoint();
    store.getState().setName(' ');
    store.getState().updatePoint(first!.key, { content: 'My edit' });
    expect(await store.getState().save()).toEqual({ ok: false, focus: 'document-set-name' });
    expect(store.getState().errors).toEqual({ 'document-set-name': 'Give the set a name.', [`${blank}-content`]: 'This point is empty: write it, or drop it.' });
    expect(api.calls.created).toEqual([]);

    store.getState().setName('Notes');
    store.getState().dropPoint(blank);
    expect(store.getState().errors).toEqual({});
    expect(await store.getState().save()).toEqual({ ok: false, focus: null });
    expect(store.getState()).toMatchObject({ errors: { form: 'Too many requests; try again in a minute.' }, saving: false, name: 'Notes' });
    expect(store.getState().points[0]!.content).toBe('My edit');
  });

  it('will not save an empty list', async () => {
    const store = createDocumentImportStore(fakeApi({ propose: { ok: true, value: { proposals: [], pages: null, warnings: [] } } }).http);
    store.getState().setPastedText('Hello.');
    await store.getState().readPasted();
    store.getState().setName('Empty');
    expect(await store.getState().save()).toEqual({ ok: false, focus: null });
    expect(store.getState().errors).toEqual({ form: 'Keep or add at least one point to save a set.' });
  });

  it('shows the pages read while a long PDF is read, then forgets them', async () => {
    const api = fakeApi({ hold: true, pagesRead: 37 });
    const store = createDocumentImportStore(api.http);
    const reading = store.getState().readFile(file('book.pdf', '%PDF-1.7'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState()).toMatchObject({ phase: 'reading', progress: { pagesDone: 37, pages: 300 } });
    api.release();
    await reading;
    store.getState().startOver();
    expect(store.getState().progress).toBeNull();
  });

  it('saves into an existing set: its points kept with their ids, the new ones after them, those it holds skipped and named', async () => {
    const existing = savedSet({ name: 'Weather', points: [{ content: 'Clouds consist of tiny droplets' }, { content: 'Fog is a cloud at ground level.', context: 'Fog' }] });
    const api = fakeApi({ existing });
    const store = createDocumentImportStore(api.http);
    await store.getState().readFile(file('article.pdf', '%PDF-1.7'));
    expect(hasUnsavedPoints(store.getState())).toBe(true);
    store.getState().setName('');
    store.getState().setTarget({ kind: 'existing', recallSetId: existing.id });
    const saved = await store.getState().save();
    expect(api.calls.created).toEqual([]);
    expect(api.calls.updated).toEqual([
      [
        existing.id,
        {
          points: [
            { id: 'p_0', content: 'Clouds consist of tiny droplets' },
            { id: 'p_1', content: 'Fog is a cloud at ground level.', context: 'Fog' },
            { content: proposed.proposals[0]!.content, context: 'Evaporation' },
            { content: proposed.proposals[1]!.content, context: 'Condensation' },
          ],
        },
      ],
    ]);
    expect(saved).toMatchObject({ ok: true, appended: { added: 2, skipped: ['Clouds consist of tiny droplets.'] } });
    expect(store.getState().phase).toBe('saved');
    expect(hasUnsavedPoints(store.getState())).toBe(false);
  });

  it('says so when the set to add to cannot be opened, and keeps the draft', async () => {
    const store = createDocumentImportStore(fakeApi().http);
    await store.getState().readFile(file('article.pdf', '%PDF-1.7'));
    store.getState().setTarget({ kind: 'existing', recallSetId: 'rs_gone' });
    expect(await store.getState().save()).toEqual({ ok: false, focus: null });
    expect(store.getState()).toMatchObject({ phase: 'review', errors: { form: 'Could not open the set to add to. No such recall set.' } });
    expect(store.getState().points).toHaveLength(3);
  });
});
