/**
 * DEFLATE and zstd decompression that hands its output on piece by piece, so the caller can
 * count it and stop the moment it passes a cap, whatever the headers declared (SPEC §8): a
 * 16 KB zstd frame once inflated to 512 MB before its size was looked at. The caller's output
 * handler stops a stream by throwing a `Refusal`; damaged input becomes one too.
 */
import { Inflate } from 'fflate';
import { Decompress } from 'fzstd';
import { Refusal, sizeInWords } from './refusal';

/**
 * DEFLATE input is pushed this many bytes at a time: it expands at most ~1032:1, so no single
 * push can produce more than ~4 MB before the output handler has seen it.
 */
const inflatePieceBytes = 4 * 1024;

/** Inflates raw DEFLATE `data` into `onOutput`, a piece at a time. */
export function inflatePieces(data: Uint8Array, onOutput: (piece: Uint8Array) => void, describe: string): void {
  const inflater = new Inflate((piece) => {
    if (piece.length > 0) onOutput(piece);
  });
  try {
    let start = 0;
    do {
      const end = start + inflatePieceBytes;
      inflater.push(data.subarray(start, end), end >= data.length);
      start = end;
    } while (start < data.length);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`the archive is damaged: ${describe} cannot be inflated (${(error as Error).message}).`);
  }
}

export interface ZstdLimits {
  /**
   * Largest window one frame may declare. fzstd allocates the whole window when a frame starts
   * and moves it for every block, so this bounds both memory and time per block.
   */
  maxWindowBytes: number;
  /** Largest sum of the windows of all frames: each frame allocates its own. */
  maxTotalWindowBytes: number;
  /** Largest content size a frame may declare; the output is counted by the caller as well. */
  maxContentBytes: number;
  /**
   * Most frames (skippable ones included). fzstd recurses once per frame within one piece of
   * input, so thousands of tiny frames would overflow its stack; Anki writes one.
   */
  maxFrames: number;
}

/** zstd's Block_Maximum_Size (RFC 8878 §3.1.1.2.4). */
const zstdBlockMaxBytes = 128 * 1024;
const zstdMagic = 0xfd2fb528;

/** A little-endian number of up to 8 bytes (exact up to 2^53, and past that only compared with caps). */
function littleEndian(bytes: readonly number[], offset: number, length: number): number {
  let value = 0;
  for (let index = length - 1; index >= 0; index -= 1) value = value * 256 + bytes[offset + index]!;
  return value;
}

/**
 * Walks the frame and block headers of a zstd stream as its bytes arrive, without decoding
 * anything, and refuses a frame before fzstd sees its header: fzstd would allocate whatever
 * window the header asks for (up to 2 GB) and cannot be told a limit.
 */
type ZstdExpect = 'magic' | 'frame_header' | 'block_header' | 'checksum' | 'skippable_size';

export class ZstdFrameGuard {
  #expect: ZstdExpect = 'magic';
  #header: number[] = [];
  #need = 4;
  /** Bytes of block content or of a skippable frame still to pass over. */
  #skip = 0;
  #window = 0;
  #checksum = false;
  #totalWindow = 0;
  #frames = 0;

  constructor(private readonly limits: ZstdLimits) {}

