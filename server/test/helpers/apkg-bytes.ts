/**
 * Anki packages written byte by byte for tests: zip archives whose headers can lie (declared
 * sizes, one entry listed several times in the central directory), zstd frames (raw and RLE
 * blocks — fzstd only decompresses, and these two block types need no entropy coder), DEFLATE
 * streams of zeros of any length built without inflating them first, and SQLite collections in
 * both schemas Anki writes.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { crc32 } from '../../src/db/crc32';

/** One entry's local header and data, as stored in the archive. */
export interface LocalEntry {
  name: string;
  /** The bytes as stored: compressed when `method` is 8. */
  data: Uint8Array;
  method: 0 | 8;
  crc: number;
  /** The uncompressed size the headers declare (true or not). */
  size: number;
}

export function stored(name: string, bytes: Uint8Array): LocalEntry {
  return { name, data: bytes, method: 0, crc: crc32(bytes), size: bytes.length };
}

export function deflated(name: string, bytes: Uint8Array): LocalEntry {
  return { name, data: new Uint8Array(deflateRawSync(bytes)), method: 8, crc: crc32(bytes), size: bytes.length };
}

/**
 * A zip archive: every local entry, then the central directory. By default each entry is
 * listed once under its own name; `listings` can list an entry several times, under any name.
 */
export function writeZip(locals: readonly LocalEntry[], listings?: ReadonlyArray<{ local: number; name?: string }>): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of locals) {
    const name = encoder.encode(entry.name);
    const header = new DataView(new ArrayBuffer(30));
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(8, entry.method, true);
    header.setUint32(14, entry.crc, true);
    header.setUint32(18, entry.data.length, true);
    header.setUint32(22, entry.size, true);
    header.setUint16(26, name.length, true);
    offsets.push(offset);
    parts.push(new Uint8Array(header.buffer), name, entry.data);
    offset += 30 + name.length + entry.data.length;
  }
  const directoryStart = offset;
  const listed: ReadonlyArray<{ local: number; name?: string }> = listings ?? locals.map((_, index) => ({ local: index }));
  for (const listing of listed) {
    const entry = locals[listing.local]!;
    const name = encoder.encode(listing.name ?? entry.name);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(10, entry.method, true);
    header.setUint32(16, entry.crc, true);
    header.setUint32(20, entry.data.length, true);
    header.setUint32(24, entry.size, true);
    header.setUint16(28, name.length, true);
    header.setUint32(42, offsets[listing.local]!, true);
    parts.push(new Uint8Array(header.buffer), name);
    offset += 46 + name.length;
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, listed.length, true);
  end.setUint16(10, listed.length, true);
  end.setUint32(12, offset - directoryStart, true);
  end.setUint32(16, directoryStart, true);
  parts.push(new Uint8Array(end.buffer));
  return Buffer.concat(parts);
}

/**
 * Raw DEFLATE for `mebibytes` MiB of zeros, about 1 KB per MiB, one continuous stream as zlib
 * writes it (no stored blocks), fed a MiB at a time so the output is never held (~1.6 s for 500).
 */
export async function zerosDeflated(mebibytes: number): Promise<Uint8Array> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < mebibytes; written += 1) if (!deflate.write(zeros)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(chunks);
}

const zstdMagic = [0x28, 0xb5, 0x2f, 0xfd];
const zstdBlockMax = 128 * 1024;

function zstdBlockHeader(size: number, type: 0 | 1, last: boolean): number[] {
  const value = size * 8 + type * 2 + (last ? 1 : 0);
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
}

/** Window descriptor byte for a window of 2^log bytes (log 10–41). */
function windowDescriptor(log: number): number {
  return (log - 10) << 3;
}

