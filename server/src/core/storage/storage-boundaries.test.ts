/** The storage port stays pure, and its contract stays test support (STYLE: core imports no I/O). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverSource = path.resolve(here, '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

const isTestSupport = (file: string) => file.endsWith('.test.ts') || file.endsWith('.contract.ts') || file.includes(`${path.sep}contract${path.sep}`);

describe('core/storage boundaries', () => {
  it('imports nothing but itself, the rest of core, the shared contract and zod', () => {
    const outside = sourceFiles(here)
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) => importsOf(file).map((specifier) => ({ file: path.relative(here, file), specifier })))
      .filter(({ file, specifier }) => {
        if (specifier.startsWith('./') || specifier.startsWith('../')) return false;
        if (specifier === '@tutorloop/shared' || specifier === 'zod') return false;
        return !(specifier === 'vitest' && isTestSupport(path.join(here, file)));
      });
    expect(outside).toEqual([]);
  });

  it('keeps the contract out of production code: only tests and the contract itself import it', () => {
    const importers = sourceFiles(serverSource)
      .filter((file) => !isTestSupport(file))
      .filter((file) => importsOf(file).some((specifier) => specifier.endsWith('.contract') || specifier.includes('/contract/')))
      .map((file) => path.relative(serverSource, file));
    expect(importers).toEqual([]);
  });
});
