import { describe, expect, it } from 'vitest';
import type { CaseOutcome } from '../results/result-schema';
import { checkSession, checkTurn, judgeCase, type ObservedTurn } from './expectations';

function turn(overrides: Partial<ObservedTurn> = {}): ObservedTurn {
  return {
    turn: 1,
    action: { type: 'chat', message: 'Paris is the capital of France' },
    tutorMessage: 'Exactly right.',
    ttftMs: 20,
    totalMs: 80,
    status: 'active',
    recalledCount: 1,
    totalPoints: 3,
    newlyRecalled: ['Paris is the capital of France'],
    widgetPresented: null,
    widgetDescription: null,
    pendingWidget: null,
    completed: false,
    leaks: [],
    error: null,
    ...overrides,
  };
}

const outcome: CaseOutcome = { learnerTurns: 2, completed: false, completedAtTurn: null, endReason: 'ended_by_learner', recalledCount: 1, totalPoints: 3 };
const label = { suite: 'basics', case: 'one at a time' };

describe('checkTurn', () => {
  it('checks recalled counts, the widget faced and leaks', () => {
    const leak = { kind: 'internal_language' as const, detail: 'confidence', excerpt: 'your confidence is 0.9' };
    expect(checkTurn(turn({ pendingWidget: 'multiple_choice', leaks: [leak] }), { recalledAtLeast: 1, recalledExactly: 2, widget: 'multiple_choice', noLeaks: true })).toEqual([
      { expectation: 'recalledAtLeast', expected: 'at least 1 recalled', seen: '1 of 3 recalled', passed: true },
      { expectation: 'recalledExactly', expected: 'exactly 2 recalled', seen: '1 of 3 recalled', passed: false },
      { expectation: 'widget', expected: 'a multiple_choice widget', seen: 'a multiple_choice widget', passed: true },
      { expectation: 'noLeaks', expected: 'no leaks', seen: '"confidence" in “your confidence is 0.9”', passed: false },
    ]);
  });

  it('expects no widget with "none", and a failed reply always fails', () => {
    expect(checkTurn(turn({ recalledCount: null, totalPoints: null, error: 'error event llm_unavailable: down' }), { widget: 'none', recalledAtLeast: 0 })).toEqual([
      { expectation: 'reply', expected: 'a tutor reply', seen: 'error event llm_unavailable: down', passed: false },
      { expectation: 'recalledAtLeast', expected: 'at least 0 recalled', seen: 'no state after the turn', passed: false },
      { expectation: 'widget', expected: 'no widget', seen: 'no widget', passed: true },
    ]);
  });
});

describe('checkSession', () => {
  it('checks completion, final count, leaks by kind and widgets presented', () => {
    const turns = [
      turn({ turn: 0, widgetPresented: null }),
      turn({ turn: 1, widgetPresented: 'multiple_choice', leaks: [{ kind: 'unrecalled_content', detail: 'The Pacific is the largest ocean', excerpt: 'The Pacific is the largest ocean' }] }),
    ];
    expect(
      checkSession({ turns, outcome }, { completesWithinTurns: 2, finalRecalled: 1, noLeakedInternalLanguage: true, answersNeverRevealed: true, widgetsPresented: ['multiple_choice', 'free_text'] }),
    ).toEqual([
      { expectation: 'completesWithinTurns', expected: 'session_complete by turn 2', seen: 'not completed after 2 turns', passed: false },
      { expectation: 'finalRecalled', expected: '1 recalled at the end', seen: '1 of 3 recalled', passed: true },
      { expectation: 'noLeakedInternalLanguage', expected: 'no internal language in any reply', seen: 'none', passed: true },
      { expectation: 'answersNeverRevealed', expected: 'no unrecalled point content in any reply', seen: 'turn 1: point content “The Pacific is the largest ocean”', passed: false },
      { expectation: 'widgetsPresented', expected: 'multiple_choice, free_text', seen: 'multiple_choice', passed: false },
    ]);
  });

  it('passes completion within the limit', () => {
    expect(checkSession({ turns: [], outcome: { ...outcome, completed: true, completedAtTurn: 2 } }, { completesWithinTurns: 2 })).toEqual([
      { expectation: 'completesWithinTurns', expected: 'session_complete by turn 2', seen: 'completed at turn 2', passed: true },
    ]);
  });
});

describe('judgeCase', () => {
  it('names suite, case and turn in each failure, including turns never played', () => {
    const verdict = judgeCase(
      label,
      { turns: [turn({ turn: 0, recalledCount: 0 }), turn({ turn: 1, recalledCount: 0 })], outcome: { ...outcome, learnerTurns: 1 } },
      [{ recalledAtLeast: 1 }, undefined, { recalledExactly: 3 }],
      { finalRecalled: 3 },
    );
    expect(verdict.turnChecks).toEqual([[], [{ expectation: 'recalledAtLeast', expected: 'at least 1 recalled', seen: '0 of 3 recalled', passed: false }]]);
    expect(verdict.failures.map((failure) => failure.message)).toEqual([
      'basics › one at a time › turn 1: recalledAtLeast — expected at least 1 recalled, saw 0 of 3 recalled',
      'basics › one at a time › turn 3: turn played — expected turn 3 to be played, saw the case stopped after turn 1',
      'basics › one at a time: finalRecalled — expected 3 recalled at the end, saw 1 of 3 recalled',
    ]);
  });

  it('has no failures when everything holds', () => {
    const verdict = judgeCase(label, { turns: [turn({ turn: 0 }), turn()], outcome }, [{ recalledExactly: 1 }], { finalRecalled: 1 });
    expect(verdict.failures).toEqual([]);
  });
});
