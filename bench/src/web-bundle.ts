/**
 * The web app's initial JavaScript, gzipped: the entry module(s) `web/dist/index.html`
 * loads eagerly, its `modulepreload` links, and every chunk those import statically
 * (followed transitively). Dynamic `import()` chunks are lazy and reported apart.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export type WebBundleResult =
  | {
      status: 'measured';
      distDirectory: string;
      builtAt: string;
      /** True when a file under web/src is newer than the build. */
      staleBuild: boolean;
      initialJsFiles: Array<{ file: string; bytes: number; gzipBytes: number }>;
      initialJsGzipBytes: number;
      initialCssGzipBytes: number;
      lazyJsGzipBytes: number;
    }
  | { status: 'missing'; distDirectory: string; howToBuild: string };

const attribute = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1] ?? null;

/** Static imports of an ES module chunk (`import … from "./x.js"`, `import "./x.js"`), not `import()`. */
function staticImports(code: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?["']([^"']+\.m?js)["']/g;
  for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function newestModification(directory: string): number {
  let newest = 0;
  if (!existsSync(directory)) return newest;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestModification(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function measureWebBundle(repositoryRoot: string): WebBundleResult {
  const distDirectory = path.join(repositoryRoot, 'web', 'dist');
  const indexFile = path.join(distDirectory, 'index.html');
  if (!existsSync(indexFile)) {
    return { status: 'missing', distDirectory, howToBuild: 'COREPACK_ENABLE_DOWNLOAD_PROMPT=0 corepack pnpm build:web   (or: npm start, which builds it)' };
  }
  const html = readFileSync(indexFile, 'utf8');
  const toFile = (reference: string, from: string) => (reference.startsWith('/') ? path.join(distDirectory, reference) : path.resolve(from, reference));
  const queue: string[] = [];
  const css: string[] = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    if (/^<script/i.test(tag) && attribute(tag, 'type') === 'module' && attribute(tag, 'src')) queue.push(toFile(attribute(tag, 'src')!, distDirectory));
    if (/^<link/i.test(tag) && attribute(tag, 'rel') === 'modulepreload' && attribute(tag, 'href')) queue.push(toFile(attribute(tag, 'href')!, distDirectory));
    if (/^<link/i.test(tag) && attribute(tag, 'rel') === 'stylesheet' && attribute(tag, 'href')) css.push(toFile(attribute(tag, 'href')!, distDirectory));
  }
  const initial = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (initial.has(file) || !existsSync(file)) continue;
    initial.add(file);
    for (const reference of staticImports(readFileSync(file, 'utf8'))) queue.push(toFile(reference, path.dirname(file)));
  }
  const gzipSize = (file: string) => gzipSync(readFileSync(file)).length;
  const initialJsFiles = [...initial].map((file) => ({ file: path.relative(distDirectory, file), bytes: statSync(file).size, gzipBytes: gzipSize(file) }));
  const assets = path.join(distDirectory, 'assets');
  const allJs = existsSync(assets) ? readdirSync(assets).filter((name) => /\.m?js$/.test(name)).map((name) => path.join(assets, name)) : [];
  const builtAt = statSync(indexFile).mtimeMs;
  return {
    status: 'measured',
    distDirectory,
    builtAt: new Date(builtAt).toISOString(),
    staleBuild: newestModification(path.join(repositoryRoot, 'web', 'src')) > builtAt,
    initialJsFiles,
    initialJsGzipBytes: initialJsFiles.reduce((sum, file) => sum + file.gzipBytes, 0),
    initialCssGzipBytes: css.filter((file) => existsSync(file)).reduce((sum, file) => sum + gzipSize(file), 0),
    lazyJsGzipBytes: allJs.filter((file) => !initial.has(file)).reduce((sum, file) => sum + gzipSize(file), 0),
  };
}
