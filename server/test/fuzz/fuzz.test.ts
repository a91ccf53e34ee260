/**
 * The standing frame fuzzer, in `npm test` (SPEC §8: "no frame can kill the server"): a few
 * thousand seeded frames against the real server process with budgets raised so they hide
 * nothing, and a smaller run under the server's default budgets. `pnpm fuzz` runs 10,000+.
 * A failure prints the whole report; replay it with `pnpm fuzz --seed <seed> --frames <n>`.
 */
import { describe, expect, it } from 'vitest';
import { frameKinds } from './frame-generator';
import { formatReport, runFuzz, verdict, type FuzzReport } from './run-fuzz';

/** Pinned: the run is the same frames every time. */
const seed = 8_2024;

function expectNoViolation(report: FuzzReport): void {
  // The whole report in the failure message: counts, the violated invariants, the seed to replay.
  expect(report.violations, formatReport(report)).toEqual([]);
}

describe('frame fuzzer against the server process', () => {
  it('survives 2,500 seeded frames with raised budgets: no crash, every bad frame answered, every chat stored and answered once', async () => {
    const report = await runFuzz({ seed, frames: 2500, limits: 'raised', timeLimitMs: 150_000 });
    console.log(verdict(report));
    expectNoViolation(report);
    expect(report.stepsRun).toBe(2500);
    expect(report.framesSent).toBeGreaterThan(2300);
    for (const kind of frameKinds) expect(report.framesByKind[kind], kind).toBeGreaterThan(0);
    expect(report.server).toMatchObject({ alive: true, healthOk: true, errorLogLines: 0, uncaughtExceptions: 0, internalErrorEvents: 0, offSchemaEvents: 0 });
    expect(report.crashes).toBe(0);
    expect(report.database).toMatchObject({ integrity: 'ok', foreignKeyViolations: 0, duplicatedRows: 0, extraTutorReplies: 0, invalidUtf8Values: 0, refusedTextStored: 0, replayMismatches: 0 });
    expect(report.sockets.closedByServer).toBe(0);
    // Every edge refusal was seen, and no budget was hit.
    for (const code of ['invalid_json', 'unknown_type', 'invalid_payload', 'frame_too_large', 'binary_not_supported', 'widget_not_pending', 'session_ended']) {
      expect(report.errorsByCode[code] ?? 0, code).toBeGreaterThan(0);
    }
    expect(report.errorsByCode.rate_limited).toBeUndefined();
    // Valid chats: all stored once with their exact text, all answered.
    expect(report.chats.sent).toBeGreaterThan(300);
    expect(report.chats).toMatchObject({ storedOnce: report.chats.sent - report.chats.notStoredAllowed, lost: 0, duplicated: 0, wrongContent: 0 });
    expect(report.chats.answered + report.chats.storedUnansweredSessionEnded).toBe(report.chats.storedOnce);
    expect(report.widgetAnswers.duplicated).toBe(0);
  }, 240_000);

  it('survives a flood under the default budgets: refused frames get one rate_limited per burst, nothing else changes', async () => {
    const report = await runFuzz({ seed: seed + 1, frames: 200, limits: 'default', timeLimitMs: 120_000 });
    console.log(verdict(report));
    expectNoViolation(report);
    expect(report.stepsRun).toBe(200);
    expect(report.errorsByCode.rate_limited ?? 0).toBeGreaterThan(0);
    expect(report.server).toMatchObject({ alive: true, healthOk: true, errorLogLines: 0, uncaughtExceptions: 0, internalErrorEvents: 0 });
    expect(report.crashes).toBe(0);
    expect(report.database).toMatchObject({ integrity: 'ok', duplicatedRows: 0, extraTutorReplies: 0, invalidUtf8Values: 0, refusedTextStored: 0 });
    expect(report.chats).toMatchObject({ lost: 0, duplicated: 0, wrongContent: 0 });
    expect(report.sockets.closedByServer).toBe(0);
  }, 180_000);
});
