// Set-up shared by `npm start` and `npm test` on a machine that has only Node 20 and npm:
// pnpm through corepack (pinned by package.json's packageManager), dependencies, web build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const env = {
  ...process.env,
  COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
  // Native modules (better-sqlite3) build from source here: point node-gyp at the local
  // Node headers where they exist, instead of downloading them.
  ...(!process.env.npm_config_nodedir && existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {}),
};

let pnpmCommand = null;

/** How to run pnpm: corepack first, npx as a fallback. */
export function pnpm() {
  if (pnpmCommand) return pnpmCommand;
  const viaCorepack = spawnSync('corepack', ['pnpm', '--version'], { cwd: root, env, encoding: 'utf8' });
  if (viaCorepack.status === 0) pnpmCommand = ['corepack', 'pnpm'];
  else pnpmCommand = ['npx', '--yes', 'pnpm@9.15.9'];
  return pnpmCommand;
}

export function run(args, options = {}) {
  const [command, ...rest] = args;
  const result = spawnSync(command, rest, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function runPnpm(args, options = {}) {
  return run([...pnpm(), ...args], options);
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.modules.yaml');
  const lock = path.join(root, 'pnpm-lock.yaml');
  const packages = ['package.json', 'shared/package.json', 'server/package.json', 'web/package.json', 'e2e/package.json'];
  const stale = !existsSync(marker) || Math.max(newestMtime(lock), ...packages.map((file) => newestMtime(path.join(root, file)))) > newestMtime(marker);
  if (!stale) return;
  console.log('Installing dependencies (first run compiles better-sqlite3, about a minute)…');
  if (runPnpm(['install', '--frozen-lockfile']) !== 0) {
    console.error('Dependency installation failed: see the output above.');
    process.exit(1);
  }
}

/** Builds the web app when its build is missing or older than its sources. */
export function ensureWebBuild({ force = false } = {}) {
  const built = path.join(root, 'web', 'dist', 'index.html');
  const sources = Math.max(
    newestMtime(path.join(root, 'web', 'src')),
    newestMtime(path.join(root, 'web', 'index.html')),
    newestMtime(path.join(root, 'web', 'vite.config.ts')),
    newestMtime(path.join(root, 'shared', 'src')),
  );
  if (!force && existsSync(built) && newestMtime(built) >= sources) return;
  console.log('Building the web app…');
  if (runPnpm(['--filter', '@tutorloop/web', 'run', 'build']) !== 0) {
    console.error('The web build failed: see the output above.');
    process.exit(1);
  }
}

/** Compiles the server into server/dist when its sources changed (scripts/build-server.mjs keeps a stamp). */
export async function ensureServerBuild({ force = false } = {}) {
  const { buildServer } = await import('./build-server.mjs');
  try {
    await buildServer({ force });
  } catch (error) {
    console.error(`The server build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
