/**
 * The entries of a zip archive, read from its central directory and checked against the archive
 * itself rather than trusted (SPEC §8): every entry's local header must be where the directory
 * says, each name may appear once, and no two entries may share or overlap their data — one
 * 500 KB entry listed four times was once inflated four times over. Nothing is decompressed
 * here; declared sizes are returned for the caller to hold the data to, not to size buffers.
 * ZIP64 records are read (an `.apkg` never needs them, but some writers emit them anyway).
 */
import { Refusal, refused } from './refusal';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 DEFLATE; anything else is the caller's to refuse. */
  method: number;
  /** General purpose flags; bit 0 is encryption. */
  flags: number;
  crc: number;
  compressedSize: number;
  /** The uncompressed size the directory declares: a claim, to be checked while inflating. */
  size: number;
  /** Where the entry's stored bytes start, past its local header. */
  dataOffset: number;
}

export type ZipDirectoryResult = { ok: true; value: ZipEntry[] } | { ok: false; error: string };

const signatures = { local: 0x04034b50, central: 0x02014b50, end: 0x06054b50, end64: 0x06064b50, locator64: 0x07064b50 } as const;
const endRecordSize = 22;
const maxCommentSize = 0xffff;
const centralHeaderSize = 46;
const localHeaderSize = 30;

function damaged(detail: string): Refusal {
  return new Refusal(`the archive is damaged: ${detail}.`);
}

/** A name from the archive in a message: quoted, and at most 40 characters of it. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 39)}…` : name);
}

/** Little-endian reads that refuse to look outside the archive. */
class Reader {
  constructor(private readonly bytes: Uint8Array) {}

  u16(offset: number): number {
    this.need(offset, 2);
    return this.bytes[offset]! | (this.bytes[offset + 1]! << 8);
  }

  u32(offset: number): number {
    this.need(offset, 4);
    return (this.bytes[offset]! | (this.bytes[offset + 1]! << 8) | (this.bytes[offset + 2]! << 16) | (this.bytes[offset + 3]! << 24)) >>> 0;
  }

  /** A 64-bit size or offset; anything past what a Number holds exactly is past the archive too. */
  u64(offset: number): number {
    const high = this.u32(offset + 4);
    if (high >= 0x200000) throw damaged('a ZIP64 size is out of range');
    return high * 2 ** 32 + this.u32(offset);
  }

