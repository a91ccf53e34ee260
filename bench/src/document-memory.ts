/**
 * Memory while a long PDF is read (issue 26 item 5), not part of `npm test`:
 *
 *   corepack pnpm exec tsx bench/src/document-memory.ts [path/to/file.pdf]
 *
 * Default file: the 300-page fixture of the server's tests. Two runs:
 *
 * 1. **As the server reads it**: the real document reader (`createDocumentReader`, a worker thread
 *    with PDF.js, the same one `POST /api/documents/propose` uses). The process's RSS — this
 *    thread and the worker together — is sampled every 20 ms from this thread, which only waits:
 *    before the worker loads, with it loaded and idle, and at its peak while the PDF is read and
 *    its points proposed. The worker's heap is capped at 256 MB (`maxOldGenerationSizeMb`).
 * 2. **The same job on this thread** (`runDocumentJob`, what the worker runs), so V8's heap of the
 *    job alone can be read: used heap sampled every 20 ms and after every page (the sync proposing
 *    at the end cannot be sampled while it runs: the heap right after it is reported, and V8's own
 *    peak of malloced memory).
 *
 * Figures depend on the machine and its load: the load average is printed with them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { createDocumentReader } from '../../server/src/documents/document-reader';
import { runDocumentJob } from '../../server/src/documents/document-job';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const file = process.argv[2] ?? path.join(repositoryRoot, 'server/test/fixtures/documents/long-300-pages.pdf');
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Samples `read()` every 20 ms (and whenever `sample()` is called) until `stop()`; keeps the peak. */
function sampler(read: () => number) {
  let peak = read();
  const sample = () => {
    peak = Math.max(peak, read());
  };
  const timer = setInterval(sample, 20);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

async function asTheServerReadsIt(bytes: Uint8Array) {
  const before = process.memoryUsage.rss();
  const reader = createDocumentReader();
  // A tiny document loads the worker (PDF.js, the reader compiled by tsx) before anything is measured.
  const warm = await reader.propose({ format: 'text', text: 'Basalt is a dark volcanic rock.' });
  if (!warm.ok) throw new Error(warm.error);
  const loaded = process.memoryUsage.rss();
  const rss = sampler(() => process.memoryUsage.rss());
  let pages = 0;
  const started = performance.now();
  const outcome = await reader.propose({ format: 'pdf', bytes }, undefined, { onProgress: (done) => (pages = done) });
  const elapsedMs = performance.now() - started;
  const peak = rss.stop();
  if (!outcome.ok) throw new Error(outcome.error);
  console.log(
    `worker (as the server reads it): ${pages} pages, ${outcome.value.proposals.length} proposals in ${(elapsedMs / 1000).toFixed(1)} s; ` +
      `process RSS ${megabytes(before)} before the worker, ${megabytes(loaded)} with it loaded, peak ${megabytes(peak)} while reading (+${megabytes(peak - loaded)})`,
  );
}

async function onThisThread(bytes: Uint8Array) {
  const heapBefore = v8.getHeapStatistics().used_heap_size;
  const rssBefore = process.memoryUsage.rss();
  const heap = sampler(() => v8.getHeapStatistics().used_heap_size);
  const rss = sampler(() => process.memoryUsage.rss());
  const started = performance.now();
  const outcome = await runDocumentJob(
    { operation: 'propose', input: { format: 'pdf', bytes }, maxPages: 500, maxProposals: 200 },
    {
      onPage: () => {
        heap.sample();
        rss.sample();
      },
    },
  );
  const elapsedMs = performance.now() - started;
  const heapPeak = heap.stop();
  const rssPeak = rss.stop();
  if (!outcome.ok) throw new Error(outcome.error);
  const statistics = v8.getHeapStatistics();
  console.log(
    `same job on this thread: ${(elapsedMs / 1000).toFixed(1)} s; used heap ${megabytes(heapBefore)} before, peak ${megabytes(heapPeak)} (+${megabytes(heapPeak - heapBefore)}), ` +
      `heap limit ${megabytes(statistics.heap_size_limit)}, peak malloced ${megabytes(statistics.peak_malloced_memory)}; RSS ${megabytes(rssBefore)} before, peak ${megabytes(rssPeak)}`,
  );
}

const bytes = new Uint8Array(readFileSync(file));
console.log(`${path.relative(repositoryRoot, file)}: ${megabytes(bytes.length)} (${bytes.length.toLocaleString('en')} bytes); load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
await asTheServerReadsIt(new Uint8Array(bytes));
await onThisThread(new Uint8Array(bytes));
// The reader's idle worker is unref'd: the process ends on its own.
