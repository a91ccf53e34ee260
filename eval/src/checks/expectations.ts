/**
 * Checking what was observed in a case against its expectations (eval/README.md
 * §"Expectations"). Pure: the runner records the turns, this module judges them.
 */
import type { StudyPlanContent } from '@tutorloop/shared';
import type { SessionExpectation, TurnExpectation } from '../suites/suite-schema';
import type { CaseOutcome, Check, Failure, LeakRecord, TurnRecord } from '../results/result-schema';
import { checkCompletesPlan, checkNoFalseOffTopic, checkOffTopicHandled, checkPostCompletionReply, checkQuestionLifecycle, checkStepsInOrder, checkTurnsAtMost, checkUnsafeHandled } from './learning-checks';

/** A turn as recorded, before it is judged. */
export type ObservedTurn = Omit<TurnRecord, 'checks'>;

export interface ObservedCase {
  /** The opening reply (turn 0) first, then each learner turn played. */
  turns: readonly ObservedTurn[];
  outcome: CaseOutcome;
  /** Learning sessions: the study plan (expected answers included). */
  plan?: StudyPlanContent | null;
}

export interface CaseLabel {
  suite: string;
  case: string;
}

export interface CaseVerdict {
  /** Checks per observed turn, aligned with `ObservedCase.turns`. */
  turnChecks: Check[][];
  sessionChecks: Check[];
  failures: Failure[];
}

function check(expectation: string, expected: string, seen: string, passed: boolean): Check {
  return { expectation, expected, seen, passed };
}

function recalledSeen(turn: ObservedTurn): string {
  if (turn.recalledCount === null) return 'no state after the turn';
  return `${turn.recalledCount} of ${turn.totalPoints ?? '?'} recalled`;
}

function widgetPhrase(kind: string | null): string {
  return kind === null || kind === 'none' ? 'no widget' : `a ${kind} widget`;
}

function describeLeak(leak: LeakRecord): string {
  switch (leak.kind) {
    case 'internal_language':
      return `"${leak.detail}" in “${leak.excerpt}”`;
    case 'unrecalled_content':
      return `point content “${leak.excerpt}”`;
    case 'expected_answer':
      return `${leak.excerpt} (${leak.detail})`;
    default: {
      const unreachable: never = leak.kind;
      throw new Error(`unknown leak kind ${String(unreachable)}`);
    }
  }
}

function describeLeaks(leaks: readonly LeakRecord[]): string {
  return leaks.length === 0 ? 'none' : leaks.map(describeLeak).join('; ');
}

/** The checks of one turn: its reply arrived, and each expectation given for it. */
export function checkTurn(turn: ObservedTurn, expectation: TurnExpectation | undefined): Check[] {
  const checks: Check[] = [];
  if (turn.error !== null) checks.push(check('reply', 'a tutor reply', turn.error, false));
  if (!expectation) return checks;
  const recalled = turn.recalledCount;
  if (expectation.recalledAtLeast !== undefined) {
    const wanted = expectation.recalledAtLeast;
    checks.push(check('recalledAtLeast', `at least ${wanted} recalled`, recalledSeen(turn), recalled !== null && recalled >= wanted));
  }
  if (expectation.recalledExactly !== undefined) {
    const wanted = expectation.recalledExactly;
    checks.push(check('recalledExactly', `exactly ${wanted} recalled`, recalledSeen(turn), recalled === wanted));
  }
  if (expectation.widget !== undefined) {
    const wanted = expectation.widget === 'none' ? null : expectation.widget;
    checks.push(check('widget', widgetPhrase(wanted), widgetPhrase(turn.pendingWidget), turn.pendingWidget === wanted));
  }
  if (expectation.noLeaks) {
    checks.push(check('noLeaks', 'no leaks', describeLeaks(turn.leaks), turn.leaks.length === 0));
  }
  if (expectation.step !== undefined) {
    const step = turn.learning?.step;
    checks.push(check('step', `step ${expectation.step}`, step === undefined ? 'no state.learning after the turn' : `step ${step} of ${turn.learning!.totalSteps}`, step === expectation.step));
  }
  return checks;
}

function leaksOfKind(turns: readonly ObservedTurn[], kinds: ReadonlyArray<LeakRecord['kind']>): string[] {
  return turns.flatMap((turn) => turn.leaks.filter((leak) => kinds.includes(leak.kind)).map((leak) => `turn ${turn.turn}: ${describeLeak(leak)}`));
}

