/**
 * Decompression that stops at a cap while streaming (SPEC §8): the output handler sees every
 * piece and can stop the stream; zstd frame headers that would make fzstd allocate a huge
 * window are refused before fzstd reads them.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zerosDeflated, zstdRaw, zstdRle } from '../../test/helpers/apkg-bytes';
import { inflatePieces, ZstdFrameGuard, zstdPieces, type ZstdLimits } from './bounded-decompression';
import { Refusal } from './refusal';

const mebibyte = 1024 * 1024;
const limits: ZstdLimits = { maxWindowBytes: 64 * mebibyte, maxTotalWindowBytes: 128 * mebibyte, maxContentBytes: 64 * mebibyte, maxFrames: 1000 };
const sample = new Uint8Array(300_000).map((_, index) => (index * 7919) % 251);

function collect(run: (onOutput: (piece: Uint8Array) => void) => void): Buffer {
  const pieces: Uint8Array[] = [];
  run((piece) => pieces.push(piece));
  return Buffer.concat(pieces);
}

/** Byte equality without a deep comparison element by element (seconds for 500 KB). */
function expectSameBytes(actual: Buffer, expected: Uint8Array): void {
  expect(actual.length).toBe(expected.length);
  expect(actual.equals(expected)).toBe(true);
}

/** Runs `run` with an output handler that refuses once `cap` bytes are passed; returns what it saw. */
function capped(cap: number, run: (onOutput: (piece: Uint8Array) => void) => void): { error: string; seen: number } {
  let seen = 0;
  try {
    run((piece) => {
      seen += piece.length;
      if (seen > cap) throw new Refusal('over the cap');
    });
  } catch (error) {
    return { error: (error as Error).message, seen };
  }
  return { error: '', seen };
}

describe('inflatePieces', () => {
  it('hands on exactly what was deflated', () => {
    expectSameBytes(collect((onOutput) => inflatePieces(new Uint8Array(deflateRawSync(sample)), onOutput, 'sample')), sample);
  });

  it('stops within a few MB of the cap, however much the stream would inflate to', async () => {
    const bomb = await zerosDeflated(200);
    const result = capped(mebibyte, (onOutput) => inflatePieces(bomb, onOutput, 'bomb'));
    expect(result.error).toBe('over the cap');
    expect(result.seen).toBeGreaterThan(mebibyte);
    expect(result.seen).toBeLessThan(mebibyte + 5 * mebibyte);
  });

  it('names a damaged stream', () => {
    expect(() => inflatePieces(new Uint8Array([0xff, 0xff, 0xff]), () => {}, 'collection.anki2')).toThrow(/^the archive is damaged: collection.anki2 cannot be inflated \(.+\)\.$/);
  });
});

describe('zstdPieces', () => {
  it('decodes raw and RLE frames fed in uneven pieces', () => {
    const frames = Buffer.concat([zstdRaw(sample), zstdRle(200_000, { byte: 7 })]);
    const output = collect((onOutput) => {
      const decoder = zstdPieces(limits, onOutput);
      for (let index = 0; index < frames.length; index += 997) decoder.push(frames.subarray(index, index + 997));
      decoder.finish();
    });
    expectSameBytes(output, Buffer.concat([sample, Buffer.alloc(200_000, 7)]));
  });

  it('passes over skippable frames', () => {
    const skippable = Buffer.from([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    const output = collect((onOutput) => {
      const decoder = zstdPieces(limits, onOutput);
      decoder.push(Buffer.concat([skippable, zstdRaw(sample)]));
      decoder.finish();
    });
    expectSameBytes(output, sample);
  });

  it('stops within one block of the cap: 512 MB of RLE blocks yield little more than the cap', () => {
    const result = capped(4 * mebibyte, (onOutput) => {
      const decoder = zstdPieces(limits, onOutput);
      decoder.push(zstdRle(512 * mebibyte));
      decoder.finish();
    });
    expect(result).toEqual({ error: 'over the cap', seen: 4 * mebibyte + 128 * 1024 });
  });

  it('refuses input that ends inside a frame', () => {
    const frame = zstdRaw(sample);
    const decoder = zstdPieces(limits, () => {});
    decoder.push(frame.subarray(0, frame.length - 10));
    expect(() => decoder.finish()).toThrow('the collection cannot be decompressed (its zstd data ends inside a frame).');
  });
});

describe('ZstdFrameGuard', () => {
  const header = (bytes: number[]) => new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, ...bytes]);

  it('follows frames split at every byte, and knows when the input ends inside one', () => {
    const frames = Buffer.concat([zstdRaw(sample), zstdRle(200_000), Buffer.from([0x50, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 9])]);
    const guard = new ZstdFrameGuard(limits);
    for (let index = 0; index < frames.length; index += 1) guard.inspect(frames.subarray(index, index + 1));
    expect(() => guard.finish()).not.toThrow();
    const cut = new ZstdFrameGuard(limits);
    cut.inspect(frames.subarray(0, frames.length - 1));
    expect(() => cut.finish()).toThrow('its zstd data ends inside a frame');
  });

  it('refuses a frame declaring a 2 GB window before any block', () => {
    // Window descriptor 0xa8: exponent 21 → 2^31 bytes.
    expect(() => new ZstdFrameGuard(limits).inspect(header([0x00, 0xa8]))).toThrow('the collection cannot be decompressed (its zstd window is larger than 64 MB).');
  });

  it('refuses a single-segment frame declaring 1 GB of content', () => {
    // Single segment, 4-byte content size 2^30.
    expect(() => new ZstdFrameGuard(limits).inspect(header([0xa0, 0, 0, 0, 0x40]))).toThrow('the collection is larger than 64 MB once unpacked.');
  });

  it('refuses windows that add up past the total, frame after frame', () => {
    const guard = new ZstdFrameGuard({ ...limits, maxTotalWindowBytes: 3 * mebibyte });
    // Window 2^20 (descriptor 0x50), then one empty last raw block.
    const frame = header([0x00, 0x50, 0x01, 0x00, 0x00]);
    guard.inspect(frame);
    guard.inspect(frame);
    guard.inspect(frame);
    expect(() => guard.inspect(frame)).toThrow('the collection cannot be decompressed (its zstd frames need more than 3 MB of windows).');
  });

  it('refuses more frames than allowed, a dictionary, a reserved block type and an oversized block', () => {
    const empty = header([0x00, 0x50, 0x01, 0x00, 0x00]);
    const guard = new ZstdFrameGuard({ ...limits, maxFrames: 2 });
    expect(() => guard.inspect(Buffer.concat([empty, empty, empty]))).toThrow('the collection cannot be decompressed (its zstd data has more than 2 frames).');
    expect(() => new ZstdFrameGuard(limits).inspect(header([0x01, 0x50, 0x07]))).toThrow('it needs a zstd dictionary, which Anki does not use');
    expect(() => new ZstdFrameGuard(limits).inspect(header([0x00, 0x50, 0x07, 0x00, 0x00]))).toThrow('uses a reserved block type');
    // A raw block of 128 KiB + 1 byte.
    const size = 128 * 1024 + 1;
    const block = size * 8;
    expect(() => new ZstdFrameGuard(limits).inspect(header([0x00, 0x50, block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff]))).toThrow('a zstd block is larger than zstd allows');
  });

  it('refuses what is not zstd', () => {
    expect(() => new ZstdFrameGuard(limits).inspect(new TextEncoder().encode('SQLite format 3'))).toThrow('the collection cannot be decompressed (it is not zstd data).');
  });
});