  slice(offset: number, length: number): Uint8Array {
    this.need(offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  private need(offset: number, length: number): void {
    if (offset < 0 || offset + length > this.bytes.length) throw damaged('a header points outside the file');
  }
}

export function readZipDirectory(bytes: Uint8Array): ZipDirectoryResult {
  try {
    return { ok: true, value: readEntries(bytes) };
  } catch (error) {
    return refused(error);
  }
}

interface Directory {
  count: number;
  offset: number;
  size: number;
  /** Where the records after the directory start: entry data must end before the directory. */
  end: number;
}

function findDirectory(reader: Reader, length: number): Directory {
  let endOffset = -1;
  // The end record sits before a comment of up to 64 KiB: the last candidate whose comment
  // length reaches exactly the end of the file is the record.
  for (let offset = length - endRecordSize; offset >= Math.max(0, length - endRecordSize - maxCommentSize); offset -= 1) {
    if (reader.u32(offset) === signatures.end && offset + endRecordSize + reader.u16(offset + 20) === length) {
      endOffset = offset;
      break;
    }
  }
  if (endOffset < 0) throw damaged('its central directory cannot be found');
  let directory: Directory = { count: reader.u16(endOffset + 10), size: reader.u32(endOffset + 12), offset: reader.u32(endOffset + 16), end: endOffset };
  const thisDisk = reader.u16(endOffset + 4);
  const directoryDisk = reader.u16(endOffset + 6);
  const countOnDisk = reader.u16(endOffset + 8);
  if (directory.count === 0xffff || directory.size === 0xffffffff || directory.offset === 0xffffffff) {
    const locator = endOffset - 20;
    if (locator < 0 || reader.u32(locator) !== signatures.locator64) throw damaged('its ZIP64 end record is missing');
    const record = reader.u64(locator + 8);
    if (record + 56 > locator || reader.u32(record) !== signatures.end64) throw damaged('its ZIP64 end record is missing');
    directory = { count: reader.u64(record + 32), size: reader.u64(record + 40), offset: reader.u64(record + 48), end: record };
  } else if (thisDisk !== 0 || directoryDisk !== 0 || countOnDisk !== directory.count) {
    throw damaged('it spans several files');
  }
  if (directory.offset + directory.size > directory.end) throw damaged('its central directory runs past its end');
  if (directory.count * centralHeaderSize > directory.size) throw damaged('its central directory is shorter than its entry count');
  return directory;
}

function readEntries(bytes: Uint8Array): ZipEntry[] {
  const reader = new Reader(bytes);
  const directory = findDirectory(reader, bytes.length);
  const decoder = new TextDecoder();
  const entries: Array<ZipEntry & { localOffset: number }> = [];
  const names = new Set<string>();
  let offset = directory.offset;
  const directoryEnd = directory.offset + directory.size;
  for (let index = 0; index < directory.count; index += 1) {
    if (offset + centralHeaderSize > directoryEnd || reader.u32(offset) !== signatures.central) throw damaged(`central directory entry ${index + 1} is missing`);
    const nameLength = reader.u16(offset + 28);
    const extraLength = reader.u16(offset + 30);
    const commentLength = reader.u16(offset + 32);
    const next = offset + centralHeaderSize + nameLength + extraLength + commentLength;
    if (next > directoryEnd) throw damaged(`central directory entry ${index + 1} runs past the directory`);
    const nameBytes = reader.slice(offset + centralHeaderSize, nameLength);
    const name = decoder.decode(nameBytes);
    if (names.has(name)) throw new Refusal(`the archive lists ${quoteName(name)} more than once.`);
    names.add(name);
    let compressedSize = reader.u32(offset + 20);
    let size = reader.u32(offset + 24);
    let localOffset = reader.u32(offset + 42);
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      // The ZIP64 extra field holds, in this order, only the values that overflowed.
      let field = zip64Field(reader, offset + centralHeaderSize + nameLength, extraLength);
      const take = () => {
        if (field === null) throw damaged(`entry ${quoteName(name)} lacks its ZIP64 sizes`);
        const value = reader.u64(field.offset);
        field = field.remaining >= 16 ? { offset: field.offset + 8, remaining: field.remaining - 8 } : null;
        return value;
      };
      if (size === 0xffffffff) size = take();
      if (compressedSize === 0xffffffff) compressedSize = take();
      if (localOffset === 0xffffffff) localOffset = take();
    }
    if (reader.u32(localOffset) !== signatures.local) throw damaged(`the local header of ${quoteName(name)} is missing`);
    const localName = reader.slice(localOffset + localHeaderSize, reader.u16(localOffset + 26));
    if (!sameBytes(localName, nameBytes)) throw damaged(`the local header of ${quoteName(name)} names another file`);
    const dataOffset = localOffset + localHeaderSize + localName.length + reader.u16(localOffset + 28);
    if (dataOffset + compressedSize > directory.offset) throw damaged(`the data of ${quoteName(name)} runs into the central directory`);
    entries.push({ name, method: reader.u16(offset + 10), flags: reader.u16(offset + 8), crc: reader.u32(offset + 16), compressedSize, size, dataOffset, localOffset });
    offset = next;
  }
  // Entries that share or overlap their bytes are how one stored stream gets inflated many times.
  const byPosition = [...entries].sort((left, right) => left.localOffset - right.localOffset);
  for (let index = 1; index < byPosition.length; index += 1) {
    const previous = byPosition[index - 1]!;
    const current = byPosition[index]!;
    if (previous.dataOffset + previous.compressedSize > current.localOffset) throw damaged(`${quoteName(previous.name)} and ${quoteName(current.name)} share their data`);
  }
  return entries.map(({ localOffset: _, ...entry }) => entry);
}

function zip64Field(reader: Reader, start: number, length: number): { offset: number; remaining: number } | null {
  let offset = start;
  while (offset + 4 <= start + length) {
    const id = reader.u16(offset);
    const size = reader.u16(offset + 2);
    if (offset + 4 + size > start + length) return null;
    if (id === 0x0001) return size >= 8 ? { offset: offset + 4, remaining: size } : null;
    offset += 4 + size;
  }
  return null;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}
