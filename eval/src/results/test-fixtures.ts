/** Small, fixed run results for report and compare tests. */
import type { CaseResult, RunResult, TurnRecord } from './result-schema';

export function fixtureTurn(overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    turn: 1,
    action: { type: 'chat', message: 'Paris is the capital of France' },
    tutorMessage: 'Exactly right. One left.',
    ttftMs: 20,
    totalMs: 80,
    status: 'active',
    recalledCount: 1,
    totalPoints: 2,
    newlyRecalled: ['Paris is the capital of France'],
    widgetPresented: null,
    widgetDescription: null,
    pendingWidget: null,
    completed: false,
    leaks: [],
    error: null,
    checks: [{ expectation: 'recalledExactly', expected: 'exactly 1 recalled', seen: '1 of 2 recalled', passed: true }],
    ...overrides,
  };
}

export function fixtureCase(overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    suite: 'basics',
    suiteFile: 'eval/suites/basics.json',
    case: 'one at a time',
    sessionType: 'recall',
    learner: 'scripted (2 turns)',
    status: 'passed',
    reason: null,
    sessionId: 'session-1',
    turns: [
      fixtureTurn({ turn: 0, action: { type: 'opening' }, tutorMessage: 'Welcome! | Here is a keyword: “Paris”.', recalledCount: 0, newlyRecalled: [], checks: [] }),
      fixtureTurn(),
      fixtureTurn({
        turn: 2,
        action: { type: 'chat', message: 'Water boils at 100 degrees Celsius' },
        tutorMessage: 'That is everything.',
        ttftMs: 40,
        totalMs: 120,
        status: 'completed',
        recalledCount: 2,
        newlyRecalled: ['Water boils at 100 degrees Celsius'],
        completed: true,
        checks: [{ expectation: 'recalledExactly', expected: 'exactly 2 recalled', seen: '2 of 2 recalled', passed: true }],
      }),
    ],
    sessionChecks: [{ expectation: 'completesWithinTurns', expected: 'session_complete by turn 2', seen: 'completed at turn 2', passed: true }],
    failures: [],
    outcome: { learnerTurns: 2, completed: true, completedAtTurn: 2, endReason: 'all_recalled', recalledCount: 2, totalPoints: 2 },
    metrics: { meanTtftMs: 30, meanTotalMs: 100, leaks: 0 },
    durationMs: 900,
    ...overrides,
  };
}

export function fixtureRun(cases: CaseResult[], label: string | null = null): RunResult {
  const count = (status: CaseResult['status']) => cases.filter((result) => result.status === status).length;
  return {
    schemaVersion: 1,
    metadata: {
      label,
      serverUrl: 'http://127.0.0.1:3000',
      server: 'started',
      tutor: 'offline',
      serverVersion: '0.1.0',
      startedAt: '2025-01-02T10:00:00.000Z',
      endedAt: '2025-01-02T10:00:03.000Z',
      durationMs: 3000,
      concurrency: 2,
      suites: [{ name: 'basics', file: 'eval/suites/basics.json', cases: cases.length }],
      node: 'v20.19.0',
    },
    summary: { cases: cases.length, passed: count('passed'), failed: count('failed'), notRun: count('not_run') },
    cases,
  };
}

/** A failed variant of the fixture case. */
export function fixtureFailedCase(): CaseResult {
  const failed = fixtureCase();
  const message = 'basics › one at a time › turn 2: recalledExactly — expected exactly 2 recalled, saw 1 of 2 recalled';
  return {
    ...failed,
    status: 'failed',
    turns: failed.turns.map((turn) =>
      turn.turn === 2
        ? { ...turn, recalledCount: 1, newlyRecalled: [], status: 'active', completed: false, checks: [{ expectation: 'recalledExactly', expected: 'exactly 2 recalled', seen: '1 of 2 recalled', passed: false }] }
        : turn,
    ),
    failures: [{ turn: 2, expectation: 'recalledExactly', expected: 'exactly 2 recalled', seen: '1 of 2 recalled', message }],
    outcome: { learnerTurns: 2, completed: false, completedAtTurn: null, endReason: 'ended_by_learner', recalledCount: 1, totalPoints: 2 },
    sessionChecks: [],
    metrics: { meanTtftMs: 50, meanTotalMs: 110, leaks: 1 },
  };
}
