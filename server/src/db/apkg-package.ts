/**
 * An Anki package (`.apkg`) read in the reader's worker thread (apkg-worker.mjs): its central
 * directory is checked (zip-directory.ts), the newest collection in it is unpacked piece by
 * piece into a file in the folder the host made for this read — inflated, then for
 * `collection.anki21b` zstd-decompressed — counting every byte against the size the archive
 * declares and against the collection cap, and stopping at the first byte past either; its
 * CRC-32 is checked; then the file is read as SQLite (apkg-collection.ts). Newer Anki writes all
 * three collections, the older ones holding only a note asking to update, so the newest wins.
 * Media are not read.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { type CollectionResult, readCollection } from './apkg-collection';
import { inflatePieces, zstdPieces, type ZstdLimits } from './bounded-decompression';
import { crc32 } from './crc32';
import { Refusal, refused, sizeInWords } from './refusal';
import { readZipDirectory, type ZipEntry } from './zip-directory';

export const collectionNames = ['collection.anki21b', 'collection.anki21', 'collection.anki2'] as const;

/** Largest collection accepted once unpacked: a deck of text notes is far smaller. */
export const collectionMaxBytes = 64 * 1024 * 1024;

const zstdLimits: ZstdLimits = { maxWindowBytes: collectionMaxBytes, maxTotalWindowBytes: 2 * collectionMaxBytes, maxContentBytes: collectionMaxBytes, maxFrames: 1000 };
/** Stored entries are handed on in pieces of this size, like inflated ones. */
const storedPieceBytes = 64 * 1024;

export type UnpackResult = { ok: true } | { ok: false; error: string };

/** The notes of the package `bytes`; `folder` is empty and removed by the caller afterwards. */
export function readPackage(bytes: Uint8Array, folder: string): CollectionResult {
  const file = path.join(folder, 'collection.sqlite');
  const unpacked = unpackCollection(bytes, file);
  return unpacked.ok ? readCollection(file) : unpacked;
}

/** Writes the package's newest collection, unpacked, to `file` (which must not exist yet). */
export function unpackCollection(bytes: Uint8Array, file: string): UnpackResult {
  const directory = readZipDirectory(bytes);
  if (!directory.ok) return directory;
  const entry = collectionNames.map((name) => directory.value.find((candidate) => candidate.name === name)).find((found) => found !== undefined);
  if (!entry) return { ok: false, error: 'no Anki collection in this archive (expected collection.anki21b, .anki21 or .anki2).' };
  if (entry.flags & 0x0001) return { ok: false, error: `${entry.name} is encrypted.` };
  if (entry.method !== 0 && entry.method !== 8) return { ok: false, error: `${entry.name} is compressed in a way Anki does not use (method ${entry.method}).` };
  // Refused before any work when the archive itself says so; otherwise counted while unpacking.
  if (entry.size > collectionMaxBytes) return { ok: false, error: `the collection is larger than ${sizeInWords(collectionMaxBytes)} once unpacked.` };
  if (entry.method === 0 && entry.size !== entry.compressedSize) return { ok: false, error: `the archive is damaged: ${entry.name} declares two sizes.` };

  const descriptor = openSync(file, 'wx');
  try {
    let written = 0;
    const write = (piece: Uint8Array) => {
      written += piece.length;
      if (written > collectionMaxBytes) throw new Refusal(`the collection is larger than ${sizeInWords(collectionMaxBytes)} once unpacked.`);
      for (let offset = 0; offset < piece.length; ) offset += writeSync(descriptor, piece, offset);
    };
    const collection = entry.name === 'collection.anki21b' ? zstdPieces(zstdLimits, write) : { push: write, finish: () => {} };
    const checked = checkedAgainst(entry, collection.push);
    const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
    if (entry.method === 8) inflatePieces(data, checked.push, entry.name);
    else for (let start = 0; start < data.length; start += storedPieceBytes) checked.push(data.subarray(start, start + storedPieceBytes));
    checked.finish();
    collection.finish();
    return { ok: true };
  } catch (error) {
    return refused(error);
  } finally {
    closeSync(descriptor);
  }
}

/** Passes an entry's unpacked bytes on while they stay within its declared size; at the end, size and CRC-32 must match. */
function checkedAgainst(entry: ZipEntry, onPiece: (piece: Uint8Array) => void): { push(piece: Uint8Array): void; finish(): void } {
  let unpacked = 0;
  let crc = 0;
  return {
    push(piece) {
      unpacked += piece.length;
      if (unpacked > entry.size) throw new Refusal(`the archive is damaged: ${entry.name} unpacks to more than the ${entry.size} bytes its header declares.`);
      crc = crc32(piece, crc);
      onPiece(piece);
    },
    finish() {
      if (unpacked !== entry.size) throw new Refusal(`the archive is damaged: ${entry.name} unpacks to ${unpacked} bytes, not the ${entry.size} its header declares.`);
      if (crc !== entry.crc) throw new Refusal(`the archive is damaged: ${entry.name} fails its checksum.`);
    },
  };
}
