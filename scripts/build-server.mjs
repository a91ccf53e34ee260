// Compiles the server for `npm start` and the container image: server/src → server/dist, run with
// plain `node server/dist/main.js` (no TypeScript compiler in the serving process). Tests and
// `pnpm --filter @tutorloop/server dev` keep running the sources through tsx.
//
// - main.js: the server and @tutorloop/shared (TypeScript sources) in one ES module. Every
//   other package stays external, loaded from node_modules at run time: native and WebAssembly
//   ones (better-sqlite3, the FSRS binding, pyodide, quickjs-emscripten, pdfjs-dist) must, and
//   the rest keep the image's production install the single source of dependencies.
// - Code the server reaches through `await import('./x')` (a model provider with its SDK, the
//   OpenAPI generator) goes into chunks of its own beside main.js (`splitting`), loaded on that
//   first call: without them esbuild would hoist the packages those modules import to the top
//   of main.js, and a fresh server would load every SDK (issue 27: idle memory).
// - Worker threads and files the code opens with `new URL('./name', import.meta.url)`: written
//   flat into dist/ under the same name, so the same relative URL finds them from the bundle.
//   Workers that load TypeScript through tsx (`tsImport('./x.ts', import.meta.url)`) are
//   bundled with that call turned into a plain `import('./x.ts')`; the plain-JavaScript sandbox
//   workers and their helpers are copied byte for byte. A reference the build cannot place
//   fails the build.
// - A stamp (hash of the sources, the lockfile and this script) skips the build when nothing
//   changed, so a second `npm start` starts at once. `--force` rebuilds; `--out server/<folder>`
//   builds elsewhere (the compiled-server test).
// - `entries` (the bench, bench/src/build-child.mjs): other entry points instead of main.ts,
//   bundled the same way into their own folder, e.g. the bench's server child, which starts the
//   server with a fake model injected; their folders' sources join the stamp.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'server');
const sourceDir = path.join(serverDir, 'src');
export const distDir = path.join(serverDir, 'dist');

const isTest = (file) => /\.test\.[cm]?ts$/.test(file) || file.endsWith('.d.ts');

function filesUnder(folder) {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(full));
    else found.push(full);
  }
  return found.sort();
}

/** What the build depends on: any change here (content, not time stamps) means a rebuild. */
function sourceHash(entries) {
  const hash = createHash('sha256');
  const inputs = [
    ...filesUnder(sourceDir).filter((file) => !isTest(file)),
    ...[...new Set(entries.map((entry) => path.dirname(entry.in)))].flatMap((folder) => (folder.startsWith(sourceDir) ? [] : filesUnder(folder).filter((file) => !isTest(file)))),
    ...filesUnder(path.join(root, 'shared', 'src')).filter((file) => !isTest(file)),
    path.join(serverDir, 'package.json'),
    path.join(root, 'shared', 'package.json'),
    path.join(root, 'pnpm-lock.yaml'),
    fileURLToPath(import.meta.url),
  ];
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const fileReference = /new URL\('\.\/([\w.-]+)', import\.meta\.url\)/g;
const relativeImport = /^import [^;]*? from '(\.\/[\w.-]+\.mjs)';$/gm;
const tsImportCall = /tsImport\(('[^']+\.ts'), import\.meta\.url\)/g;
const tsImportLine = /^import \{ tsImport \} from 'tsx\/esm\/api';\n/m;
const usesTsImport = (text) => text.includes('tsImport(');

/** Every `new URL('./name', import.meta.url)` in the server's code: the file it names, by output name. */
function referencedFiles() {
  const byName = new Map();
  for (const file of filesUnder(sourceDir)) {
    if (isTest(file) || !/\.(ts|mjs)$/.test(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(fileReference)) {
      const target = path.join(path.dirname(file), match[1]);
      const known = byName.get(match[1]);
      if (known && known !== target) throw new Error(`two files would be dist/${match[1]}: ${known} and ${target}; rename one`);
      byName.set(match[1], target);
    }
  }
  return byName;
}

/** Turns a tsx worker's `await tsImport('./x.ts', import.meta.url)` into an import the bundler follows. */
const tsImportPlugin = {
  name: 'tsx-worker-imports',
  setup(build) {
    build.onLoad({ filter: /-worker\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!usesTsImport(text)) return undefined;
      return { contents: text.replace(tsImportLine, '').replace(tsImportCall, 'import($1)'), loader: 'js' };
    });
  },
};

async function bundle(entryPoints, outExtension, outdir, { splitting = false } = {}) {
  const { build } = await import(pathToFileURL(path.join(serverDir, 'node_modules', 'esbuild', 'lib', 'main.js')).href);
  const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@tutorloop/'));
  await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    outExtension,
    plugins: [tsImportPlugin],
    splitting,
    sourcemap: 'linked',
    // A stack trace names the function a learner's failure came from; minifying would lose it for little.
    minify: false,
    logLevel: 'warning',
  });
}

