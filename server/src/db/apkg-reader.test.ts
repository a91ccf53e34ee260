/**
 * The `.apkg` reader's worker threads (SPEC §8: archives from learners are read in a worker
 * with a time and memory budget): a package read there, a read past its deadline or its heap
 * stopped and answered in plain words, the folder it unpacked into removed either way, and a
 * burst of imports past the queue answered as busy.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAndCloze, deflated, geographyDecks, schema11Collection, writeZip } from '../../test/helpers/apkg-bytes';
import { createApkgReader } from './apkg-reader';

let temporaryDirectory: string;
beforeEach(() => {
  temporaryDirectory = mkdtempSync(path.join(tmpdir(), 'apkg-reader-'));
});
afterEach(() => rmSync(temporaryDirectory, { recursive: true, force: true }));

const capitals = writeZip([deflated('collection.anki21', schema11Collection([{ fields: ['Capital of Peru?', 'Lima'], model: 1, deck: 7 }], basicAndCloze, geographyDecks))]);
const capitalsNotes = [{ fields: ['Capital of Peru?', 'Lima'], cloze: false, deck: 'Geography::Capitals' }];

describe('createApkgReader', () => {
  it('reads a package in a worker thread and leaves nothing unpacked behind', async () => {
    const read = createApkgReader({ temporaryDirectory });
    expect(await read(capitals)).toEqual({ ok: true, value: capitalsNotes });
    expect(readdirSync(temporaryDirectory)).toEqual([]);
  });

  it('answers at once for a file that is not a zip archive', async () => {
    expect(await createApkgReader({ temporaryDirectory })(new TextEncoder().encode('hello'))).toEqual({ ok: false, error: 'this is not an .apkg file (not a zip archive).' });
  });

  it('stops a read that passes its deadline, and removes what it had unpacked', async () => {
    // 64 MB to inflate, checksum and write: hundreds of milliseconds of work against a 10 ms deadline.
    const large = writeZip([deflated('collection.anki2', new Uint8Array(64 * 1024 * 1024))]);
    const read = createApkgReader({ temporaryDirectory, deadlineMs: 10 });
    expect(await read(large)).toEqual({ ok: false, error: 'reading the package took longer than 10 ms, so it was stopped.' });
    expect(readdirSync(temporaryDirectory)).toEqual([]);
  });

  it('stops a read that runs out of heap, and still reads a small package with the same limit', async () => {
    // A million short fields are a million strings: far more than 16 MB of heap.
    const notes = Array.from({ length: 10_000 }, (_, index) => ({ fields: Array.from({ length: 100 }, (_, field) => `${field}.${index % 100}`), model: 1, deck: 7 }));
    const crowded = writeZip([deflated('collection.anki21', schema11Collection(notes, basicAndCloze, geographyDecks))]);
    const read = createApkgReader({ temporaryDirectory, maxOldGenerationSizeMb: 16 });
    expect(await read(crowded)).toEqual({ ok: false, error: 'reading the package needs more memory than the server allows.' });
    expect(readdirSync(temporaryDirectory)).toEqual([]);
    expect(await read(capitals)).toEqual({ ok: true, value: capitalsNotes });
  });

  it('answers that it is busy when every turn is taken and the queue is full', async () => {
    const read = createApkgReader({ temporaryDirectory, concurrency: 1, maxWaiting: 1 });
    const results = await Promise.all([read(capitals), read(capitals), read(capitals)]);
    expect(results).toEqual([
      { ok: true, value: capitalsNotes },
      { ok: true, value: capitalsNotes },
      { ok: false, error: 'the server is busy reading other packages; try again in a minute.' },
    ]);
  });
});
