// The document worker (document-reader.ts): a PDF's text layer is read with PDF.js, pasted text
// parsed, and the offline proposals computed here, never on the thread serving learners, under
// the heap limit and the deadline the host sets (SPEC §8). The code is TypeScript: tsx compiles
// it for this thread, as apkg-worker.mjs does. One job at a time; the host may send another after
// the answer (it keeps a loaded worker for a while):
//   → { type: 'ready' } once loaded; ← { job: DocumentJob (document-job.ts), cancel: SharedArrayBuffer };
//   → { type: 'progress', pagesDone, pages } after each PDF page;
//   → { type: 'done', outcome: { ok, value | error } }, or { type: 'failed', message } when the
//   job threw, or { type: 'boot_failed', message } when this thread could not load it.
// The host cancels a job by setting the first Int32 of `cancel` to 1: a flag in shared memory,
// read between pages, because a message would wait behind the page being read.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

try {
  const { runDocumentJob } = await tsImport('./document-job.ts', import.meta.url);
  parentPort.on('message', async ({ job, cancel }) => {
    const flag = new Int32Array(cancel);
    const hooks = {
      onPage: (pagesDone, pages) => parentPort.postMessage({ type: 'progress', pagesDone, pages }),
      cancelled: () => Atomics.load(flag, 0) === 1,
    };
    try {
      parentPort.postMessage({ type: 'done', outcome: await runDocumentJob(job, hooks) });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'boot_failed', message: error instanceof Error ? error.message : String(error) });
}