/** A valid zstd frame holding `data` in raw (stored) blocks. */
export function zstdRaw(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [new Uint8Array([...zstdMagic, 0x00, windowDescriptor(17)])];
  let start = 0;
  do {
    const chunk = data.subarray(start, start + zstdBlockMax);
    start += zstdBlockMax;
    parts.push(new Uint8Array(zstdBlockHeader(chunk.length, 0, start >= data.length)), chunk);
  } while (start < data.length);
  return Buffer.concat(parts);
}

/**
 * A zstd frame of `totalBytes` copies of one byte in RLE blocks of 128 KiB: 4 bytes of input
 * per 128 KiB of output. `windowLog` sets the window the frame header declares.
 */
export function zstdRle(totalBytes: number, options: { windowLog?: number; byte?: number } = {}): Uint8Array {
  const blocks = Math.ceil(totalBytes / zstdBlockMax);
  const bytes = new Uint8Array(6 + blocks * 4);
  bytes.set([...zstdMagic, 0x00, windowDescriptor(options.windowLog ?? 17)]);
  for (let block = 0; block < blocks; block += 1) {
    const size = Math.min(zstdBlockMax, totalBytes - block * zstdBlockMax);
    bytes.set([...zstdBlockHeader(size, 1, block === blocks - 1), options.byte ?? 0], 6 + block * 4);
  }
  return bytes;
}

export interface CollectionNote {
  fields: string[];
  model: number;
  deck: number;
}

/** Writes a SQLite file with `build`, returns its bytes and removes it. */
export function sqliteBytes(build: (database: Database.Database) => void): Uint8Array {
  const folder = mkdtempSync(path.join(tmpdir(), 'apkg-fixture-'));
  const file = path.join(folder, 'collection.sqlite');
  try {
    const database = new Database(file);
    build(database);
    database.close();
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const schema11Tables = `
  CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
  CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);
  CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer, due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
  CREATE INDEX ix_cards_nid ON cards (nid);
`;

function insertNotes(database: Database.Database, notes: readonly CollectionNote[]): void {
  const insertNote = database.prepare("INSERT INTO notes VALUES (?, ?, ?, 0, 0, '', ?, '', 0, 0, '')");
  const insertCard = database.prepare("INSERT INTO cards VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  database.transaction(() => {
    for (const [index, note] of notes.entries()) {
      insertNote.run(1000 + index, `guid${index}`, note.model, note.fields.join('\x1f'));
      insertCard.run(500_000 + index, 1000 + index, note.deck);
    }
  })();
}

/** A schema-11 collection (`collection.anki2` / `.anki21`): note types and decks as JSON in `col`. */
export function schema11Collection(notes: readonly CollectionNote[], models: Record<string, unknown>, decks: Record<string, unknown>, extra = ''): Uint8Array {
  return sqliteBytes((database) => {
    database.exec(schema11Tables);
    database.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(JSON.stringify(models), JSON.stringify(decks));
    insertNotes(database, notes);
    if (extra) database.exec(extra);
  });
}

/** A schema-18 collection (`collection.anki21b` once zstd-compressed): `notetypes` and `decks` tables. */
export function schema18Collection(notes: readonly CollectionNote[], decks: Record<number, string>): Uint8Array {
  return sqliteBytes((database) => {
    database.exec(schema11Tables);
    database.exec('CREATE TABLE notetypes (id integer primary key, name text, mtime_secs integer, usn integer, config blob); CREATE TABLE decks (id integer primary key, name text, mtime_secs integer, usn integer, common blob, kind blob);');
    database.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 18, 0, 0, 0, '', '', '', '', '')").run();
    for (const [id, name] of Object.entries(decks)) database.prepare("INSERT INTO decks VALUES (?, ?, 0, 0, x'', x'')").run(Number(id), name);
    insertNotes(database, notes);
  });
}

export const basicAndCloze = { '1': { name: 'Basic', type: 0 }, '2': { name: 'Cloze', type: 1 } };
export const geographyDecks = { '1': { name: 'Default' }, '7': { name: 'Geography::Capitals' } };

/** Base64 of an archive, as the import route takes it. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}
