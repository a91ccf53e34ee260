/**
 * The document reader (SPEC §4.7, §8): every document — a PDF, or pasted Markdown, text or
 * HTML — is read and its points proposed in a worker thread of its own (document-worker.mjs →
 * document-job.ts), under a heap limit and a deadline; the thread is terminated when it passes
 * either. This thread only checks the first bytes, hands a copy over and answers with the
 * worker's result or a plain-words failure. The pattern is the `.apkg` reader's
 * (db/apkg-reader.ts): a 300-page PDF takes PDF.js seconds of work, and the TextRank of a long
 * document more, none of which may stall other learners.
 *
 * At most `concurrency` documents are read at once and a few more wait their turn; past that the
 * reader answers that it is busy, so a burst of uploads cannot start a thread each.
 *
 * Unlike the `.apkg` reader, a worker that finished a job is kept for the next one (for
 * `idleMs`, at most `jobsPerWorker` jobs): loading one — tsx compiling the reader, PDF.js
 * parsing its 2 MB of code — took 5–15 s on a busy two-core machine, longer than reading most
 * documents. A worker that passed its deadline, crashed or ran out of memory is terminated, never
 * reused. A reading the learner cancelled (its `AbortSignal`) stops between two pages and frees its
 * turn at once; a worker that does not stop within `cancelGraceMs` is terminated. No learner code
 * runs in it, so what a document leaves behind is data PDF.js released.
 */
import { Worker } from 'node:worker_threads';
import { DocumentLimits, type ProposeDocumentResponse } from '@tutorloop/shared';
import type { ExtractedDocument, Result } from '../core/documents/document-model';
import { cancelledMessage, type DocumentInput, type DocumentJob, type DocumentJobOutcome } from './document-job';

export type { DocumentInput } from './document-job';
export { cancelledMessage } from './document-job';

/** The worker's entry, resolved in this one place (a bundled server ships the file beside its output). */
const workerEntry = new URL('./document-worker.mjs', import.meta.url);

export interface DocumentReaderOptions {
  /**
   * How long one document may take once its worker has loaded (default 120 s: a 300-page PDF
   * takes ~10 s on an idle two-core machine, several times that when the machine is busy; the
   * deadline stops a runaway file, and the work is off the serving thread whatever it takes).
   */
  deadlineMs?: number;
  /** How long a worker may take to load (default 30 s: tsx compiles the reader on a cold cache). */
  bootTimeoutMs?: number;
  /** The worker's V8 heap (default 256 MB). */
  maxOldGenerationSizeMb?: number;
  /** Documents read at the same time (default 2). */
  concurrency?: number;
  /** Documents waiting for a turn before the reader answers that it is busy (default 8). */
  maxWaiting?: number;
  /** How long a loaded worker waits for the next document before it is ended (default 60 s). */
  idleMs?: number;
  /** Most pages read from a PDF (default `DocumentLimits.pdfMaxPages`). */
  maxPages?: number;
  /**
   * How long a cancelled job may take to stop by itself before its worker is terminated (default
   * 2 s): the worker stops between two pages, but the proposing after the last page cannot be
   * interrupted, and a cancelled document must not hold a turn others wait for.
   */
  cancelGraceMs?: number;
}

/** What a caller may pass with one document. */
export interface ReadOptions {
  /** Aborted when the learner cancels: the reading stops and nothing is kept (the answer is `cancelledMessage`). */
  signal?: AbortSignal;
  /** Told after each page of a PDF: pages read so far and the document's page count. */
  onProgress?: (pagesDone: number, pages: number) => void;
}

export interface DocumentReader {
  /** The document's headings and paragraphs (what the proposals quote). */
  extract(input: DocumentInput, options?: ReadOptions): Promise<Result<ExtractedDocument>>;
  /** The proposed points of the document. */
  propose(input: DocumentInput, maxProposals?: number, options?: ReadOptions): Promise<Result<ProposeDocumentResponse>>;
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; pagesDone: number; pages: number }
  | { type: 'done'; outcome: DocumentJobOutcome }
  | { type: 'failed'; message: string }
  | { type: 'boot_failed'; message: string };

