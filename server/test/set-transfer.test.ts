/**
 * Recall set import with a preview, and export (issue 18), over the real server: Anki text
 * (headers honoured, HTML stripped), a real `.apkg` built here (SQLite collection in a zip),
 * and a set out again as CSV and Anki text.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, RecallSetDetail } from '@tutorloop/shared';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
let token: string;

beforeEach(async () => {
  server = await startTestServer();
  token = (await server.register()).token;
});
afterEach(async () => {
  await server.close();
});

const ankiText = [
  '#separator:tab',
  '#html:true',
  '#columns:Front\tBack\tTags',
  '#deck:Languages::Spanish',
  '#tags column:3',
  'hola\t<b>hello</b>\tgreetings',
  'adiós\tgood&nbsp;bye\tgreetings',
  'Hola\tHello\tgreetings',
  '<br>\t<div></div>\t',
  'gracias\tthank you\tpoliteness',
].join('\n');

/** A schema-11 collection (the `col` row's JSON for note types and decks) as Anki 2.1 writes it. */
function collection(notes: Array<{ fields: string[]; model: number; deck: number }>, models: Record<string, unknown>, decks: Record<string, unknown>): Uint8Array {
  const folder = mkdtempSync(path.join(tmpdir(), 'apkg-fixture-'));
  const file = path.join(folder, 'collection.anki2');
  const database = new Database(file);
  database.exec(`
    CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
    CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);
    CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
  `);
  database.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(JSON.stringify(models), JSON.stringify(decks));
  for (const [index, note] of notes.entries()) {
    const id = 1000 + index;
    database.prepare("INSERT INTO notes VALUES (?, ?, ?, 0, 0, '', ?, '', 0, 0, '')").run(id, `guid${id}`, note.model, note.fields.join('\x1f'));
    database.prepare("INSERT INTO cards VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')").run(5000 + index, id, note.deck);
  }
  database.close();
  const bytes = readFileSync(file);
  rmSync(folder, { recursive: true, force: true });
  return bytes;
}

function apkg(entries: Record<string, Uint8Array>): string {
  return Buffer.from(zipSync({ ...entries, media: new TextEncoder().encode('{}') })).toString('base64');
}

const basicAndCloze = { '1': { name: 'Basic', type: 0 }, '2': { name: 'Cloze', type: 1 } };
const geographyDecks = { '1': { name: 'Default' }, '7': { name: 'Geography::Capitals' } };

describe('Anki text import', () => {
  it('previews what it will create and skip (nothing stored), then creates exactly that', async () => {
    const preview = await server.api<ImportPreview>('POST', '/api/recall-sets/import/preview', { token, body: { format: 'anki_text', text: ankiText } });
    expect(preview).toEqual({
      status: 200,
      body: {
        name: 'Spanish',
        description: null,
        points: [
          { content: 'hello', context: 'hola' },
          { content: 'good bye', context: 'adiós' },
          { content: 'thank you', context: 'gracias' },
        ],
        skipped: [
          { where: 'line 8', reason: 'duplicate', text: 'Hello' },
          { where: 'line 9', reason: 'empty_after_html', text: '<br> <div></div> ' },
        ],
      },
    });
    expect((await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token })).body.recallSets).toEqual([]);

    const created = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import/file', { token, body: { format: 'anki_text', text: ankiText, name: 'Spanish basics' } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Spanish basics');
    expect(created.body.points.map((point) => [point.content, point.context])).toEqual([
      ['hello', 'hola'],
      ['good bye', 'adiós'],
      ['thank you', 'gracias'],
    ]);
  });

  it('refuses text with nothing to import, naming why, and creates nothing', async () => {
    const response = await server.api('POST', '/api/recall-sets/import/file', { token, body: { format: 'anki_text', text: '#separator:tab\n<br>\t\n' } });
    expect(response).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'Anki text import: no notes to import (1 rows skipped).' } } });
    expect((await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token })).body.recallSets).toEqual([]);
  });
});

