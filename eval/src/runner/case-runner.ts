/**
 * Runs one case end to end over the public protocol: opens the session (HTTP), connects
 * (WebSocket), records the opening reply, lets the learner play turn by turn — timing each
 * reply, reading the recalled count from `state_update`, which points were recalled from
 * the learner's cards, and checking what the learner sees for leaks — then ends the
 * session if it is still open and judges the record against the case's expectations.
 */
import { performance } from 'node:perf_hooks';
import type { ClientMessage } from '@tutorloop/shared';
import { judgeCase, toFailure } from '../checks/expectations';
import { meanReplyWords } from '../checks/learning-checks';
import { createLearner, type Learner, type LearnerEnvironment, type LearnerMove } from '../learners/learners';
import type { ApiClient } from '../protocol/api-client';
import { describeApiFailure } from '../protocol/api-client';
import { readReply, type Reply } from '../protocol/reply-events';
import { SessionSocket } from '../protocol/session-socket';
import type { CaseResult, LearnerAction } from '../results/result-schema';
import type { Suite } from '../suites/suite-schema';
import { openSession } from './open-session';
import { SessionTracker } from './session-tracker';

export interface CaseRunOptions {
  /** Authenticated as the evaluation's learner. */
  api: ApiClient;
  /** Longest wait for one reply (and for the socket to open). */
  turnTimeoutMs: number;
  environment: LearnerEnvironment;
}

type SuiteCase = Suite['cases'][number];

function mean(values: Array<number | null>): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

function describeEvents(socket: SessionSocket, from: number): string {
  const types = socket.events.slice(from).map(({ event }) => event.type);
  return types.length === 0 ? 'no events' : `events: ${types.join(', ')}`;
}

/** Waits for the whole reply to what was sent at `since` (events from index `from`). */
async function awaitReply(socket: SessionSocket, from: number, since: number, timeoutMs: number, endedBefore = false): Promise<{ ok: true; reply: Reply } | { ok: false; error: string }> {
  const found: { reply: Reply | null } = { reply: null };
  await socket.waitUntil((events) => (found.reply = readReply(events.slice(from), since, endedBefore)) !== null, timeoutMs);
  if (found.reply) return { ok: true, reply: found.reply };
  if (socket.closed) {
    return { ok: false, error: `the socket closed (${socket.closed.code}${socket.closed.reason ? ` ${socket.closed.reason}` : ''}) before the reply was complete` };
  }
  return { ok: false, error: `no complete reply within ${Math.round(timeoutMs / 1000)} s (${describeEvents(socket, from)})` };
}

function toClientMessage(move: Exclude<LearnerMove, { type: 'stuck' }>): ClientMessage {
  return move.type === 'chat'
    ? { type: 'chat', payload: { message: move.message } }
    : { type: 'widget_response', payload: { widgetId: move.widget.widgetId, response: move.response } };
}