interface ReadSettings {
  deadlineMs: number;
  cancelGraceMs: number;
  bootTimeoutMs: number;
  maxOldGenerationSizeMb: number;
}

/** The answer when too many documents are being read: the route makes it a 429. */
export const busyMessage = 'The server is busy reading other documents; try again in a minute.';

/** Jobs one worker runs before a fresh one replaces it, so nothing one document left behind accumulates. */
const jobsPerWorker = 20;

/** PDF.js accepts a header anywhere in the first kilobyte; anything else is not a PDF. */
function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

export function createDocumentReader(options: DocumentReaderOptions = {}): DocumentReader {
  const settings: ReadSettings = {
    deadlineMs: options.deadlineMs ?? 120_000,
    cancelGraceMs: options.cancelGraceMs ?? 2000,
    bootTimeoutMs: options.bootTimeoutMs ?? 30_000,
    maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 256,
  };
  const maxPages = options.maxPages ?? DocumentLimits.pdfMaxPages;
  const concurrency = options.concurrency ?? 2;
  const maxWaiting = options.maxWaiting ?? 8;
  const idleMs = options.idleMs ?? 60_000;
  let running = 0;
  const waiting: Array<() => void> = [];
  // A turn handed over resolves true; a wait given up because the learner cancelled resolves false.
  const waitTurn = (signal: AbortSignal | undefined) =>
    new Promise<boolean>((resolve) => {
      const take = () => {
        signal?.removeEventListener('abort', giveUp);
        resolve(true);
      };
      const giveUp = () => {
        const index = waiting.indexOf(take);
        if (index >= 0) waiting.splice(index, 1);
        resolve(false);
      };
      waiting.push(take);
      signal?.addEventListener('abort', giveUp, { once: true });
    });
  // A finished read hands its turn straight to the next waiting one.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  const run = async (job: DocumentJob, options: ReadOptions = {}): Promise<DocumentJobOutcome> => {
    if (job.input.format === 'pdf' && !looksLikePdf(job.input.bytes)) return { ok: false, error: 'This file is not a PDF (it does not start like one).' };
    if (options.signal?.aborted) return { ok: false, error: cancelledMessage };
    if (running < concurrency) running += 1;
    else if (waiting.length >= maxWaiting) return { ok: false, error: busyMessage };
    else if (!(await waitTurn(options.signal))) return { ok: false, error: cancelledMessage };
    try {
      const slot = idle.pop() ?? (await boot(settings));
      clearTimeout(slot.idleTimer);
      slot.worker.ref();
      slot.jobs += 1;
      const { outcome, reusable } = await runOn(slot, job, settings, options);
      if (reusable && slot.jobs < jobsPerWorker) keepIdle(slot);
      else void slot.worker.terminate();
      return outcome;
    } finally {
      release();
    }
  };
  // A loaded worker waits for the next document a while (unref'd: it never holds the process open).
  const idle: Slot[] = [];
  const keepIdle = (slot: Slot) => {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      const index = idle.indexOf(slot);
      if (index >= 0) idle.splice(index, 1);
      void slot.worker.terminate();
    }, idleMs);
    slot.idleTimer.unref();
    idle.push(slot);
  };

  return {
    extract: async (input, options) => (await run({ operation: 'extract', input, maxPages }, options)) as Result<ExtractedDocument>,
    propose: async (input, maxProposals = DocumentLimits.proposalsMax, options) =>
      (await run({ operation: 'propose', input, maxPages, maxProposals }, options)) as Result<ProposeDocumentResponse>,
  };
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} seconds` : `${ms} ms`;
}

/** A loaded worker, kept between jobs. */
interface Slot {
  worker: Worker;
  jobs: number;
  idleTimer?: NodeJS.Timeout;
}

/** Loads a worker: resolves once it said `ready`. */
function boot(settings: ReadSettings): Promise<Slot> {
  return new Promise<Slot>((resolve, reject) => {
    const worker = new Worker(workerEntry, {
      // Nothing of the server's environment (secrets) or flags reaches the thread.
      env: {},
      execArgv: [],
      name: 'document-reader',
      resourceLimits: { maxOldGenerationSizeMb: settings.maxOldGenerationSizeMb, maxYoungGenerationSizeMb: 32 },
    });
    // Only our own listeners are removed: Worker.removeAllListeners() also drops Node's, after
    // which the worker's messages never arrive.
    const detach = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', fail);
      worker.off('exit', onExit);
    };
    const fail = (error: Error) => {
      detach();
      void worker.terminate();
      reject(error);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type !== 'ready') return fail(new Error(`the document reader could not start: ${message.type === 'boot_failed' ? message.message : message.type}`));
      detach();
      resolve({ worker, jobs: 0 });
    };
    const onExit = () => fail(new Error('the document reader stopped while starting'));
    const timer = setTimeout(() => fail(new Error(`the document reader did not start within ${settings.bootTimeoutMs} ms`)), settings.bootTimeoutMs);
    worker.on('message', onMessage);
    worker.on('error', fail);
    worker.on('exit', onExit);
  });
}

/**
 * Runs one job on a loaded worker. Resolves with the outcome and whether the worker may be used
 * again (it may not after a deadline, a crash or running out of memory: it is terminated).
 */
function runOn(slot: Slot, job: DocumentJob, settings: ReadSettings, options: ReadOptions): Promise<{ outcome: DocumentJobOutcome; reusable: boolean }> {
  const { worker } = slot;
  const { signal, onProgress } = options;
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  return new Promise((resolve, reject) => {
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    // The worker reads the flag between pages and answers `cancelledMessage`; one busy proposing is terminated after the grace.
    const onAbort = () => {
      Atomics.store(cancel, 0, 1);
      graceTimer = setTimeout(() => settle(false, () => resolve({ outcome: { ok: false, error: cancelledMessage }, reusable: false })), settings.cancelGraceMs);
    };
    const settle = (reusable: boolean, finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      // Not awaited: the answer does not wait for the thread to wind down.
      if (!reusable) void worker.terminate();
      finish();
    };
    const timer = setTimeout(
      () => settle(false, () => resolve({ outcome: { ok: false, error: `Reading the document took longer than ${seconds(settings.deadlineMs)}, so it was stopped. Try a shorter part of it.` }, reusable: false })),
      settings.deadlineMs,
    );
    const onMessage = (message: WorkerMessage) => {
      switch (message.type) {
        case 'progress':
          if (!signal?.aborted) onProgress?.(message.pagesDone, message.pages);
          return;
        case 'done':
          return settle(true, () => resolve({ outcome: message.outcome, reusable: true }));
        case 'failed':
          return settle(false, () => resolve({ outcome: { ok: false, error: `The document could not be read (${message.message}).` }, reusable: false }));
        case 'ready':
        case 'boot_failed':
          return settle(false, () => reject(new Error(`unexpected message from the document reader: ${message.type}`)));
        default: {
          const unreachable: never = message;
          return settle(false, () => reject(new Error(`unknown message from the document reader: ${JSON.stringify(unreachable)}`)));
        }
      }
    };
    const onError = (error: Error & { code?: string }) =>
      settle(false, () =>
        resolve({
          outcome: {
            ok: false,
            error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'Reading the document needs more memory than the server allows. Try a shorter part of it.' : `The document could not be read (${error.message}).`,
          },
          reusable: false,
        }),
      );
    const onExit = () => settle(false, () => resolve({ outcome: { ok: false, error: 'The document reader stopped before it finished.' }, reusable: false }));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (job.input.format === 'pdf') {
      // A copy of its own, moved rather than cloned: the caller's bytes may be a view of a larger buffer.
      const copy = new Uint8Array(job.input.bytes);
      worker.postMessage({ job: { ...job, input: { format: 'pdf', bytes: copy } }, cancel: cancel.buffer }, [copy.buffer]);
    } else worker.postMessage({ job, cancel: cancel.buffer });
    if (signal?.aborted) onAbort();
  });
}
