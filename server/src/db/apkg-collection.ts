/**
 * The notes of an Anki collection (SQLite, opened read-only from the file the package was
 * unpacked to), read with every query bounded (SPEC §8). A collection is the learner's file,
 * not ours: before anything is queried, views and triggers are refused (a `cards` view with a
 * recursive query once ran for 5 s on the serving thread and answered 200), the tables read
 * must be plain tables without computed columns, and the schema may not run functions
 * (`trusted_schema = OFF`). Rows are iterated and counted, field text is measured in SQL before
 * it becomes a string, and cards are read in one sorted pass rather than one lookup per note
 * (quadratic without Anki's index).
 *
 * Schema 18 (`collection.anki21b`): `notetypes` and `decks` tables; schema 11 (`.anki21`,
 * `.anki2`): note types and decks as JSON in the one row of `col`.
 */
import Database from 'better-sqlite3';
import type { AnkiNote } from '../core/recall-sets/import-anki';
import { Refusal, refused, sizeInWords } from './refusal';

export interface CollectionLimits {
  maxNotes: number;
  maxCards: number;
  maxDecks: number;
  /** Field text and deck names of all notes together, in bytes of UTF-8: all of it crosses back to the serving thread. */
  maxTextBytes: number;
  maxFieldsPerNote: number;
  /** The JSON of note types and of decks in a schema-11 `col` row, each. */
  maxColumnJsonBytes: number;
}

/**
 * The notes cross to the serving thread, where turning them into a preview (HTML stripped,
 * duplicates found) costs ~12 µs a note and ~10 ms a MB of text on an idle core, and five
 * times that on a busy one. A recall set holds at most 500 points, so a deck worth importing
 * is far smaller than these; one past them is refused rather than stalling every learner.
 */
export const collectionLimits: CollectionLimits = {
  maxNotes: 10_000,
  maxCards: 1_000_000,
  maxDecks: 10_000,
  maxTextBytes: 8 * 1024 * 1024,
  maxFieldsPerNote: 1000,
  maxColumnJsonBytes: 8 * 1024 * 1024,
};

export type CollectionResult = { ok: true; value: AnkiNote[] } | { ok: false; error: string };

/** Every table the reader queries, in lower case: SQLite's names are case-insensitive. */
const tablesRead = ['notes', 'cards', 'col', 'notetypes', 'decks'] as const;
type TableRead = (typeof tablesRead)[number];

export function readCollection(file: string, limits: CollectionLimits = collectionLimits): CollectionResult {
  let database: Database.Database | null = null;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true });
    // Functions in the schema (views, triggers, generated columns, virtual tables) may only be
    // innocuous ones; cell checks catch a damaged page before it is read.
    database.pragma('trusted_schema = OFF');
    database.pragma('cell_size_check = ON');
    const tables = checkSchema(database);
    if (!tables.has('notes')) return { ok: false, error: 'the collection has no notes table.' };
    return { ok: true, value: readNotes(database, tables, limits) };
  } catch (error) {
    if (error instanceof Refusal) return refused(error);
    if (error instanceof Database.SqliteError) {
      return { ok: false, error: `the collection could not be read (${error.message}).` };
    }
    throw error;
  } finally {
    database?.close();
  }
}

/** Refuses what an Anki collection never holds; returns which of the tables read are present. */
function checkSchema(database: Database.Database): Set<TableRead> {
  const active = database.prepare("SELECT count(*) AS count FROM sqlite_master WHERE type IN ('view', 'trigger')").get() as { count: number };
  if (active.count > 0) throw new Refusal('the collection contains views or triggers, which an Anki collection never has.');
  const placeholders = tablesRead.map(() => '?').join(', ');
  const rows = database
    .prepare(`SELECT lower(name) AS name, type, sql LIKE 'CREATE VIRTUAL%' AS virtual FROM sqlite_master WHERE lower(name) IN (${placeholders})`)
    .all(...tablesRead) as Array<{ name: TableRead; type: string; virtual: number }>;
  const present = new Set<TableRead>();
  for (const row of rows) {
    if (row.type !== 'table' || row.virtual) throw new Refusal(`the collection's ${row.name} is not a plain table.`);
    // hidden 1: a virtual table's column, 2: a generated column computed on every read.
    const columns = database.pragma(`table_xinfo(${row.name})`) as Array<{ hidden: number }>;
    if (columns.some((column) => column.hidden === 1 || column.hidden === 2)) throw new Refusal(`the collection's ${row.name} table has computed columns, which an Anki collection never has.`);
    present.add(row.name);
  }
  return present;
}

interface NoteRow {
  id: bigint;
  mid: bigint | number | string | null;
  size: bigint | null;
  flds: string | null;
}

