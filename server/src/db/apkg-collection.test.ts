/**
 * Reading an Anki collection's notes with every query bounded (SPEC §8: databases from learners
 * are read with views and triggers refused): both schemas Anki writes, and collections that
 * carry what Anki never writes — views, triggers, virtual tables, computed columns — or more
 * than the limits, refused in plain words before or while reading.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAndCloze, geographyDecks, schema11Collection, schema18Collection, sqliteBytes } from '../../test/helpers/apkg-bytes';
import { collectionLimits, readCollection, type CollectionLimits } from './apkg-collection';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'apkg-collection-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function read(bytes: Uint8Array, limits?: Partial<CollectionLimits>) {
  const file = path.join(folder, `collection-${Math.random().toString(36).slice(2)}.sqlite`);
  writeFileSync(file, bytes);
  return readCollection(file, { ...collectionLimits, ...limits });
}

const capitals = [
  { fields: ['Capital of <b>Peru</b>?', 'Lima'], model: 1, deck: 7 },
  { fields: ['{{c1::Quito}} is the capital of Ecuador', 'extra'], model: 2, deck: 7 },
  { fields: ['Capital of Chile?', 'Santiago'], model: 1, deck: 1 },
];

/** A schema-11 collection with `statements` run on it afterwards. */
function tampered(statements: string): Uint8Array {
  return schema11Collection(capitals, basicAndCloze, geographyDecks, statements);
}

describe('readCollection', () => {
  it('reads schema 11: fields, cloze from the note type, the deck of each note’s first card', () => {
    expect(read(schema11Collection(capitals, basicAndCloze, geographyDecks))).toEqual({
      ok: true,
      value: [
        { fields: ['Capital of <b>Peru</b>?', 'Lima'], cloze: false, deck: 'Geography::Capitals' },
        { fields: ['{{c1::Quito}} is the capital of Ecuador', 'extra'], cloze: true, deck: 'Geography::Capitals' },
        { fields: ['Capital of Chile?', 'Santiago'], cloze: false, deck: 'Default' },
      ],
    });
  });

  it('reads schema 18: decks from their table, their path joined by ::', () => {
    expect(read(schema18Collection(capitals, { 1: 'Default', 7: 'Geography\x1fCapitals' }))).toEqual({
      ok: true,
      value: [
        { fields: ['Capital of <b>Peru</b>?', 'Lima'], deck: 'Geography::Capitals' },
        { fields: ['{{c1::Quito}} is the capital of Ecuador', 'extra'], deck: 'Geography::Capitals' },
        { fields: ['Capital of Chile?', 'Santiago'], deck: 'Default' },
      ],
    });
  });

  it('takes the deck of the lowest-ordered card, and none for a note without cards', () => {
    const collection = tampered(`
      UPDATE cards SET ord = 1 WHERE nid = 1000;
      INSERT INTO cards (id, nid, did, ord) VALUES (9, 1000, 1, 0);
      DELETE FROM cards WHERE nid = 1002;
    `);
    const result = read(collection);
    expect(result.ok && result.value.map((note) => note.deck)).toEqual(['Default', 'Geography::Capitals', null]);
  });

  it('refuses a view or a trigger anywhere in the schema, before querying', () => {
    const refusal = { ok: false, error: 'the collection contains views or triggers, which an Anki collection never has.' };
    expect(read(tampered('CREATE VIEW recent AS SELECT * FROM notes;'))).toEqual(refusal);
    expect(read(tampered('CREATE TRIGGER keep AFTER DELETE ON notes BEGIN SELECT 1; END;'))).toEqual(refusal);
    // SQLite's names ignore case: a view named CARDS would answer for cards.
    const renamed = sqliteBytes((database) => {
      database.exec("CREATE TABLE notes (id integer primary key, mid integer, flds text); CREATE VIEW CARDS AS SELECT 1 AS nid, 1 AS did, 0 AS ord;");
    });
    expect(read(renamed)).toEqual(refusal);
  });

  it('refuses a virtual table or a computed column where a table is read', () => {
    const virtual = sqliteBytes((database) => database.exec('CREATE VIRTUAL TABLE Notes USING fts5(id, mid, flds);'));
    expect(read(virtual)).toEqual({ ok: false, error: "the collection's notes is not a plain table." });
    const generated = sqliteBytes((database) =>
      database.exec("CREATE TABLE notes (id integer primary key, mid integer, raw text, flds text GENERATED ALWAYS AS (raw || raw) VIRTUAL); INSERT INTO notes VALUES (1, 1, 'a');"),
    );
    expect(read(generated)).toEqual({ ok: false, error: "the collection's notes table has computed columns, which an Anki collection never has." });
  });

  it('refuses more notes, cards, fields or text than the limits allow', () => {
    const collection = schema11Collection(capitals, basicAndCloze, geographyDecks);
    expect(read(collection, { maxNotes: 2 })).toEqual({ ok: false, error: 'the collection has more than 2 notes; export a smaller deck from Anki.' });
    expect(read(collection, { maxCards: 2 })).toEqual({ ok: false, error: 'the collection has more than 2 cards.' });
    expect(read(collection, { maxFieldsPerNote: 1 })).toEqual({ ok: false, error: 'a note has more than 1 fields.' });
    expect(read(collection, { maxTextBytes: 40 })).toEqual({ ok: false, error: 'the notes hold more than 40 bytes of text.' });
    expect(read(collection, { maxColumnJsonBytes: 10 })).toEqual({ ok: false, error: "the collection's note types or decks are larger than 10 bytes." });
    expect(read(collection, { maxNotes: 3, maxCards: 3, maxFieldsPerNote: 2 }).ok).toBe(true);
  });

  it('refuses a collection without notes, and a file that is not SQLite', () => {
    expect(read(sqliteBytes((database) => database.exec('CREATE TABLE cards (nid, did, ord);')))).toEqual({ ok: false, error: 'the collection has no notes table.' });
    expect(read(new TextEncoder().encode('not a database at all, just some text that is long enough to be a header'))).toEqual({
      ok: false,
      error: 'the collection could not be read (file is not a database).',
    });
  });
});
