/**
 * No SDK type crosses into the rest of the server (ARCHITECTURE.md, "How to add a model
 * provider"): the `openai` package is imported only under server/src/llm/transports/openai/,
 * as `@anthropic-ai/sdk` is only under transports/anthropic/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(?:ts|tsx|mts)$/.test(entry.name) ? [full] : [];
  });
}

/** Files (relative to server/src) that import `sdk` or one of its subpaths. */
function importersOf(sdk: string): string[] {
  const pattern = new RegExp(`(?:from\\s+|import\\s*\\(\\s*|require\\(\\s*)['"]${sdk.replace('/', '\\/')}(?:/[^'"]*)?['"]`);
  return sourceFiles(sourceRoot)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(sourceRoot, file).split(path.sep).join('/'));
}

describe('vendor SDK imports', () => {
  it('stay in their transport folders', () => {
    const openai = importersOf('openai');
    expect(openai.length).toBeGreaterThan(0);
    expect(openai.filter((file) => !file.startsWith('llm/transports/openai/'))).toEqual([]);
    expect(importersOf('@anthropic-ai/sdk').filter((file) => !file.startsWith('llm/transports/anthropic/'))).toEqual([]);
  });
});
