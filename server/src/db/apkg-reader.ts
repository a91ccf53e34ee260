/**
 * The `.apkg` reader (the `ApkgReader` port of services/set-transfer.ts). Each package is read
 * in a worker thread of its own (apkg-worker.mjs → apkg-package.ts: zip directory checked,
 * collection unpacked with caps while streaming, SQLite read with views and triggers refused),
 * under a heap limit and a deadline, and the thread is terminated when it passes either
 * (SPEC §8). This thread only looks at the first bytes, hands a copy of the archive over,
 * answers with the worker's result or a plain-words failure, and removes the folder the worker
 * unpacked into — also when the worker was stopped. The decompressed collection never reaches
 * this thread. Before, all of it ran here: one archive stalled every learner for seconds and
 * grew the server by up to 2 GB.
 *
 * At most `concurrency` packages are read at once and a few more wait their turn; past that the
 * reader answers that it is busy, so a burst of imports cannot start a thread each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ApkgReader } from '../services/set-transfer';

/** The worker's entry, resolved in this one place (a bundled server ships the file beside its output). */
const workerEntry = new URL('./apkg-worker.mjs', import.meta.url);

export interface ApkgReaderOptions {
  /** How long one package may take once its worker has loaded (default 10 s). */
  deadlineMs?: number;
  /** How long a worker may take to load (default 30 s: tsx compiles the reader on a cold cache). */
  bootTimeoutMs?: number;
  /**
   * The worker's V8 heap (default 128 MB). Buffers and SQLite's own memory lie outside it: the
   * caps of apkg-package.ts and apkg-collection.ts bound those.
   */
  maxOldGenerationSizeMb?: number;
  /** Packages read at the same time (default 2). */
  concurrency?: number;
  /** Packages waiting for a turn before the reader answers that it is busy (default 8). */
  maxWaiting?: number;
  /** Where each read's folder is made (default the system's temporary directory). */
  temporaryDirectory?: string;
}

type Outcome = Awaited<ReturnType<ApkgReader>>;

type WorkerMessage = { type: 'ready' } | { type: 'done'; outcome: Outcome } | { type: 'failed'; message: string } | { type: 'boot_failed'; message: string };

const zipMagic = [0x50, 0x4b, 0x03, 0x04];

interface ReadSettings {
  temporaryDirectory: string;
  deadlineMs: number;
  bootTimeoutMs: number;
  maxOldGenerationSizeMb: number;
}

export function createApkgReader(options: ApkgReaderOptions = {}): ApkgReader {
  const settings: ReadSettings = {
    temporaryDirectory: options.temporaryDirectory ?? tmpdir(),
    deadlineMs: options.deadlineMs ?? 10_000,
    bootTimeoutMs: options.bootTimeoutMs ?? 30_000,
    maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 128,
  };
  const concurrency = options.concurrency ?? 2;
  const maxWaiting = options.maxWaiting ?? 8;
  let running = 0;
  const waiting: Array<() => void> = [];
  // A finished read hands its turn straight to the next waiting one.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return async (bytes) => {
    if (bytes.length < 4 || zipMagic.some((byte, index) => bytes[index] !== byte)) return { ok: false, error: 'this is not an .apkg file (not a zip archive).' };
    if (running < concurrency) running += 1;
    else if (waiting.length >= maxWaiting) return { ok: false, error: 'the server is busy reading other packages; try again in a minute.' };
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await readInWorker(bytes, settings);
    } finally {
      release();
    }
  };
}

/** The reader the server uses. */
export const readApkg: ApkgReader = createApkgReader();

async function readInWorker(bytes: Uint8Array, settings: ReadSettings): Promise<Outcome> {
  const folder = await mkdtemp(path.join(settings.temporaryDirectory, 'tutorloop-apkg-'));
  try {
    return await new Promise<Outcome>((resolve, reject) => {
      const worker = new Worker(workerEntry, {
        // Nothing of the server's environment (secrets) or flags reaches the thread.
        env: {},
        execArgv: [],
        name: 'apkg-reader',
        resourceLimits: { maxOldGenerationSizeMb: settings.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: 16 },
      });
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Not awaited: the answer does not wait for the thread to wind down.
        void worker.terminate();
        finish();
      };
      let timer = setTimeout(() => settle(() => reject(new Error(`the .apkg reader did not start within ${settings.bootTimeoutMs} ms`))), settings.bootTimeoutMs);
      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'ready': {
            clearTimeout(timer);
            timer = setTimeout(
              () => settle(() => resolve({ ok: false, error: `reading the package took longer than ${settings.deadlineMs >= 1000 ? `${Math.round(settings.deadlineMs / 1000)} seconds` : `${settings.deadlineMs} ms`}, so it was stopped.` })),
              settings.deadlineMs,
            );
            // A copy of its own, moved rather than cloned: the caller's bytes may be a view of a larger buffer.
            const copy = new Uint8Array(bytes);
            worker.postMessage({ bytes: copy, folder }, [copy.buffer]);
            return;
          }
          case 'done':
            return settle(() => resolve(message.outcome));
          case 'failed':
            // Something in the archive that the reader's checks did not foresee: still the archive's failure.
            return settle(() => resolve({ ok: false, error: `the package could not be read (${message.message}).` }));
          case 'boot_failed':
            return settle(() => reject(new Error(`the .apkg reader could not start: ${message.message}`)));
          default: {
            const unreachable: never = message;
            return settle(() => reject(new Error(`unknown message from the .apkg reader: ${JSON.stringify(unreachable)}`)));
          }
        }
      });
      worker.on('error', (error: Error & { code?: string }) =>
        settle(() =>
          resolve({
            ok: false,
            error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'reading the package needs more memory than the server allows.' : `the package could not be read (${error.message}).`,
          }),
        ),
      );
      worker.on('exit', () => settle(() => resolve({ ok: false, error: 'the package reader stopped before it finished.' })));
    });
  } finally {
    // The worker may still hold the file open (it was terminated mid-read): removing it is safe on POSIX.
    await rm(folder, { recursive: true, force: true });
  }
}