function readNotes(database: Database.Database, tables: Set<TableRead>, limits: CollectionLimits): AnkiNote[] {
  const schema18 = tables.has('notetypes');
  const legacy = schema18 ? null : readColumnJson(database, tables, limits);
  const decks = schema18 ? readDeckTable(database, tables, limits) : deckNames(legacy?.decks);
  const models = legacy?.models ?? {};

  let textBytes = 0;
  const spend = (bytes: number) => {
    textBytes += bytes;
    if (textBytes > limits.maxTextBytes) throw new Refusal(`the notes hold more than ${sizeInWords(limits.maxTextBytes)} of text.`);
  };
  const notes = new Map<string, AnkiNote>();
  // The size is measured before the text is read, so an oversized field never becomes a string.
  const noteRows = database
    .prepare(
      'SELECT id, mid, length(CAST(flds AS BLOB)) AS size, CASE WHEN length(CAST(flds AS BLOB)) <= ? THEN CAST(flds AS TEXT) END AS flds FROM notes ORDER BY id LIMIT ?',
    )
    .safeIntegers(true);
  for (const row of noteRows.iterate(limits.maxTextBytes, limits.maxNotes + 1) as IterableIterator<NoteRow>) {
    if (notes.size === limits.maxNotes) throw new Refusal(`the collection has more than ${limits.maxNotes.toLocaleString('en')} notes; export a smaller deck from Anki.`);
    spend(Number(row.size ?? 0));
    const fields = (row.flds ?? '').split('\x1f', limits.maxFieldsPerNote + 1);
    if (fields.length > limits.maxFieldsPerNote) throw new Refusal(`a note has more than ${limits.maxFieldsPerNote.toLocaleString('en')} fields.`);
    // The note type's kind sits in a protobuf blob in schema 18; cloze markup in the first field tells as well.
    notes.set(String(row.id), schema18 ? { fields, deck: null } : { fields, cloze: isCloze(models[String(row.mid)]), deck: null });
  }

  if (tables.has('cards')) {
    // The first card of each note (lowest `ord`) decides its deck.
    const cardRows = database.prepare('SELECT nid, did FROM cards ORDER BY nid, ord LIMIT ?').safeIntegers(true);
    let cards = 0;
    let previous: string | null = null;
    for (const row of cardRows.iterate(limits.maxCards + 1) as IterableIterator<{ nid: unknown; did: unknown }>) {
      cards += 1;
      if (cards > limits.maxCards) throw new Refusal(`the collection has more than ${limits.maxCards.toLocaleString('en')} cards.`);
      const noteId = String(row.nid);
      if (noteId === previous) continue;
      previous = noteId;
      const note = notes.get(noteId);
      const deck = decks.get(String(row.did));
      if (!note || note.deck || deck === undefined) continue;
      spend(Buffer.byteLength(deck));
      note.deck = deck;
    }
  }
  return [...notes.values()];
}

function isCloze(model: unknown): boolean {
  return typeof model === 'object' && model !== null && (model as { type?: unknown }).type === 1;
}

/** Schema 11: note types and decks as JSON objects in the one row of `col`, each size checked before it is read. */
function readColumnJson(database: Database.Database, tables: Set<TableRead>, limits: CollectionLimits): { models: Record<string, unknown>; decks: Record<string, unknown> } {
  if (!tables.has('col')) return { models: {}, decks: {} };
  const sizes = database.prepare('SELECT length(CAST(models AS BLOB)) AS models, length(CAST(decks AS BLOB)) AS decks FROM col LIMIT 1').get() as { models: number | null; decks: number | null } | undefined;
  if (!sizes) return { models: {}, decks: {} };
  if ((sizes.models ?? 0) > limits.maxColumnJsonBytes || (sizes.decks ?? 0) > limits.maxColumnJsonBytes) {
    throw new Refusal(`the collection's note types or decks are larger than ${sizeInWords(limits.maxColumnJsonBytes)}.`);
  }
  const row = database.prepare('SELECT CAST(models AS TEXT) AS models, CAST(decks AS TEXT) AS decks FROM col LIMIT 1').get() as { models: string | null; decks: string | null };
  return { models: parseObject(row.models), decks: parseObject(row.decks) };
}

function deckNames(decks: Record<string, unknown> | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const [id, deck] of Object.entries(decks ?? {})) {
    const name = typeof deck === 'object' && deck !== null ? (deck as { name?: unknown }).name : undefined;
    if (typeof name === 'string') names.set(id, name);
  }
  return names;
}

/** Schema 18: a deck's path is joined by \x1f. */
function readDeckTable(database: Database.Database, tables: Set<TableRead>, limits: CollectionLimits): Map<string, string> {
  const names = new Map<string, string>();
  if (!tables.has('decks')) return names;
  const rows = database
    .prepare('SELECT id, CASE WHEN length(CAST(name AS BLOB)) <= ? THEN CAST(name AS TEXT) END AS name FROM decks LIMIT ?')
    .safeIntegers(true);
  for (const row of rows.iterate(limits.maxTextBytes, limits.maxDecks + 1) as IterableIterator<{ id: unknown; name: string | null }>) {
    if (names.size === limits.maxDecks) throw new Refusal(`the collection has more than ${limits.maxDecks.toLocaleString('en')} decks.`);
    if (row.name !== null) names.set(String(row.id), row.name.split('\x1f').join('::'));
  }
  return names;
}

function parseObject(text: string | null): Record<string, unknown> {
  try {
    const value = JSON.parse(text ?? '{}') as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