function toAction(move: LearnerMove): LearnerAction {
  switch (move.type) {
    case 'chat':
      return { type: 'chat', message: move.message, ...(move.purpose ? { purpose: move.purpose } : {}) };
    case 'widget_answer':
      return { type: 'widget_answer', widgetKind: move.widget.kind, answer: move.label };
    case 'stuck':
      return { type: 'stuck' };
    default: {
      const unreachable: never = move;
      throw new Error(`unknown move ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Ends a session the learner left open, so its summary (and final count) is known. */
async function endSession(socket: SessionSocket, tracker: SessionTracker, timeoutMs: number): Promise<void> {
  if (tracker.ended || socket.closed) return;
  const from = socket.events.length;
  socket.send({ type: 'end_session', payload: {} });
  await socket.waitUntil((events) => events.slice(from).some(({ event }) => event.type === 'session_complete'), timeoutMs);
  for (const { event } of socket.events.slice(from)) {
    if (event.type === 'session_complete') tracker.summary = event.payload.summary;
    if (event.type === 'state_update') tracker.state = event.payload.state;
  }
}

/**
 * Plays the learner until it stops, the session completes or a turn fails. A learner that
 * continues after completion keeps playing while the session still answers chat (a learning
 * session whose plan completed). Each turn's frames run from the end of the previous turn's,
 * so a frame arriving after a reply settled is kept with the next turn, never lost.
 */
async function playSession(socket: SessionSocket, tracker: SessionTracker, learner: Learner, timeoutMs: number): Promise<void> {
  let framesFrom = 0;
  const framesSoFar = () => {
    const frames = socket.events.slice(framesFrom).map(({ event }) => event);
    framesFrom = socket.events.length;
    return frames;
  };
  const opening = await awaitReply(socket, 0, socket.openedAt, timeoutMs);
  if (!opening.ok) return tracker.recordFailedTurn(0, { type: 'opening' }, opening.error);
  await tracker.recordReply(0, { type: 'opening' }, '', opening.reply, framesSoFar());
  if (opening.reply.error) return;

  const stillAnswers = () => learner.continuesAfterCompletion === true && tracker.summary?.reason === 'plan_completed';
  for (let turn = 1; !tracker.ended || stillAnswers(); turn += 1) {
    const move = await learner.next(tracker.view(turn));
    if (!move) return;
    const action = toAction(move);
    if (move.type === 'stuck') return tracker.recordFailedTurn(turn, action, `the learner could not play: ${move.reason}`);
    const endedBefore = tracker.ended;
    const from = socket.events.length;
    const sentAt = socket.send(toClientMessage(move));
    const reply = await awaitReply(socket, from, sentAt, timeoutMs, endedBefore);
    if (!reply.ok) return tracker.recordFailedTurn(turn, action, reply.error);
    await tracker.recordReply(turn, action, move.type === 'chat' ? move.message : move.label, reply.reply, framesSoFar());
    if (reply.reply.error) return;
  }
}

function baseResult(suite: Suite, testCase: SuiteCase, learner: string): Omit<CaseResult, 'status' | 'reason' | 'durationMs'> {
  return {
    suite: suite.name,
    suiteFile: suite.file,
    case: testCase.name,
    ...(testCase.description ? { description: testCase.description } : {}),
    sessionType: testCase.session.type,
    learner,
    sessionId: null,
    turns: [],
    sessionChecks: [],
    failures: [],
    outcome: { learnerTurns: 0, completed: false, completedAtTurn: null, endReason: null, recalledCount: null, totalPoints: null },
    metrics: { meanTtftMs: null, meanTotalMs: null, leaks: 0 },
  };
}

/** Runs one case and judges it. Never throws for server behaviour; only bugs throw. */
export async function runCase(suite: Suite, testCase: SuiteCase, options: CaseRunOptions): Promise<CaseResult> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const label = { suite: suite.name, case: testCase.name };
  const learner = createLearner(testCase.learner, options.environment);
  if (!learner.ok) {
    return { ...baseResult(suite, testCase, testCase.learner.type), status: 'not_run', reason: learner.notRunReason, durationMs: elapsed() };
  }
  const failSetup = (reason: string, sessionId: string | null = null): CaseResult => ({
    ...baseResult(suite, testCase, learner.learner.label),
    sessionId,
    status: 'failed',
    reason,
    failures: [toFailure(label, null, { expectation: 'setup', expected: 'the session to open', seen: reason, passed: false })],
    durationMs: elapsed(),
  });

  const opened = await openSession(options.api, testCase.session);
  if (!opened.ok) return failSetup(opened.error);
  const socket = await SessionSocket.open(options.api.socketUrl(opened.value.sessionId), options.turnTimeoutMs);
  if (!socket.ok) return failSetup(socket.error, opened.value.sessionId);

  const tracker = new SessionTracker(opened.value, options.api);
  try {
    await playSession(socket.value, tracker, learner.learner, options.turnTimeoutMs);
    await endSession(socket.value, tracker, options.turnTimeoutMs);
  } finally {
    await socket.value.close();
  }

  // Sessions on a study plan (learning): the agent logs (owner only) tell which model calls each turn made.
  let agentLogFailure: string | null = null;
  if (opened.value.studyPlan) {
    const logs = await options.api.agentLogs(opened.value.sessionId);
    if (!logs.ok) agentLogFailure = `could not read the agent logs: ${describeApiFailure(logs.error)}`;
    tracker.finishLearning(logs.ok ? logs.value.entries : null);
  }

  const observed = { turns: tracker.turns, outcome: tracker.outcome(), plan: opened.value.studyPlan?.plan ?? null };
  const verdict = judgeCase(label, observed, learner.learner.turnExpectations, testCase.expect);
  if (agentLogFailure) verdict.failures.push(toFailure(label, null, { expectation: 'agent logs', expected: 'GET /api/sessions/{id}/agent-logs to answer', seen: agentLogFailure, passed: false }));
  const learnerTurns = tracker.turns.filter((turn) => turn.turn > 0);
  return {
    ...baseResult(suite, testCase, learner.learner.label),
    sessionId: opened.value.sessionId,
    status: verdict.failures.length > 0 ? 'failed' : 'passed',
    reason: null,
    turns: tracker.turns.map((turn, index) => ({ ...turn, checks: verdict.turnChecks[index] ?? [] })),
    sessionChecks: verdict.sessionChecks,
    failures: verdict.failures,
    outcome: observed.outcome,
    metrics: {
      meanTtftMs: mean(learnerTurns.map((turn) => turn.ttftMs)),
      meanTotalMs: mean(learnerTurns.map((turn) => turn.totalMs)),
      leaks: tracker.turns.reduce((sum, turn) => sum + turn.leaks.length, 0),
      meanReplyWords: meanReplyWords(tracker.turns, tracker.completedAtTurn),
    },
    durationMs: elapsed(),
  };
}
