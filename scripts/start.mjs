// `npm start`: install what is missing, build the web app and the server (each only when its
// sources changed), then serve web + API + WebSocket on one port with plain Node running the
// compiled server (migrations are applied by the server at start). Configuration: README.
// Development with reloading: `corepack pnpm --filter @tutorloop/server dev` (tsx watch).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, ensureServerBuild, ensureWebBuild, env, root } from './bootstrap.mjs';

ensureDependencies();
ensureWebBuild();
await ensureServerBuild();

// Node runs the compiled server itself: one process, signals reach it directly.
// glibc keeps a malloc arena per thread; scrypt's 16 MiB per hash on libuv's threads would
// otherwise stay resident (~74 MB after a burst of sign-ups). Two arenas return it.
const serverEnv = { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' };
// No --enable-source-maps: with it Node reads and keeps the source map of every module it loads,
// node_modules' included (about 7 MB of heap at idle, issue 27). The bundle is not minified, so a
// stack trace still names each function, and `// server/src/…` comments in dist/main.js name the
// file above each line; for traces mapped to the TypeScript sources start with
// `NODE_OPTIONS=--enable-source-maps npm start` (dist/*.js.map are written for that).
const server = spawn(process.execPath, [path.join('dist', 'main.js')], {
  cwd: path.join(root, 'server'),
  env: serverEnv,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
