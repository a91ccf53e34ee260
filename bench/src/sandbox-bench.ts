/**
 * Code sandbox timings: cold start (the first `warm()`, Pyodide and QuickJS
 * threads booting in parallel), then per-run wall time for a count_chars
 * submission with 6 tests in Python and JavaScript, and the memory the threads add.
 *
 *   pnpm exec tsx bench/src/sandbox-bench.ts [runs per language, default 50]
 */
import { createSandbox, type CodeTest, type RunRequest } from '../../server/src/sandbox/index';

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

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;

async function main(): Promise<void> {
  const sandbox = createSandbox();
  const rssBefore = process.memoryUsage().rss;
  const coldStartedAt = performance.now();
  await sandbox.warm();
  const coldStartMs = performance.now() - coldStartedAt;
  console.log(`cold start (warm(): Pyodide + QuickJS threads)  ${coldStartMs.toFixed(0)} ms`);
  console.log(`process RSS  before ${megabytes(rssBefore)}, after warm ${megabytes(process.memoryUsage().rss)}`);

  for (const submission of SUBMISSIONS) {
    const timings: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const startedAt = performance.now();
      const result = await sandbox.run(submission);
      timings.push(performance.now() - startedAt);
      if (result.passed !== result.total) throw new Error(`${submission.language}: expected full marks, got ${JSON.stringify(result)}`);
    }
    timings.sort((left, right) => left - right);
    console.log(
      `${submission.language.padEnd(10)} ${RUNS} runs × ${TESTS.length} tests  p50 ${percentile(timings, 0.5).toFixed(1)} ms  p95 ${percentile(timings, 0.95).toFixed(1)} ms  max ${timings.at(-1)?.toFixed(1)} ms`,
    );
  }
  console.log(`process RSS after runs ${megabytes(process.memoryUsage().rss)}`);
  await sandbox.close();
}

await main();
