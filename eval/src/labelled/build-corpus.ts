/**
 * Builds eval/suites/labelled/corpus-dev.json and corpus-test.json from the hand-written
 * source eval/corpus/*.txt (issue 28): `corepack pnpm exec tsx eval/src/labelled/build-corpus.ts`.
 * The test split is frozen, so an existing file is never overwritten: `--check` only says
 * whether the files still match the source (exit code 1 when not).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../protocol/local-server';
import { corpusSuites, parseCorpusSource, serializeSuite } from './corpus-source';

export const corpusSourceFolder = path.join(repositoryRoot, 'eval', 'corpus');
export const corpusOutputFolder = path.join(repositoryRoot, 'eval', 'suites', 'labelled');

/** The source files, in name order (the order the turns are numbered in). */
export function readCorpusSource(folder = corpusSourceFolder): Array<{ name: string; text: string }> {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => ({ name: path.join('eval', 'corpus', name), text: readFileSync(path.join(folder, name), 'utf8') }));
}

function main(argv: readonly string[]): number {
  const parsed = parseCorpusSource(readCorpusSource());
  if (!parsed.ok) {
    console.error(`The corpus source has mistakes:\n${parsed.errors.map((error) => `  ${error}`).join('\n')}`);
    return 2;
  }
  const suites = corpusSuites(parsed.value);
  let stale = 0;
  for (const split of ['dev', 'test'] as const) {
    const file = path.join(corpusOutputFolder, `corpus-${split}.json`);
    const text = serializeSuite(suites[split]);
    if (existsSync(file)) {
      const same = readFileSync(file, 'utf8') === text;
      if (!same) stale += 1;
      console.log(`${path.relative(repositoryRoot, file)}: ${same ? 'matches the source' : 'differs from the source (left as it is: the test split is frozen)'}`);
    } else if (argv.includes('--check')) {
      stale += 1;
      console.log(`${path.relative(repositoryRoot, file)}: missing`);
    } else {
      writeFileSync(file, text);
      console.log(`${path.relative(repositoryRoot, file)}: written, ${suites[split].turns.length} turns`);
    }
  }
  return stale > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) process.exitCode = main(process.argv.slice(2));
