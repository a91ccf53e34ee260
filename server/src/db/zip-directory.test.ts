/**
 * The central directory walk (SPEC §8: archives from learners are not trusted): real archives
 * (fflate's writer) read back entry by entry; archives whose directory lies — a name twice, two
 * names over one entry's data, data running into the directory, a local header elsewhere —
 * refused with the reason in plain words; ZIP64 records read.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { stored, writeZip } from '../../test/helpers/apkg-bytes';
import { crc32 } from './crc32';
import { readZipDirectory } from './zip-directory';

const text = (value: string) => new TextEncoder().encode(value);

describe('readZipDirectory', () => {
  it('lists the entries of an archive written by fflate, with where each one’s data starts', () => {
    const collection = text('SQLite format 3\0'.repeat(100));
    const archive = zipSync({ 'collection.anki2': [collection, { level: 6 }], media: [text('{}'), { level: 0 }] });
    const directory = readZipDirectory(archive);
    if (!directory.ok) throw new Error(directory.error);
    expect(directory.value.map(({ name, method, size, crc, flags }) => ({ name, method, size, crc, flags }))).toEqual([
      { name: 'collection.anki2', method: 8, size: collection.length, crc: crc32(collection), flags: 0 },
      { name: 'media', method: 0, size: 2, crc: crc32(text('{}')), flags: 0 },
    ]);
    const media = directory.value[1]!;
    expect(new TextDecoder().decode(archive.subarray(media.dataOffset, media.dataOffset + media.compressedSize))).toBe('{}');
  });

  it('refuses a name listed twice', () => {
    const archive = writeZip([stored('collection.anki21', text('one'))], [{ local: 0 }, { local: 0 }]);
    expect(readZipDirectory(archive)).toEqual({ ok: false, error: 'the archive lists "collection.anki21" more than once.' });
  });

  it('refuses two names over the same data, whatever order they are listed in', () => {
    const archive = writeZip([stored('collection.anki21', text('one'))], [{ local: 0 }, { local: 0, name: 'collection.anki2' }]);
    expect(readZipDirectory(archive)).toEqual({ ok: false, error: 'the archive is damaged: the local header of "collection.anki2" names another file.' });
    // Listed under the name its local header carries, the second listing still shares the first one's bytes.
    const overlapping = writeZip([stored('collection.anki21', text('one')), stored('media', text('{}'))]);
    const view = new DataView(overlapping.buffer, overlapping.byteOffset, overlapping.byteLength);
    const directoryStart = view.getUint32(overlapping.length - 6, true);
    // Make the first entry's data claim 10 more bytes, over the second entry's header.
    view.setUint32(directoryStart + 20, 13, true);
    view.setUint32(directoryStart + 24, 13, true);
    expect(readZipDirectory(overlapping)).toEqual({ ok: false, error: 'the archive is damaged: "collection.anki21" and "media" share their data.' });
  });

  it('refuses an entry whose declared data runs into the central directory', () => {
    const archive = writeZip([stored('collection.anki2', text('abc'))]);
    const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
    const directoryStart = view.getUint32(archive.length - 6, true);
    view.setUint32(directoryStart + 20, 4000, true);
    expect(readZipDirectory(archive)).toEqual({ ok: false, error: 'the archive is damaged: the data of "collection.anki2" runs into the central directory.' });
  });

  it('refuses a truncated archive and a directory entry pointing past the file', () => {
    const archive = writeZip([stored('collection.anki2', text('abc'))]);
    expect(readZipDirectory(archive.subarray(0, archive.length - 5))).toEqual({ ok: false, error: 'the archive is damaged: its central directory cannot be found.' });
    const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
    const directoryStart = view.getUint32(archive.length - 6, true);
    view.setUint32(directoryStart + 42, 1_000_000, true);
    expect(readZipDirectory(archive)).toEqual({ ok: false, error: 'the archive is damaged: a header points outside the file.' });
  });

  it('quotes at most 40 characters of a name from the archive', () => {
    const name = `${'x'.repeat(100)}.txt`;
    const archive = writeZip([stored(name, text('a'))], [{ local: 0 }, { local: 0 }]);
    expect(readZipDirectory(archive)).toEqual({ ok: false, error: `the archive lists "${'x'.repeat(39)}…" more than once.` });
  });

  it('reads sizes and offsets from ZIP64 records', () => {
    const data = text('hello zip64');
    const name = text('collection.anki2');
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint32(14, crc32(data), true);
    local.setUint32(18, 0xffffffff, true);
    local.setUint32(22, 0xffffffff, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint32(16, crc32(data), true);
    central.setUint32(20, 0xffffffff, true);
    central.setUint32(24, 0xffffffff, true);
    central.setUint16(28, name.length, true);
    central.setUint16(30, 4 + 24, true);
    central.setUint32(42, 0xffffffff, true);
    const extra = new DataView(new ArrayBuffer(28));
    extra.setUint16(0, 0x0001, true);
    extra.setUint16(2, 24, true);
    extra.setBigUint64(4, BigInt(data.length), true);
    extra.setBigUint64(12, BigInt(data.length), true);
    extra.setBigUint64(20, 0n, true);
    const directoryStart = 30 + name.length + data.length;
    const directorySize = 46 + name.length + 28;
    const record = new DataView(new ArrayBuffer(56));
    record.setUint32(0, 0x06064b50, true);
    record.setBigUint64(24, 1n, true);
    record.setBigUint64(32, 1n, true);
    record.setBigUint64(40, BigInt(directorySize), true);
    record.setBigUint64(48, BigInt(directoryStart), true);
    const locator = new DataView(new ArrayBuffer(20));
    locator.setUint32(0, 0x07064b50, true);
    locator.setBigUint64(8, BigInt(directoryStart + directorySize), true);
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, 0xffff, true);
    end.setUint16(10, 0xffff, true);
    end.setUint32(12, 0xffffffff, true);
    end.setUint32(16, 0xffffffff, true);
    const archive = Buffer.concat([local, name, data, central, name, extra, record, locator, end].map((part) => (part instanceof DataView ? new Uint8Array(part.buffer) : part)));

    const directory = readZipDirectory(archive);
    expect(directory).toEqual({ ok: true, value: [{ name: 'collection.anki2', method: 0, flags: 0, crc: crc32(data), compressedSize: data.length, size: data.length, dataOffset: 30 + name.length }] });
  });
});
