/**
 * Runs a browser module in Debian's Chromium from a vitest test: for code that needs a real
 * DOM (DOMPurify), where the repository has no jsdom or happy-dom. The module is bundled by
 * Vite (its `export default` is called with `input` in a headless page) and the page's DOM,
 * dumped by `chromium --dump-dom`, carries the result back as JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';

const webRoot = fileURLToPath(new URL('../..', import.meta.url));
/** As in e2e/playwright.config.ts. */
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const resultId = 'chromium-result';

/** JSON for inside a `<script>` element: no `<` that could close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

async function bundle(entry: string): Promise<string> {
  const output = (await build({
    configFile: false,
    root: webRoot,
    logLevel: 'silent',
    build: { write: false, minify: false, emptyOutDir: false, lib: { entry, formats: ['iife'], name: 'chromiumModule', fileName: () => 'module.js' }, rollupOptions: { output: { exports: 'named' } } },
  })) as Rollup.RollupOutput[];
  const chunk = output[0]?.output.find((file): file is Rollup.OutputChunk => file.type === 'chunk');
  if (!chunk) throw new Error('Vite produced no script');
  return chunk.code;
}

function dumpDom(file: string, profile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      chromium,
      ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--dump-dom', `file://${file}`],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${chromium} failed: ${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/**
 * Bundles `source` (a module whose imports are absolute paths or packages of web/), calls its
 * default export with `input` in Chromium and returns what it returned (JSON round-tripped).
 */
export async function runInChromium<T>(source: string, input: unknown): Promise<T> {
  const folder = mkdtempSync(path.join(tmpdir(), 'tutorloop-chromium-'));
  try {
    const entry = path.join(folder, 'entry.ts');
    writeFileSync(entry, source);
    const code = await bundle(entry);
    const page = path.join(folder, 'page.html');
    writeFileSync(
      page,
      `<!doctype html><html><head><meta charset="utf-8"></head><body>
<script>${code.replace(/<\/script/gi, '<\\/script')}</script>
<script>
  let result;
  try { result = { ok: true, value: chromiumModule.default(${scriptJson(input)}) }; }
  catch (error) { result = { ok: false, error: String((error && error.stack) || error) }; }
  const out = document.createElement('script');
  out.type = 'application/json';
  out.id = '${resultId}';
  out.textContent = JSON.stringify(result).replace(/</g, '\\\\u003c');
  document.body.append(out);
</script></body></html>`,
    );
    const dom = await dumpDom(page, path.join(folder, 'profile'));
    const start = dom.indexOf(`id="${resultId}">`);
    if (start < 0) throw new Error(`the page wrote no result:\n${dom.slice(0, 2000)}`);
    const json = dom.slice(start + `id="${resultId}">`.length, dom.indexOf('</script>', start));
    const result = JSON.parse(json) as { ok: true; value: T } | { ok: false; error: string };
    if (!result.ok) throw new Error(`the module threw in Chromium: ${result.error}`);
    return result.value;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
