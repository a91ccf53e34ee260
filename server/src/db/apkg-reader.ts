/**
 * Reads the notes out of an Anki package (`.apkg`): a zip (fflate) holding the collection as
 * SQLite — `collection.anki21b` (zstd-compressed, fzstd; schema 18: `notetypes`, `fields`,
 * `decks` tables), else `collection.anki21` / `collection.anki2` (schema 11: note types and
 * decks as JSON in `col`). Newer Anki writes all of them, the older ones holding only a note
 * asking to update, so the newest wins. The collection is opened read-only with
 * better-sqlite3 from a temporary file that is removed at once (so it lives in db/, the one
 * folder that opens SQLite). Media are not read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import type { AnkiNote } from '../core/recall-sets/import-anki';
import type { ApkgReader } from '../services/set-transfer';

const collectionNames = ['collection.anki21b', 'collection.anki21', 'collection.anki2'] as const;
/** Largest collection accepted once unpacked: a deck of text notes is far smaller. */
const collectionMaxBytes = 64 * 1024 * 1024;
const zipMagic = [0x50, 0x4b, 0x03, 0x04];

type Outcome = Awaited<ReturnType<ApkgReader>>;

export const readApkg: ApkgReader = async (bytes) => {
  if (bytes.length < 4 || zipMagic.some((byte, index) => bytes[index] !== byte)) return { ok: false, error: 'this is not an .apkg file (not a zip archive).' };
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => (collectionNames as readonly string[]).includes(file.name) && file.originalSize <= collectionMaxBytes,
    });
  } catch (error) {
    return { ok: false, error: `the archive could not be read (${(error as Error).message}).` };
  }
  const name = collectionNames.find((candidate) => entries[candidate]);
  if (!name) return { ok: false, error: 'no Anki collection in this archive (expected collection.anki21b, .anki21 or .anki2).' };
  let collection = entries[name]!;
  if (name === 'collection.anki21b') {
    try {
      collection = zstdDecompress(collection);
    } catch (error) {
      return { ok: false, error: `the collection could not be decompressed (${(error as Error).message}).` };
    }
    if (collection.length > collectionMaxBytes) return { ok: false, error: 'the collection is too large.' };
  }
  return readCollection(collection);
};

function readCollection(collection: Uint8Array): Outcome {
  const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-apkg-'));
  const file = path.join(folder, 'collection.sqlite');
  let database: Database.Database | null = null;
  try {
    writeFileSync(file, collection);
    database = new Database(file, { readonly: true, fileMustExist: true });
    const tables = new Set((database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((row) => row.name));
    if (!tables.has('notes')) return { ok: false, error: 'the collection has no notes table.' };
    return { ok: true, value: tables.has('notetypes') ? readSchema18(database) : readSchema11(database) };
  } catch (error) {
    return { ok: false, error: `the collection could not be read (${(error as Error).message}).` };
  } finally {
    database?.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

interface NoteRow {
  mid: number | bigint;
  flds: string;
  did: number | bigint | null;
}

const notesQuery = 'SELECT n.mid AS mid, n.flds AS flds, (SELECT c.did FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1) AS did FROM notes n ORDER BY n.id';

/** Schema 11: note types and decks are JSON objects in the one row of `col`. */
function readSchema11(database: Database.Database): AnkiNote[] {
  const col = database.prepare('SELECT models, decks FROM col LIMIT 1').get() as { models: string; decks: string } | undefined;
  const models = parseJson<Record<string, { type?: number }>>(col?.models);
  const decks = parseJson<Record<string, { name?: string }>>(col?.decks);
  return (database.prepare(notesQuery).all() as NoteRow[]).map((row) => ({
    fields: row.flds.split('\x1f'),
    cloze: models[String(row.mid)]?.type === 1,
    deck: row.did === null ? null : (decks[String(row.did)]?.name ?? null),
  }));
}

/** Schema 18: `notetypes` and `decks` tables; a deck's path is joined by \x1f. */
function readSchema18(database: Database.Database): AnkiNote[] {
  const decks = new Map((database.prepare('SELECT id, name FROM decks').all() as Array<{ id: number | bigint; name: string }>).map((row) => [String(row.id), row.name.split('\x1f').join('::')]));
  return (database.prepare(notesQuery).all() as NoteRow[]).map((row) => ({
    fields: row.flds.split('\x1f'),
    // The note type's kind sits in a protobuf blob; cloze markup in the first field tells as well.
    deck: row.did === null ? null : (decks.get(String(row.did)) ?? null),
  }));
}

function parseJson<T extends object>(text: string | undefined): T {
  try {
    const value = JSON.parse(text ?? '{}') as unknown;
    return (typeof value === 'object' && value !== null ? value : {}) as T;
  } catch {
    return {} as T;
  }
}
