// `npm test`: every test suite — typecheck, the regular-expression lint, unit + integration (vitest), end-to-end
// (Playwright in Debian's Chromium) — after installing what is missing, Chromium and PostgreSQL included.
// Ends with one line "N passed, N failed".
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, run, runPnpm, root } from './bootstrap.mjs';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(`Chromium is missing at ${chromiumPath}. Install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  console.log("Installing Debian's Chromium for the end-to-end tests…");
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run(['apt-get', 'update', '-qq'], { env: environment }) !== 0 || run(['apt-get', 'install', '-y', '-qq', 'chromium'], { env: environment }) !== 0) {
    console.error('Installing chromium with apt-get failed: see the output above.');
    process.exit(1);
  }
}

/** PostgreSQL's server binaries: the storage suites start a throwaway server of their own (server/test/helpers/postgres-server.ts). */
function ensurePostgres() {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).some((folder) => folder && existsSync(path.join(folder, 'initdb')));
  const debianRoot = '/usr/lib/postgresql';
  const inDebianFolder = existsSync(debianRoot) && readdirSync(debianRoot).some((version) => existsSync(path.join(debianRoot, version, 'bin', 'initdb')));
  if (onPath || inDebianFolder) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error("PostgreSQL's initdb is missing. Install Debian's postgresql package (apt-get install postgresql) for the storage tests.");
    process.exit(1);
  }
  console.log("Installing Debian's PostgreSQL for the storage tests…");
  const environment = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run(['apt-get', 'update', '-qq'], { env: environment }) !== 0 || run(['apt-get', 'install', '-y', '-qq', 'postgresql'], { env: environment }) !== 0) {
    console.error('Installing postgresql with apt-get failed: see the output above.');
    process.exit(1);
  }
}

ensureDependencies();
ensureChromium();
ensurePostgres();
ensureWebBuild();

const reports = path.join(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;

console.log('\n== Typecheck ==');
const typecheck = runPnpm(['-r', 'run', 'typecheck']);
if (typecheck === 0) passed += 1;
else failed += 1;

// SPEC §8: no super-linear regular expression (eslint-plugin-regexp only; eslint.config.mjs).
console.log('\n== Regular expressions ==');
const regexLint = runPnpm(['run', 'lint:regex']);
if (regexLint === 0) passed += 1;
else failed += 1;

console.log('\n== Unit and integration tests (vitest) ==');
const vitestReport = path.join(reports, 'vitest.json');
runPnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${vitestReport}`]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numTotalTestSuites > 0 && report.success === false && report.numFailedTests === 0 ? 1 : 0);
} else {
  failed += 1;
}

console.log('\n== End-to-end tests (Playwright, Chromium) ==');
const playwrightReport = path.join(reports, 'playwright.json');
runPnpm(['--filter', '@tutorloop/e2e', 'exec', 'playwright', 'test'], {
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport, CHROMIUM_PATH: chromiumPath },
});
if (existsSync(playwrightReport)) {
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += report.stats.expected + (report.stats.flaky ?? 0);
  failed += report.stats.unexpected;
  if (report.errors?.length) failed += 1;
} else {
  failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
