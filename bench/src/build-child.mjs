// Compiles the bench's server child (server-child.ts: the real server with the fake LLM injected
// through `ServerOverrides.provider`) the way `npm start`'s server is compiled
// (scripts/build-server.mjs: esbuild, node_modules external, workers beside it), into
// server/dist-bench, so the bench measures the JavaScript `npm start` runs, not tsx compiling
// TypeScript at run time (issue 27). Skipped when the stamp matches the sources.
//
//   node bench/src/build-child.mjs [--force]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const benchDistDir = path.join(root, 'server', 'dist-bench');

try {
  await buildServer({
    force: process.argv.includes('--force'),
    outDir: benchDistDir,
    entries: [{ in: path.join(root, 'bench', 'src', 'server-child.ts'), out: 'server-child' }],
  });
} catch (error) {
  console.error(`The bench's server build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
