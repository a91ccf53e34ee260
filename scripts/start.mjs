// `npm start`: install what is missing, build the web app, then serve web + API + WebSocket
// on one port (migrations are applied by the server at start). Configuration: README.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, env, root } from './bootstrap.mjs';

ensureDependencies();
ensureWebBuild();

const serverDir = path.join(root, 'server');
// Node runs the server itself with tsx as a loader: one process, signals reach it directly.
// glibc keeps a malloc arena per thread; scrypt's 16 MiB per hash on libuv's threads would
// otherwise stay resident (~74 MB after a burst of sign-ups). Two arenas return it.
const serverEnv = { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' };
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: serverEnv, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
