/**
 * The core's boundaries (ARCHITECTURE.md, STYLE "Core and I/O"): session types never import
 * one another (shared machinery lives in session/), the core imports no I/O package, and test
 * libraries stay in tests and their support files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const core = path.dirname(fileURLToPath(import.meta.url));

/** One folder per session type; `session/` holds what they share and imports none of them. */
const sessionTypeFolders = ['recall', 'assessment-session', 'learning'];
const ioPackages = ['ws', 'fastify', 'drizzle-orm', 'better-sqlite3', '@anthropic-ai/sdk', 'openai'];
const testLibraries = ['vitest', '@playwright/test', 'fast-check'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

const isTest = (file: string) => file.endsWith('.test.ts');
/** Modules only tests import: fixtures, the storage contract. */
const isTestSupport = (file: string) =>
  /(?:test-support|test-fixtures)\.ts$/.test(file) || file.endsWith('.contract.ts') || file.includes(`${path.sep}contract${path.sep}`);

/** The top folder under core/ a file or a relative import lands in. */
function coreFolderOf(file: string): string | null {
  const relative = path.relative(core, file);
  if (relative.startsWith('..')) return null;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first! : null;
}

const isPackage = (specifier: string, name: string) => specifier === name || specifier.startsWith(`${name}/`);

describe('core boundaries', () => {
  const files = sourceFiles(core);

  it('has the session type folders it checks', () => {
    const folders = new Set(files.map(coreFolderOf));
    for (const folder of [...sessionTypeFolders, 'session']) expect(folders.has(folder)).toBe(true);
  });

  it('never imports one session type from another, nor a session type from the shared machinery', () => {
    const crossings = files.flatMap((file) => {
      const from = coreFolderOf(file);
      if (from === null || !(sessionTypeFolders.includes(from) || from === 'session')) return [];
      return importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ from, to: coreFolderOf(path.resolve(path.dirname(file), specifier)), file: path.relative(core, file), specifier }))
        .filter(({ from: source, to }) => to !== null && to !== source && sessionTypeFolders.includes(to));
    });
    expect(crossings).toEqual([]);
  });

  it('imports no I/O package (sockets, HTTP, database drivers, model SDKs)', () => {
    const io = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => ioPackages.some((name) => isPackage(specifier, name)))
        .map((specifier) => ({ file: path.relative(core, file), specifier })),
    );
    expect(io).toEqual([]);
  });

  it('imports a test library only in tests and their support files, which production code never imports', () => {
    const outside = files
      .filter((file) => !isTest(file) && !isTestSupport(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => testLibraries.some((name) => isPackage(specifier, name)) || /(?:test-support|test-fixtures|\.contract)$|\/contract\//.test(specifier))
          .map((specifier) => ({ file: path.relative(core, file), specifier })),
      );
    expect(outside).toEqual([]);
  });
});
