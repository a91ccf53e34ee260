/**
 * Plays labelled turns over the public protocol (SPEC §5, §6), whatever provider answers:
 * for each turn a fresh recall set and session, the context moves, then the labelled message;
 * the points it showed are the points whose cards were first reviewed in reply to it
 * (`GET /api/cards`). Nothing is read from the server's internals.
 */
import type { ClientMessage, SessionState, Widget } from '@tutorloop/shared';
import { answerWidget } from '../learners/widget-answer';
import type { ApiClient } from '../protocol/api-client';
import { readReply, type Reply } from '../protocol/reply-events';
import { SessionSocket } from '../protocol/session-socket';
import { mapWithConcurrency } from '../runner/pool';
import { openSession } from '../runner/open-session';
import type { LabelledMove, LabelledOutcome, LabelledSuiteFile, LabelledTurn } from './labelled-schema';

export interface LoadedLabelledSuite {
  name: string;
  file: string;
  suite: LabelledSuiteFile;
}

async function awaitReply(socket: SessionSocket, from: number, since: number, timeoutMs: number): Promise<Reply | null> {
  let reply: Reply | null = null;
  await socket.waitUntil((events) => (reply = readReply(events.slice(from), since)) !== null, timeoutMs);
  return reply;
}

function pendingWidget(state: SessionState | null): Widget | null {
  return state?.status === 'awaiting_client_action' ? state.pendingWidget : null;
}

/** The client message for a move, or why it cannot be played now. */
function messageFor(move: LabelledMove, state: SessionState | null): { ok: true; message: ClientMessage; text: string } | { ok: false; error: string } {
  if (move.say !== undefined) return { ok: true, message: { type: 'chat', payload: { message: move.say } }, text: move.say };
  const widget = pendingWidget(state);
  if (!widget) return { ok: false, error: 'no widget was pending for the widget answer' };
  const decision = answerWidget(widget, [move.widget!]);
  if (!decision.ok) return { ok: false, error: decision.reason };
  if (decision.type === 'chat') return { ok: true, message: { type: 'chat', payload: { message: decision.message } }, text: decision.message };
  return { ok: true, message: { type: 'widget_response', payload: { widgetId: widget.widgetId, response: decision.response } }, text: decision.label };
}

async function recalledKeys(api: ApiClient, recallSetId: string, keyOf: Map<string, string>): Promise<Set<string>> {
  const cards = await api.cards(recallSetId);
  if (!cards.ok) return new Set();
  return new Set(cards.value.cards.filter((card) => card.lastReview !== null).map((card) => keyOf.get(card.pointId) ?? card.pointId));
}

/** Plays one labelled turn in its own session. */
export async function playLabelledTurn(api: ApiClient, suiteName: string, suite: LabelledSuiteFile, turn: LabelledTurn, timeoutMs: number): Promise<LabelledOutcome> {
  const set = suite.sets[turn.set]!;
  const contents = Object.fromEntries(set.points.map((point) => [point.key, point.content]));
  const base: LabelledOutcome = {
    suite: suiteName,
    split: suite.split ?? null,
    id: turn.id,
    kind: turn.kind,
    subject: set.subject,
    message: turn.message.say ?? JSON.stringify(turn.message.widget),
    expected: turn.shows,
    predicted: null,
    contradicts: turn.contradicts ?? [],
    recalledInContext: [],
    tutorReply: '',
    widgetAfter: null,
    error: null,
    contents,
  };
  const opened = await openSession(api, {
    type: 'recall',
    recallSet: { name: set.name, points: set.points.map((point) => ({ content: point.content, ...(point.context ? { context: point.context } : {}) })) },
  });
  if (!opened.ok) return { ...base, error: opened.error };
  const keyOf = new Map(opened.value.points.map((point, index) => [point.id, set.points[index]!.key]));
  const socket = await SessionSocket.open(api.socketUrl(opened.value.sessionId), timeoutMs);
  if (!socket.ok) return { ...base, error: socket.error };
  try {
    const opening = await awaitReply(socket.value, 0, socket.value.openedAt, timeoutMs);
    if (!opening || opening.error) return { ...base, error: `no opening reply${opening?.error ? `: ${opening.error.message}` : ''}` };
    let state = opening.state;
    const play = async (move: LabelledMove): Promise<{ ok: true; reply: Reply; text: string } | { ok: false; error: string }> => {
      const message = messageFor(move, state);
      if (!message.ok) return message;
      const from = socket.value.events.length;
      const sentAt = socket.value.send(message.message);
      const reply = await awaitReply(socket.value, from, sentAt, timeoutMs);
      if (!reply) return { ok: false, error: 'no complete reply in time' };
      if (reply.error) return { ok: false, error: `error event ${reply.error.code}: ${reply.error.message}` };
      state = reply.state ?? state;
      return { ok: true, reply, text: message.text };
    };
    for (const [index, move] of turn.context.entries()) {
      const played = await play(move);
      if (!played.ok) return { ...base, error: `context move ${index + 1}: ${played.error}` };
    }
    const before = await recalledKeys(api, opened.value.recallSetId!, keyOf);
    const played = await play(turn.message);
    if (!played.ok) return { ...base, recalledInContext: [...before], error: played.error };
    const after = played.reply.summary
      ? new Set(played.reply.summary.points.filter((point) => point.recalled).map((point) => keyOf.get(point.id) ?? point.id))
      : await recalledKeys(api, opened.value.recallSetId!, keyOf);
    const widget = pendingWidget(state);
    return {
      ...base,
      message: played.text,
      predicted: [...after].filter((key) => !before.has(key)).sort(),
      recalledInContext: [...before].sort(),
      tutorReply: played.reply.tutorMessage,
      widgetAfter: widget ? widget.kind : null,
    };
  } finally {
    await socket.value.close();
  }
}

export async function runLabelled(api: ApiClient, suites: readonly LoadedLabelledSuite[], options: { concurrency: number; timeoutMs: number; onTurnDone?: () => void }): Promise<LabelledOutcome[]> {
  const work = suites.flatMap((loaded) => loaded.suite.turns.map((turn) => ({ loaded, turn })));
  return mapWithConcurrency(work, options.concurrency, async ({ loaded, turn }) => {
    const outcome = await playLabelledTurn(api, loaded.name, loaded.suite, turn, options.timeoutMs);
    options.onTurnDone?.();
    return outcome;
  });
}
