/**
 * `pnpm fuzz`: the standing WebSocket frame fuzzer (SPEC §8). Runs the seeded frames against a
 * fresh server process, prints the report as tables and a final line, and exits non-zero if
 * any invariant was violated.
 *
 *   pnpm fuzz [--frames 10000] [--seed N] [--limits raised|default|both] [--max-frame-bytes 65536]
 *             [--time-limit-s 900] [--keep-data]
 *
 * Without --seed a seed is drawn and printed; pass it back to replay the same frames.
 * To reduce a violation: FUZZ_DEBUG=1 prints what each failing socket sent and received
 * (FUZZ_DEBUG=events: every event, not only errors); FUZZ_SERVER_LOG=file keeps the server's
 * log (FUZZ_SERVER_LOG_LEVEL=debug for more); --keep-data keeps the SQLite file.
 */
import { parseArgs } from 'node:util';
import { formatReport, runFuzz, type FuzzReport } from './run-fuzz';

const usage = 'usage: pnpm fuzz [--frames 10000] [--seed N] [--limits raised|default|both] [--max-frame-bytes N] [--time-limit-s N] [--keep-data]';

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    console.error(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})\n${usage}`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: {
    frames: { type: 'string' },
    seed: { type: 'string' },
    limits: { type: 'string' },
    'max-frame-bytes': { type: 'string' },
    'time-limit-s': { type: 'string' },
    'keep-data': { type: 'boolean' },
    help: { type: 'boolean' },
  },
  strict: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const frames = integer('frames', values.frames, 10_000, 1, 1_000_000);
// Drawn once and printed, so that any run can be replayed.
const seed = integer('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 32 - 1);
const maxFrameBytes = integer('max-frame-bytes', values['max-frame-bytes'], 65_536, 1024, 1_048_576);
const timeLimitMs = integer('time-limit-s', values['time-limit-s'], 900, 10, 86_400) * 1000;
const limits = values.limits ?? 'both';
if (!['raised', 'default', 'both'].includes(limits)) {
  console.error(`--limits must be raised, default or both\n${usage}`);
  process.exit(2);
}

const runs: Array<{ limits: 'raised' | 'default'; frames: number }> = [];
if (limits !== 'default') runs.push({ limits: 'raised', frames });
// The default budgets refuse most frames after the first few dozen: a smaller run is enough to fuzz with them on.
if (limits !== 'raised') runs.push({ limits: 'default', frames: limits === 'default' ? frames : Math.min(frames, 600) });

console.log(`seed ${seed} (replay with --seed ${seed})`);
const reports: FuzzReport[] = [];
for (const run of runs) {
  const report = await runFuzz({
    seed,
    frames: run.frames,
    limits: run.limits,
    maxFrameBytes,
    timeLimitMs,
    keepDataDir: values['keep-data'] ?? false,
    onProgress: (line) => console.log(`  … ${line}`),
  });
  console.log(`\n${formatReport(report)}\n`);
  reports.push(report);
}
const failed = reports.filter((report) => report.violations.length > 0);
console.log(
  failed.length === 0
    ? `fuzz passed: ${reports.map((report) => `${report.framesSent} frames (${report.limits} limits)`).join(' + ')}, seed ${seed}, no invariant violated`
    : `fuzz FAILED: ${failed.map((report) => `${report.violations.length} violations with ${report.limits} limits`).join(', ')}; replay with --seed ${seed}`,
);
process.exit(failed.length === 0 ? 0 : 1);
