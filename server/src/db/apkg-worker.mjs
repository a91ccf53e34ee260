// The .apkg reader's worker thread (apkg-reader.ts): the archive is unpacked and its SQLite
// collection read here, never on the thread serving learners, under the heap limit and the
// deadline the host sets (SPEC §8). The reading code is TypeScript: tsx compiles it for this
// thread, as simulation-worker.mjs does. One package per thread:
//   → { type: 'ready' } once loaded; ← { bytes: Uint8Array, folder: string };
//   → { type: 'done', outcome: { ok, value | error } }, or { type: 'failed', message } when the
//   reading threw, or { type: 'boot_failed', message } when this thread could not load it.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

try {
  const { readPackage } = await tsImport('./apkg-package.ts', import.meta.url);
  parentPort.once('message', ({ bytes, folder }) => {
    try {
      parentPort.postMessage({ type: 'done', outcome: readPackage(bytes, folder) });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'boot_failed', message: error instanceof Error ? error.message : String(error) });
}