  inspect(chunk: Uint8Array): void {
    let index = 0;
    while (index < chunk.length) {
      if (this.#skip > 0) {
        const step = Math.min(this.#skip, chunk.length - index);
        this.#skip -= step;
        index += step;
        continue;
      }
      this.#header.push(chunk[index]!);
      index += 1;
      if (this.#header.length === this.#need) this.#step();
    }
  }

  /** The stream must end between frames. */
  finish(): void {
    if (this.#expect !== 'magic' || this.#header.length > 0 || this.#skip > 0) throw new Refusal('the collection cannot be decompressed (its zstd data ends inside a frame).');
  }

  #step(): void {
    const header = this.#header;
    switch (this.#expect) {
      case 'magic': {
        const magic = littleEndian(header, 0, 4);
        this.#frames += 1;
        if (this.#frames > this.limits.maxFrames) throw new Refusal(`the collection cannot be decompressed (its zstd data has more than ${this.limits.maxFrames} frames).`);
        if (magic === zstdMagic) this.#next('frame_header', 1);
        else if (Math.floor(magic / 16) === 0x184d2a5) this.#next('skippable_size', 4);
        else throw new Refusal('the collection cannot be decompressed (it is not zstd data).');
        return;
      }
      case 'frame_header':
        return this.#frameHeader(header);
      case 'block_header': {
        const value = littleEndian(header, 0, 3);
        const last = value & 1;
        const type = (value >> 1) & 3;
        const size = value >>> 3;
        if (type === 3) throw new Refusal('the collection cannot be decompressed (its zstd data uses a reserved block type).');
        if (size > Math.min(this.#window, zstdBlockMaxBytes)) throw new Refusal('the collection cannot be decompressed (a zstd block is larger than zstd allows).');
        // An RLE block stores one byte, whatever its size; raw and compressed blocks store `size`.
        this.#skip = type === 1 ? 1 : size;
        if (!last) this.#next('block_header', 3);
        else if (this.#checksum) this.#next('checksum', 4);
        else this.#next('magic', 4);
        return;
      }
      case 'checksum':
        return this.#next('magic', 4);
      case 'skippable_size':
        this.#skip = littleEndian(header, 0, 4);
        return this.#next('magic', 4);
      default: {
        const unreachable: never = this.#expect;
        throw new Error(`unknown zstd parser state ${String(unreachable)}`);
      }
    }
  }

  #frameHeader(header: number[]): void {
    const descriptor = header[0]!;
    const singleSegment = (descriptor >> 5) & 1;
    const contentFlag = descriptor >> 6;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!;
    const contentBytes = contentFlag === 0 ? singleSegment : [0, 2, 4, 8][contentFlag]!;
    const length = 1 + (singleSegment ? 0 : 1) + dictionaryBytes + contentBytes;
    if (header.length < length) {
      this.#need = length;
      return;
    }
    if (descriptor & 0x08) throw new Refusal('the collection cannot be decompressed (its zstd frame header sets a reserved bit).');
    if (dictionaryBytes > 0 && littleEndian(header, length - contentBytes - dictionaryBytes, dictionaryBytes) !== 0) {
      throw new Refusal('the collection cannot be decompressed (it needs a zstd dictionary, which Anki does not use).');
    }
    let window = 0;
    if (!singleSegment) {
      const exponent = header[1]! >> 3;
      const base = 2 ** (10 + exponent);
      window = base + (base / 8) * (header[1]! & 7);
    }
    const content = contentBytes > 0 ? littleEndian(header, length - contentBytes, contentBytes) + (contentBytes === 2 ? 256 : 0) : null;
    if (singleSegment) window = content ?? 0;
    if (content !== null && content > this.limits.maxContentBytes) throw new Refusal(`the collection is larger than ${sizeInWords(this.limits.maxContentBytes)} once unpacked.`);
    if (window > this.limits.maxWindowBytes) throw new Refusal(`the collection cannot be decompressed (its zstd window is larger than ${sizeInWords(this.limits.maxWindowBytes)}).`);
    this.#totalWindow += window;
    if (this.#totalWindow > this.limits.maxTotalWindowBytes) {
      throw new Refusal(`the collection cannot be decompressed (its zstd frames need more than ${sizeInWords(this.limits.maxTotalWindowBytes)} of windows).`);
    }
    this.#window = window;
    this.#checksum = Boolean(descriptor & 0x04);
    this.#next('block_header', 3);
  }

  #next(expect: ZstdExpect, need: number): void {
    this.#expect = expect;
    this.#need = need;
    this.#header = [];
  }
}

/** A zstd decoder fed piece by piece: every piece passes the frame guard before fzstd sees it. */
export interface ZstdPieces {
  push(piece: Uint8Array): void;
  /** The input has ended: it must end between frames. */
  finish(): void;
}

export function zstdPieces(limits: ZstdLimits, onOutput: (piece: Uint8Array) => void): ZstdPieces {
  const guard = new ZstdFrameGuard(limits);
  const decompressor = new Decompress((piece) => {
    if (piece.length > 0) onOutput(piece);
  });
  const run = (action: () => void) => {
    try {
      action();
    } catch (error) {
      if (error instanceof Refusal) throw error;
      throw new Refusal(`the collection cannot be decompressed (${(error as Error).message}).`);
    }
  };
  return {
    push(piece) {
      guard.inspect(piece);
      run(() => decompressor.push(piece));
    },
    finish() {
      guard.finish();
      run(() => decompressor.push(new Uint8Array(0), true));
    },
  };
}
