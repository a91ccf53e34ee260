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
const sessionTypeFolders = ['recall', 'assessment-session', 'learning', 'thought', 'survey', 'cloze'];
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

/**
 * Every folder the registry (core/session-modules.ts) builds a module from, besides the shared
 * machinery: a session type added there is held to the type-free checks below without editing
 * this file.
 */
const registeredTypeFolders = [
  ...new Set(
    importsOf(path.join(core, 'session-modules.ts'))
      .filter((specifier) => specifier.startsWith('./') && specifier.slice(2).includes('/'))
      .map((specifier) => specifier.slice(2).split('/')[0]!)
      .filter((folder) => folder !== 'session'),
  ),
];
const typeFolders = [...new Set([...sessionTypeFolders, ...registeredTypeFolders])];

describe('core boundaries', () => {
  const files = sourceFiles(core);

  it('has the session type folders it checks', () => {
    const folders = new Set(files.map(coreFolderOf));
    for (const folder of [...sessionTypeFolders, 'session']) expect(folders.has(folder)).toBe(true);
  });

  it('never imports one session type from another, nor a session type from the shared machinery', () => {
    const crossings = files.flatMap((file) => {
      const from = coreFolderOf(file);
      if (from === null || !(typeFolders.includes(from) || from === 'session')) return [];
      return importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ from, to: coreFolderOf(path.resolve(path.dirname(file), specifier)), file: path.relative(core, file), specifier }))
        .filter(({ from: source, to }) => to !== null && to !== source && typeFolders.includes(to));
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

  it('reads the session type folders from the registry', () => {
    expect(registeredTypeFolders).toEqual(expect.arrayContaining(['recall', 'assessment-session', 'learning', 'thought', 'survey']));
    const folders = new Set(files.map(coreFolderOf));
    for (const folder of registeredTypeFolders) expect(folders.has(folder)).toBe(true);
  });

  it('keeps storage, llm/ and the provider port free of session types: no type folder imported, no type named in a comparison (issue 23)', () => {
    // The registries (core/session-modules.ts, core/session-type-states.ts) hand storage the
    // types' schemas and snapshot needs and build each type's model port in its own folder, so
    // a new type never touches these files.
    const typeFree = [path.join(core, 'storage'), path.join(server, 'db'), path.join(server, 'llm')];
    const providerPort = [path.join(core, 'provider.ts'), path.join(core, 'offline', 'offline-provider.ts')];
    const typeNames = SessionType.options.join('|');
    const typeComparison = new RegExp(`\\btype\\s*[!=]==?\\s*['"](?:${typeNames})['"]|['"](?:${typeNames})['"]\\s*[!=]==?\\s*[\\w.?]*\\btype\\b`);
    const scanned = [...typeFree.flatMap(sourceFiles), ...providerPort];
    expect(scanned.length).toBeGreaterThan(40);
    expect(scanned.filter((file) => file.startsWith(`${path.join(server, 'llm')}${path.sep}`)).length).toBeGreaterThan(10);
    const imports = scanned.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => ({ file: path.relative(server, file), specifier, to: coreFolderOf(path.resolve(path.dirname(file), specifier)) }))
        .filter(({ to }) => to !== null && typeFolders.includes(to)),
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
