/**
 * The core's boundaries (ARCHITECTURE.md, STYLE "Core and I/O"): session types never import
 * one another (shared machinery lives in session/), the core imports no I/O package, test
 * libraries stay in test files (test suites shared by several files, such as the storage
 * contract, live in server/test/), and the storage port imports only core, shared and zod.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SessionType } from '@tutorloop/shared';

const core = path.dirname(fileURLToPath(import.meta.url));
const server = path.resolve(core, '..');

/** One folder per session type; `session/` holds what they share and imports none of them. */
const sessionTypeFolders = ['recall', 'assessment-session', 'learning', 'thought', 'survey'];
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
/** Fakes and fixtures beside the code (no test library in them): only tests import them. */
const isTestSupport = (file: string) => /(?:test-support|test-fixtures)\.ts$/.test(file);

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

  it('imports a test library only in test files, and production code imports no test support', () => {
    const libraries = files
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => testLibraries.some((name) => isPackage(specifier, name)))
          .map((specifier) => ({ file: path.relative(core, file), specifier })),
      );
    expect(libraries).toEqual([]);
    const support = files
      .filter((file) => !isTest(file) && !isTestSupport(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => /(?:test-support|test-fixtures)$|\/test\//.test(specifier))
          .map((specifier) => ({ file: path.relative(core, file), specifier })),
      );
    expect(support).toEqual([]);
  });

  it('keeps storage and its adapters free of session types: no type folder imported, no type named in a comparison (issue 23)', () => {
    // The registry (core/session-type-states.ts) hands storage the types' schemas and snapshot
    // needs, so a new type never touches these folders. llm/ is not held to this yet: the
    // learning and thought requests still build on their types' ports (see ARCHITECTURE.md).
    const typeFree = [path.join(core, 'storage'), path.join(server, 'db')];
    const typeNames = SessionType.options.join('|');
    const typeComparison = new RegExp(`\\btype\\s*[!=]==?\\s*['"](?:${typeNames})['"]|['"](?:${typeNames})['"]\\s*[!=]==?\\s*[\\w.?]*\\btype\\b`);
    const scanned = typeFree.flatMap(sourceFiles);
    expect(scanned.length).toBeGreaterThan(20);
    const imports = scanned.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ file: path.relative(server, file), specifier, to: coreFolderOf(path.resolve(path.dirname(file), specifier)) }))
        .filter(({ to }) => to !== null && sessionTypeFolders.includes(to)),
    );
    expect(imports).toEqual([]);
    const comparisons = scanned.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (typeComparison.test(line) ? [{ file: path.relative(server, file), line: index + 1, text: line.trim() }] : [])),
    );
    expect(comparisons).toEqual([]);
  });

  it('keeps the storage port pure: it imports only itself, the rest of core, the shared contract and zod', () => {
    const storage = path.join(core, 'storage');
    const outside = files
      .filter((file) => file.startsWith(`${storage}${path.sep}`) && !isTest(file))
      .flatMap((file) => importsOf(file).map((specifier) => ({ file: path.relative(core, file), specifier })))
      .filter(({ specifier }) => !specifier.startsWith('.') && specifier !== '@tutorloop/shared' && specifier !== 'zod');
    expect(outside).toEqual([]);
  });
});
