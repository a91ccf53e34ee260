// `npm start`: install what is missing, build the web app, then serve web + API + WebSocket
// on one port (migrations are applied by the server at start). Configuration: README.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, env, root } from './bootstrap.mjs';

ensureDependencies();
ensureWebBuild();

const serverDir = path.join(root, 'server');
// Node runs the server itself with tsx as a loader: one process, signals reach it directly.
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