describe('.apkg import', () => {
  it('reads the notes of a package: two-field notes, cloze notes, the deck as the name; media ignored', async () => {
    const data = apkg({
      'collection.anki2': collection(
        [
          { fields: ['Capital of <b>Peru</b>?', 'Lima'], model: 1, deck: 7 },
          { fields: ['{{c1::Quito}} is the capital of Ecuador', 'extra'], model: 2, deck: 7 },
          { fields: ['Capital of Peru?', 'Lima'], model: 1, deck: 7 },
        ],
        basicAndCloze,
        geographyDecks,
      ),
      '0': new Uint8Array([1, 2, 3]),
    });
    const preview = await server.api<ImportPreview>('POST', '/api/recall-sets/import/preview', { token, body: { format: 'apkg', data } });
    expect(preview).toEqual({
      status: 200,
      body: {
        name: 'Capitals',
        description: null,
        points: [{ content: 'Lima', context: 'Capital of Peru?' }, { content: 'Quito is the capital of Ecuador' }],
        skipped: [{ where: 'note 3', reason: 'duplicate', text: 'Lima' }],
      },
    });
    const created = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import/file', { token, body: { format: 'apkg', data } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Capitals', pointCount: 2 });
  });

  it('prefers the newer collection over the legacy one a newer Anki writes beside it', async () => {
    const data = apkg({
      'collection.anki2': collection([{ fields: ['Please update to the latest Anki version, then import the .colpkg/.apkg file again.', ''], model: 1, deck: 1 }], basicAndCloze, geographyDecks),
      'collection.anki21': collection([{ fields: ['Capital of Chile?', 'Santiago'], model: 1, deck: 7 }], basicAndCloze, geographyDecks),
    });
    const preview = await server.api<ImportPreview>('POST', '/api/recall-sets/import/preview', { token, body: { format: 'apkg', data } });
    expect(preview.body.points).toEqual([{ content: 'Santiago', context: 'Capital of Chile?' }]);
  });

  it('refuses what is not a package with a clear message', async () => {
    const notZip = await server.api('POST', '/api/recall-sets/import/preview', { token, body: { format: 'apkg', data: Buffer.from('hello').toString('base64') } });
    expect(notZip).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'data: this is not an .apkg file (not a zip archive).' } } });
    const noCollection = await server.api('POST', '/api/recall-sets/import/preview', { token, body: { format: 'apkg', data: apkg({}) } });
    expect(noCollection.body).toEqual({ error: { code: 'invalid_payload', message: 'data: no Anki collection in this archive (expected collection.anki21b, .anki21 or .anki2).' } });
    const notBase64 = await server.api('POST', '/api/recall-sets/import/preview', { token, body: { format: 'apkg', data: 'not base64!' } });
    expect(notBase64.body).toEqual({ error: { code: 'invalid_payload', message: 'data: data must be the file in base64' } });
  });
});

describe('export', () => {
  it('writes a set as CSV and as Anki text, each of which imports back to the same points', async () => {
    const set = await server.api<RecallSetDetail>('POST', '/api/recall-sets', {
      token,
      body: { name: 'Cells, "basics"', points: [{ content: 'Mitochondria make ATP', context: 'energy, mostly' }, { content: 'Ribosomes build proteins' }] },
    });
    const csv = await fetch(`${server.url}/api/recall-sets/${set.body.id}/export?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="Cells-basics.csv"; filename*=UTF-8''Cells-basics.csv`);
    const csvText = await csv.text();
    expect(csvText).toBe('content,context,due,stability,difficulty,reps,lapses\r\nMitochondria make ATP,"energy, mostly",,,,,\r\nRibosomes build proteins,,,,,,\r\n');

    const anki = await fetch(`${server.url}/api/recall-sets/${set.body.id}/export?format=anki`, { headers: { authorization: `Bearer ${token}` } });
    const ankiExport = await anki.text();
    expect(ankiExport).toBe('#separator:tab\n#html:false\n#notetype:Basic\n#columns:Front\tBack\n#deck:Cells, "basics"\nenergy, mostly\tMitochondria make ATP\nRibosomes build proteins\t\n');

    for (const body of [{ format: 'csv', text: csvText }, { format: 'anki_text', text: ankiExport }]) {
      const preview = await server.api<ImportPreview>('POST', '/api/recall-sets/import/preview', { token, body });
      expect(preview.body.points).toEqual([{ content: 'Mitochondria make ATP', context: 'energy, mostly' }, { content: 'Ribosomes build proteins' }]);
    }
  });

  it('exports only the learner’s own sets and names the formats', async () => {
    const set = await server.createSet(token, ['a point'], 'Mine');
    const stranger = await server.register();
    expect((await server.api('GET', `/api/recall-sets/${set.id}/export?format=csv`, { token: stranger.token })).status).toBe(404);
    expect(await server.api('GET', `/api/recall-sets/${set.id}/export?format=pdf`, { token })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_payload', message: 'format: expected "csv" or "anki"' } },
    });
  });
});

describe('CSV export with the schedule (issue 25)', () => {
  it('writes each reviewed point’s due date, stability, difficulty, reps and lapses, and still imports back to the same points', async () => {
    const set = await server.createSet(token, ['Mitochondria make ATP through cellular respiration', 'Ribosomes build proteins from amino acids']);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'Mitochondria make ATP through cellular respiration' } });
    await client.waitFor('state_update', { from, where: (event) => event.payload.state.recalledCount === 1 });
    client.close();

    const response = await fetch(`${server.url}/api/recall-sets/${set.id}/export?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    const [header, reviewed, unreviewed] = (await response.text()).split('\r\n');
    expect(header).toBe('content,context,due,stability,difficulty,reps,lapses');
    expect(reviewed).toMatch(/^Mitochondria make ATP through cellular respiration,,\d{4}-\d{2}-\d{2}T[\d:.]+Z,\d+(\.\d+)?,\d+(\.\d+)?,1,0$/);
    expect(unreviewed).toBe('Ribosomes build proteins from amino acids,,,,,,');
    const preview = await server.api<ImportPreview>('POST', '/api/recall-sets/import/preview', { token, body: { format: 'csv', text: [header, reviewed, unreviewed, ''].join('\r\n') } });
    expect(preview.body.points).toEqual([{ content: 'Mitochondria make ATP through cellular respiration' }, { content: 'Ribosomes build proteins from amino acids' }]);
  });
});