/**
 * Rewrites every non-ASCII character left in the bundle's output as a `\uXXXX` escape. esbuild
 * already escapes them in strings, templates and regular expressions (its default ASCII charset)
 * but not in the comments it keeps, and one `→` in a comment makes V8 hold the whole file's
 * source — kept for lazy compilation — as a two-byte string: twice the memory (issue 27).
 * Only comments are left to change, so the code means the same.
 */
function asciiOnly(outDir, copied) {
  for (const name of readdirSync(outDir)) {
    if (!/\.m?js$/.test(name) || copied.has(name)) continue;
    const file = path.join(outDir, name);
    const text = readFileSync(file, 'utf8');
    if (/^[\x00-\x7f]*$/.test(text)) continue;
    writeFileSync(file, text.replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
}

/** Copies a plain-JavaScript file and the sibling modules it imports, unchanged. */
function copyWithImports(source, name, outDir, copied) {
  if (copied.has(name)) return;
  copied.add(name);
  copyFileSync(source, path.join(outDir, name));
  if (!name.endsWith('.mjs')) return;
  for (const match of readFileSync(source, 'utf8').matchAll(relativeImport)) {
    copyWithImports(path.join(path.dirname(source), match[1]), path.basename(match[1]), outDir, copied);
  }
}

/**
 * Builds server/dist unless its stamp matches the sources; returns whether it built. `outDir`
 * (tests) must be a folder directly in server/, as dist is: paths.ts finds the server's data
 * one level up from the code.
 */
export async function buildServer({ force = false, outDir = distDir, entries = [{ in: path.join(sourceDir, 'main.ts'), out: 'main' }] } = {}) {
  if (path.dirname(path.resolve(outDir)) !== serverDir) throw new Error(`the output folder must be directly in server/, not ${outDir}`);
  const stampFile = path.join(outDir, '.build-stamp');
  const hash = sourceHash(entries);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) return false;
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await bundle(entries, { '.js': '.js' }, outDir, { splitting: true });
  const referenced = referencedFiles();
  const tsxWorkers = [];
  const copied = new Set();
  for (const [name, source] of referenced) {
    if (!existsSync(source)) throw new Error(`${path.relative(root, source)} is referenced but does not exist`);
    if (name.endsWith('.mjs') && usesTsImport(readFileSync(source, 'utf8'))) tsxWorkers.push({ in: source, out: name.replace(/\.mjs$/, '') });
    else copyWithImports(source, name, outDir, copied);
  }
  if (tsxWorkers.length > 0) await bundle(tsxWorkers, { '.js': '.mjs' }, outDir);
  asciiOnly(outDir, copied);
  const shown = path.relative(root, outDir);
  for (const name of referenced.keys()) {
    if (!existsSync(path.join(outDir, name))) throw new Error(`${shown}/${name} was not written`);
    if (name.endsWith('.mjs') && readFileSync(path.join(outDir, name), 'utf8').includes("'tsx/esm/api'")) throw new Error(`${shown}/${name} still loads tsx`);
  }
  writeFileSync(stampFile, hash);
  console.log(`Built the server into ${shown} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const out = process.argv.indexOf('--out');
    await buildServer({ force: process.argv.includes('--force'), ...(out > 0 ? { outDir: path.resolve(process.argv[out + 1]) } : {}) });
  } catch (error) {
    console.error(`The server build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
