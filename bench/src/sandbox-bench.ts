/**
 * Code sandbox timings, with the default pools (two Pyodide threads, two QuickJS
 * threads; every run in a fresh interpreter):
 * - cold start: the first `warm()` (one Pyodide cold start, the second thread
 *   from its boot image; QuickJS alongside);
 * - a spare: how long a thread takes, after a run, to have its next fresh
 *   interpreter ready (measured as the following `warm()`);
 * - per-run wall time for a count_chars submission with 6 tests when a spare is
 *   ready, and back to back (runs arriving faster than spares boot);
 * - a thread restart after a run that had to be terminated (from the boot image);
 * - the memory the threads add.
 *
 *   pnpm exec tsx bench/src/sandbox-bench.ts [runs per language, default 50]
 */
import { createSandbox, type CodeTest, type RunRequest, type Sandbox } from '../../server/src/sandbox/index';

const RUNS = Number(process.argv[2] ?? 50);
const TESTS: CodeTest[] = [
  { args: ['héllo'], expected: 5 },
  { args: ['🙂'], expected: 1 },
  { args: [''], expected: 0 },
  { args: ['tutorloop'], expected: 9 },
  { args: ['a b c'], expected: 5 },
  { args: ['ñandú 🦤'], expected: 7 },
];
const SUBMISSIONS: RunRequest[] = [
  { language: 'python', code: 'def count_chars(text):\n    return len(text)\n', functionName: 'count_chars', tests: TESTS },
  { language: 'javascript', code: 'function count_chars(text) {\n  return [...text].length;\n}\n', functionName: 'count_chars', tests: TESTS },
];
const C_LEVEL_LOOP: RunRequest = { language: 'python', code: 'def count_chars(text):\n    return sum(range(10**12))\n', functionName: 'count_chars', tests: TESTS };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
const summary = (timings: number[]) => {
  const sorted = [...timings].sort((left, right) => left - right);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p95 ${percentile(sorted, 0.95).toFixed(1)} ms  max ${sorted.at(-1)?.toFixed(1)} ms`;
};

async function timed<T>(action: () => Promise<T>): Promise<[T, number]> {
  const startedAt = performance.now();
  const value = await action();
  return [value, performance.now() - startedAt];
}

async function runChecked(sandbox: Sandbox, submission: RunRequest): Promise<void> {
  const result = await sandbox.run(submission);
  if (result.passed !== result.total) throw new Error(`${submission.language}: expected full marks, got ${JSON.stringify(result)}`);
}

async function main(): Promise<void> {
  const sandbox = createSandbox();
  const rssBefore = process.memoryUsage().rss;
  const [, coldStartMs] = await timed(() => sandbox.warm());
  console.log(`cold start (warm(): 2 Pyodide threads, the second from the first's boot image; 2 QuickJS threads)  ${coldStartMs.toFixed(0)} ms`);
  console.log(`process RSS  before ${megabytes(rssBefore)}, after warm ${megabytes(process.memoryUsage().rss)}`);

  for (const submission of SUBMISSIONS) {
    const ready: number[] = [];
    const spares: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const [, runMs] = await timed(() => runChecked(sandbox, submission));
      ready.push(runMs);
      const [, spareMs] = await timed(() => sandbox.warm());
      spares.push(spareMs);
    }
    const [, backToBackMs] = await timed(async () => {
      for (let run = 0; run < RUNS; run += 1) await runChecked(sandbox, submission);
    });
    console.log(`${submission.language.padEnd(10)} ${RUNS} runs × ${TESTS.length} tests, a spare ready   ${summary(ready)}`);
    console.log(`${submission.language.padEnd(10)} next fresh interpreter ready after a run  ${summary(spares)}`);
    console.log(`${submission.language.padEnd(10)} ${RUNS} runs back to back                  ${(backToBackMs / RUNS).toFixed(1)} ms per run`);
  }

  const [looped, loopMs] = await timed(() => sandbox.run(C_LEVEL_LOOP));
  const [, restartMs] = await timed(() => sandbox.warm());
  console.log(`python     C-level loop ends (${looped.error?.kind}) after ${loopMs.toFixed(0)} ms; the replacement thread is ready ${restartMs.toFixed(0)} ms later`);
  console.log(`process RSS after runs ${megabytes(process.memoryUsage().rss)}`);
  await sandbox.close();
}

await main();
