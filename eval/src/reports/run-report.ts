/**
 * The readable report of a run: metadata, a summary table, the failures, then per case
 * and per turn what the learner did, what the tutor answered, points recalled against the
 * expectation, time to first token and to the whole reply, widgets, leaks and checks.
 */
import type { CaseResult, Check, LearnerAction, RunResult, TurnRecord } from '../results/result-schema';
import type { Block, ReportDocument } from './document';
import { formatMs, formatRecalled, plural, statusLabels, truncate } from './format';

function describeAction(action: LearnerAction): string {
  switch (action.type) {
    case 'opening':
      return '(opening)';
    case 'chat':
      return `“${truncate(action.message, 120)}”`;
    case 'widget_answer':
      return `${action.widgetKind}: “${truncate(action.answer, 100)}”`;
    case 'stuck':
      return '(could not play)';
    default: {
      const unreachable: never = action;
      throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
    }
  }
}

function describeCheck(check: Check): string {
  return `${check.passed ? '✅' : '❌'} ${check.expectation}: expected ${check.expected}, saw ${check.seen}`;
}

function describeWidget(turn: TurnRecord): string {
  if (turn.widgetPresented) return `new ${turn.widgetDescription ?? turn.widgetPresented}`;
  if (turn.pendingWidget) return `${turn.pendingWidget} (still pending)`;
  return '—';
}

function describeRecalled(turn: TurnRecord): string {
  if (turn.learning) {
    // Learning sessions: the step after the turn, and (for the author) what the tutor made of the turn.
    const { step, totalSteps, stepType, questionOpen } = turn.learning;
    const agents = turn.agents ? [turn.agents.calls.join(', '), turn.agents.turnSummary].filter(Boolean).join(' — ') : '';
    return [`step ${step}/${totalSteps} (${stepType}${questionOpen ? ', question open' : ''})`, agents ? truncate(agents, 160) : ''].filter(Boolean).join('\n');
  }
  const count = formatRecalled(turn.recalledCount, turn.totalPoints);
  const fresh = turn.newlyRecalled.map((content) => `+ “${truncate(content, 60)}”`);
  return [count, ...fresh].join('\n');
}

function turnRow(turn: TurnRecord): string[] {
  const leaks = turn.leaks.map((leak) =>
    leak.kind === 'internal_language' ? `⚠ ${leak.detail}: “${leak.excerpt}”` : leak.kind === 'expected_answer' ? `⚠ ${leak.excerpt} (${leak.detail})` : `⚠ content: “${leak.excerpt}”`,
  );
  const tutor = turn.error ? `⚠ ${turn.error}` : truncate(turn.tutorMessage, 200);
  return [
    String(turn.turn),
    describeAction(turn.action),
    tutor,
    describeRecalled(turn),
    formatMs(turn.ttftMs),
    formatMs(turn.totalMs),
    describeWidget(turn),
    leaks.join('\n') || '—',
    turn.checks.map(describeCheck).join('\n') || '—',
  ];
}

function widgetsMet(result: CaseResult): string {
  const kinds = [...new Set(result.turns.flatMap((turn) => (turn.widgetPresented ? [turn.widgetPresented] : [])))];
  return kinds.join(', ') || '—';
}

function summaryRow(result: CaseResult): string[] {
  return [
    result.suite,
    result.case,
    statusLabels[result.status],
    formatRecalled(result.outcome.recalledCount, result.outcome.totalPoints),
    result.outcome.completedAtTurn === null ? '—' : String(result.outcome.completedAtTurn),
    String(result.outcome.learnerTurns),
    formatMs(result.metrics.meanTtftMs),
    formatMs(result.metrics.meanTotalMs),
    String(result.metrics.leaks),
    widgetsMet(result),
  ];
}

function caseBlocks(result: CaseResult): Block[] {
  const blocks: Block[] = [{ type: 'heading', level: 3, text: `${result.suite} › ${result.case} — ${statusLabels[result.status]}` }];
  if (result.description) blocks.push({ type: 'paragraph', text: result.description });
  const facts = [
    `Learner: ${result.learner}`,
    `${result.sessionType} session${result.sessionId ? ` ${result.sessionId}` : ''}`,
    result.outcome.endReason ? `ended: ${result.outcome.endReason}` : null,
    `took ${formatMs(result.durationMs)}`,
  ].filter((fact): fact is string => fact !== null);
  blocks.push({ type: 'paragraph', text: facts.join(' · ') });
  if (result.reason) blocks.push({ type: 'paragraph', text: `${result.status === 'not_run' ? 'Not run' : 'Failed'}: ${result.reason}` });
  if (result.turns.length > 0) {
    blocks.push({
      type: 'table',
      header: ['turn', 'learner', 'tutor', 'recalled', 'TTFT', 'total', 'widget', 'leaks', 'checks'],
      rows: result.turns.map(turnRow),
    });
  }
  if (result.sessionChecks.length > 0) blocks.push({ type: 'list', items: result.sessionChecks.map((check) => `Session: ${describeCheck(check)}`) });
  return blocks;
}

export function runReport(run: RunResult): ReportDocument {
  const { metadata, summary } = run;
  const server = metadata.server === 'started' ? `${metadata.serverUrl} (started by eval on a temporary database)` : metadata.serverUrl;
  const failures = run.cases.flatMap((result) => result.failures.map((failure) => failure.message));
  const notRun = run.cases.filter((result) => result.status === 'not_run').map((result) => `${result.suite} › ${result.case}: ${result.reason ?? 'not run'}`);
  const document: ReportDocument = [
    { type: 'heading', level: 1, text: `tutorloop evaluation${metadata.label ? `: ${metadata.label}` : ''}` },
    {
      type: 'table',
      header: ['run', ''],
      rows: [
        ['server', server],
        ['tutor', `${metadata.tutor} (server ${metadata.serverVersion})`],
        ['started', metadata.startedAt],
        ['ended', `${metadata.endedAt} (${formatMs(metadata.durationMs)})`],
        ['concurrency', String(metadata.concurrency)],
        ['suites', metadata.suites.map((suite) => `${suite.name} (${suite.file}, ${plural(suite.cases, 'case', 'cases')})`).join('\n')],
      ],
    },
    { type: 'paragraph', text: `Result: ${summary.passed} passed, ${summary.failed} failed, ${summary.notRun} not run (${plural(summary.cases, 'case', 'cases')}).` },
    { type: 'heading', level: 2, text: 'Summary' },
    {
      type: 'table',
      header: ['suite', 'case', 'result', 'recalled', 'completed at turn', 'turns', 'mean TTFT', 'mean total', 'leaks', 'widgets'],
      rows: run.cases.map(summaryRow),
    },
  ];
  if (failures.length > 0) document.push({ type: 'heading', level: 2, text: 'Failures' }, { type: 'list', items: failures });
  if (notRun.length > 0) document.push({ type: 'heading', level: 2, text: 'Not run' }, { type: 'list', items: notRun });
  document.push({ type: 'heading', level: 2, text: 'Cases' });
  for (const result of run.cases) document.push(...caseBlocks(result));
  return document;
}
