// The document worker (document-reader.ts): a PDF's text layer is read with PDF.js, pasted text
// parsed, and the offline proposals computed here, never on the thread serving learners, under
// the heap limit and the deadline the host sets (SPEC §8). The code is TypeScript: tsx compiles
// it for this thread, as apkg-worker.mjs does. One job at a time; the host may send another after
// the answer (it keeps a loaded worker for a while):
//   → { type: 'ready' } once loaded; ← a DocumentJob (document-job.ts);
//   → { type: 'done', outcome: { ok, value | error } }, or { type: 'failed', message } when the
//   job threw, or { type: 'boot_failed', message } when this thread could not load it.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

try {
  const { runDocumentJob } = await tsImport('./document-job.ts', import.meta.url);
  parentPort.on('message', async (job) => {
    try {
      parentPort.postMessage({ type: 'done', outcome: await runDocumentJob(job) });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'boot_failed', message: error instanceof Error ? error.message : String(error) });
}
