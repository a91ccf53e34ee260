/**
 * A package unpacked and read in this thread (what the reader's worker runs): the newest
 * collection wins, `collection.anki21b` is zstd-decompressed, and nothing is unpacked past the
 * size the archive declares, past the collection cap, or with a wrong checksum (SPEC §8).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAndCloze, deflated, geographyDecks, schema11Collection, schema18Collection, stored, writeZip, zerosDeflated, zstdRaw, zstdRle } from '../../test/helpers/apkg-bytes';
import { collectionMaxBytes, readPackage, unpackCollection } from './apkg-package';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'apkg-package-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const peru = [{ fields: ['Capital of Peru?', 'Lima'], model: 1, deck: 7 }];
const chile = [{ fields: ['Capital of Chile?', 'Santiago'], model: 1, deck: 7 }];
const update = [{ fields: ['Please update to the latest Anki version, then import the .colpkg/.apkg file again.', ''], model: 1, deck: 1 }];

describe('readPackage', () => {
  it('reads the newest collection: zstd-compressed schema 18 over the legacy ones beside it', () => {
    const archive = writeZip([
      deflated('collection.anki2', schema11Collection(update, basicAndCloze, geographyDecks)),
      stored('collection.anki21b', zstdRaw(schema18Collection(peru, { 7: 'Geography\x1fCapitals' }))),
      deflated('collection.anki21', schema11Collection(chile, basicAndCloze, geographyDecks)),
      stored('media', new TextEncoder().encode('{}')),
    ]);
    expect(readPackage(archive, folder)).toEqual({ ok: true, value: [{ fields: ['Capital of Peru?', 'Lima'], deck: 'Geography::Capitals' }] });
  });

  it('reads a DEFLATE-compressed zstd collection', () => {
    const archive = writeZip([deflated('collection.anki21b', zstdRaw(schema18Collection(chile, { 7: 'Capitals' })))]);
    expect(readPackage(archive, folder)).toEqual({ ok: true, value: [{ fields: ['Capital of Chile?', 'Santiago'], deck: 'Capitals' }] });
  });

  it('refuses an archive without a collection, an encrypted one, and one compressed in a way Anki never uses', () => {
    expect(readPackage(writeZip([stored('media', new Uint8Array([123, 125]))]), folder)).toEqual({
      ok: false,
      error: 'no Anki collection in this archive (expected collection.anki21b, .anki21 or .anki2).',
    });
    const collection = stored('collection.anki21', schema11Collection(chile, basicAndCloze, geographyDecks));
    const encrypted = writeZip([collection]);
    const view = new DataView(encrypted.buffer, encrypted.byteOffset, encrypted.byteLength);
    const directoryStart = view.getUint32(encrypted.length - 6, true);
    view.setUint16(directoryStart + 8, 1, true);
    expect(unpackCollection(encrypted, path.join(folder, 'a'))).toEqual({ ok: false, error: 'collection.anki21 is encrypted.' });
    view.setUint16(directoryStart + 8, 0, true);
    view.setUint16(directoryStart + 10, 12, true);
    expect(unpackCollection(encrypted, path.join(folder, 'b'))).toEqual({ ok: false, error: 'collection.anki21 is compressed in a way Anki does not use (method 12).' });
  });

  it('refuses a collection whose bytes fail their checksum or are fewer than declared', () => {
    const collection = schema11Collection(chile, basicAndCloze, geographyDecks);
    const wrongChecksum = writeZip([{ ...deflated('collection.anki21', collection), crc: 12345 }]);
    expect(readPackage(wrongChecksum, folder)).toEqual({ ok: false, error: 'the archive is damaged: collection.anki21 fails its checksum.' });
    const short = writeZip([{ ...deflated('collection.anki21', collection), size: collection.length + 1 }]);
    expect(unpackCollection(short, path.join(folder, 'short'))).toEqual({
      ok: false,
      error: `the archive is damaged: collection.anki21 unpacks to ${collection.length} bytes, not the ${collection.length + 1} its header declares.`,
    });
  });

  it('refuses a collection declared larger than the cap without unpacking it', async () => {
    const bomb = { ...deflated('collection.anki2', new Uint8Array(0)), data: await zerosDeflated(100), size: 100 * 1024 * 1024 };
    const file = path.join(folder, 'collection.sqlite');
    expect(unpackCollection(writeZip([bomb]), file)).toEqual({ ok: false, error: 'the collection is larger than 64 MB once unpacked.' });
    expect(() => statSync(file)).toThrow();
  });

  it('stops writing a zstd collection within one block past the cap, whatever the archive declares', () => {
    const frame = zstdRle(512 * 1024 * 1024);
    const file = path.join(folder, 'collection.sqlite');
    expect(unpackCollection(writeZip([stored('collection.anki21b', frame)]), file)).toEqual({ ok: false, error: 'the collection is larger than 64 MB once unpacked.' });
    expect(statSync(file).size).toBe(collectionMaxBytes);
  });
});
