/**
 * Where the server's files are on disk: one resolver for the TypeScript sources (tsx,
 * vitest: this file is server/src/paths.ts) and the compiled build (`npm start`: this code is
 * inside server/dist/main.js, or a worker bundle next to it). Both sit one folder below the
 * server package, so every path here is the same in either mode. A bundle gives each module
 * its output file's `import.meta.url`, which is why modules deeper in src/ must not resolve
 * data folders from their own `import.meta.url`: they ask here instead.
 *
 * Worker entries and the files they read (a relative `new URL(…, import.meta.url)`) are the
 * exception: scripts/build-server.mjs writes each one flat into dist/ under its own name, so
 * that relative URL finds it in both modes, and the build fails if one is missing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package folder (`server/`). */
export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The repository (or the image's application folder): package.json, .env, data/, web/dist. */
export const repositoryRoot = path.resolve(serverRoot, '..');

/** Data the server reads at run time, shipped beside the code rather than bundled into it. */
export const serverPaths = {
  sqliteMigrations: path.join(serverRoot, 'drizzle'),
  postgresMigrations: path.join(serverRoot, 'drizzle-postgres'),
  blueprints: path.join(serverRoot, 'blueprints'),
  studyPlans: path.join(serverRoot, 'study-plans'),
  surveys: path.join(serverRoot, 'surveys'),
  webDist: path.join(repositoryRoot, 'web', 'dist'),
} as const;