/** The session-level checks. */
export function checkSession(observed: ObservedCase, expectation: SessionExpectation | undefined): Check[] {
  if (!expectation) return [];
  const { turns, outcome } = observed;
  const checks: Check[] = [];
  if (expectation.completesWithinTurns !== undefined) {
    const limit = expectation.completesWithinTurns;
    const at = outcome.completedAtTurn;
    const seen = at !== null ? `completed at turn ${at}` : `not completed after ${outcome.learnerTurns} ${outcome.learnerTurns === 1 ? 'turn' : 'turns'}`;
    checks.push(check('completesWithinTurns', `session_complete by turn ${limit}`, seen, at !== null && at <= limit));
  }
  if (expectation.finalRecalled !== undefined) {
    const wanted = expectation.finalRecalled;
    const seen = outcome.recalledCount === null ? 'no final state' : `${outcome.recalledCount} of ${outcome.totalPoints ?? '?'} recalled`;
    checks.push(check('finalRecalled', `${wanted} recalled at the end`, seen, outcome.recalledCount === wanted));
  }
  if (expectation.noLeakedInternalLanguage) {
    const found = leaksOfKind(turns, ['internal_language']);
    checks.push(check('noLeakedInternalLanguage', 'no internal language in any reply', found.join('; ') || 'none', found.length === 0));
  }
  if (expectation.answersNeverRevealed) {
    // Recall: a point's content before it was recalled; learning: a check answer before it was earned.
    const found = leaksOfKind(turns, ['unrecalled_content', 'expected_answer']);
    const expected = observed.plan ? 'no check answer in any frame before it was earned' : 'no unrecalled point content in any reply';
    checks.push(check('answersNeverRevealed', expected, found.join('; ') || 'none', found.length === 0));
  }
  if (expectation.widgetsPresented) {
    const presented = [...new Set(turns.flatMap((turn) => (turn.widgetPresented ? [turn.widgetPresented] : [])))];
    const missing = expectation.widgetsPresented.filter((kind) => !presented.includes(kind));
    checks.push(check('widgetsPresented', expectation.widgetsPresented.join(', '), presented.join(', ') || 'none', missing.length === 0));
  }
  checks.push(...checkLearning(observed, expectation));
  return checks;
}

/** The learning-session expectations; each fails clearly on a session that is not one. */
function checkLearning(observed: ObservedCase, expectation: SessionExpectation): Check[] {
  const { turns, outcome, plan } = observed;
  const wanted: Array<[keyof SessionExpectation, () => Check]> = [];
  if (expectation.stepsInOrder) wanted.push(['stepsInOrder', () => checkStepsInOrder(turns)]);
  if (expectation.completesPlan) wanted.push(['completesPlan', () => checkCompletesPlan(outcome, plan!)]);
  if (expectation.questionLifecycle) wanted.push(['questionLifecycle', () => checkQuestionLifecycle(expectation.questionLifecycle!, plan!, turns)]);
  if (expectation.offTopicHandled) wanted.push(['offTopicHandled', () => checkOffTopicHandled(turns)]);
  if (expectation.unsafeHandled) wanted.push(['unsafeHandled', () => checkUnsafeHandled(turns)]);
  if (expectation.noFalseOffTopic) wanted.push(['noFalseOffTopic', () => checkNoFalseOffTopic(turns)]);
  if (expectation.turnsAtMost !== undefined) wanted.push(['turnsAtMost', () => checkTurnsAtMost(turns, outcome, expectation.turnsAtMost!)]);
  if (expectation.postCompletionReply) wanted.push(['postCompletionReply', () => checkPostCompletionReply(turns)]);
  // repliesShorterThan compares two cases: run-evaluation judges it once both have run.
  return wanted.map(([name, judge]) => (plan ? judge() : check(name, 'a learning session', 'no study plan is known for this session', false)));
}

function failureMessage(label: CaseLabel, turn: number | null, failed: Check): string {
  const where = turn === null ? '' : turn === 0 ? ' › opening' : ` › turn ${turn}`;
  return `${label.suite} › ${label.case}${where}: ${failed.expectation} — expected ${failed.expected}, saw ${failed.seen}`;
}

export function toFailure(label: CaseLabel, turn: number | null, failed: Check): Failure {
  return { turn, expectation: failed.expectation, expected: failed.expected, seen: failed.seen, message: failureMessage(label, turn, failed) };
}

/**
 * Judges a case: every observed turn against its expectation (`turnExpectations[n - 1]`
 * for learner turn n), expectations of turns never played, and the session expectations.
 */
export function judgeCase(
  label: CaseLabel,
  observed: ObservedCase,
  turnExpectations: ReadonlyArray<TurnExpectation | undefined>,
  sessionExpectation: SessionExpectation | undefined,
): CaseVerdict {
  const failures: Failure[] = [];
  const turnChecks = observed.turns.map((turn) => {
    const checks = checkTurn(turn, turn.turn === 0 ? undefined : turnExpectations[turn.turn - 1]);
    for (const failed of checks.filter((item) => !item.passed)) failures.push(toFailure(label, turn.turn, failed));
    return checks;
  });
  const played = observed.outcome.learnerTurns;
  const why = observed.outcome.completedAtTurn !== null ? `the session completed at turn ${observed.outcome.completedAtTurn}` : `the case stopped after turn ${played}`;
  turnExpectations.forEach((expectation, index) => {
    const turn = index + 1;
    if (turn > played && expectation) failures.push(toFailure(label, turn, check('turn played', `turn ${turn} to be played`, why, false)));
  });
  const sessionChecks = checkSession(observed, sessionExpectation);
  for (const failed of sessionChecks.filter((item) => !item.passed)) failures.push(toFailure(label, null, failed));
  return { turnChecks, sessionChecks, failures };
}
