/**
 * What every tutored room does with a learner's input before any turn runs (SPEC §4, §4.2):
 * a chat message is stored at once (a crash later loses nothing) and counted as a turn; a
 * widget answer is checked against the pending widget and stored as its tool result. Each
 * check that guards a write reads in the same transaction as the write.
 */
import type { ErrorCode, WidgetAnswer } from '@tutorloop/shared';
import type { Clock, IdGenerator } from '../ports';
import type { SessionUpdate, StoredSession } from '../storage/sessions';
import type { Storage, StorageTx } from '../storage/storage';
import { isStorageError } from '../storage/storage-error';
import { learnerMessage } from './new-messages';
import { isEnded, widgetForAction } from './session-view';
import { checkWidgetAnswer, recordWidgetAnswer } from './widget-answers';

export interface InboxDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * `stored`: new, to be answered; `retry`: a resend of a message never answered (a failed or
 * interrupted turn); `duplicate`: a resend already answered; `ended`: the session takes no
 * more messages; `missing`: no such session.
 */
export type ChatOutcome = 'missing' | 'ended' | 'duplicate' | 'retry' | 'stored';

export interface ChatPolicy {
  /** Whether an ended session still takes this message (a learning session after its plan completed). Default: never. */
  acceptsWhenEnded?: (session: StoredSession) => boolean;
  /** The message makes a running session `active` (a thought session, which never waits on a widget). Default: the status stays. */
  activates?: boolean;
}

/** Stores a learner's chat message (a resend with a known `clientMessageId` is not stored twice) and moves the turn counter of a running session. */
export async function storeChat(deps: InboxDeps, sessionId: string, message: { text: string; clientMessageId: string | null }, policy: ChatPolicy = {}): Promise<ChatOutcome> {
  const { storage, clock, ids } = deps;
  const now = clock.now();
  const attempt = () => storage.transaction(async (tx): Promise<ChatOutcome> => {
    const session = await tx.sessions.get(sessionId);
    if (!session) return 'missing';
    const ended = isEnded(session.status);
    if (ended && !policy.acceptsWhenEnded?.(session)) return 'ended';
    if (message.clientMessageId) {
      const existing = await tx.messages.findByClientId(sessionId, message.clientMessageId);
      if (existing) return existing.answeredAt ? 'duplicate' : 'retry';
    }
    await tx.messages.append(learnerMessage({ id: ids.next(), sessionId, content: message.text, clientMessageId: message.clientMessageId, createdAt: now }));
    // After the end nothing else changes, not even the turn counter.
    if (!ended) await tx.sessions.update(sessionId, { turn: session.turn + 1, ...(policy.activates ? { status: 'active' as const } : {}) }, now);
    return 'stored';
  });
  try {
    return await attempt();
  } catch (error) {
    // Where units run concurrently (PostgreSQL, two instances), the same resend can pass the
    // check in two transactions at once; the unique key refuses the second, which then reads
    // the first as any later resend would.
    if (message.clientMessageId && isStorageError(error, 'conflict')) return attempt();
    throw error;
  }
}

export type WidgetAnswerOutcome = { ok: true } | { ok: false; error: { code: ErrorCode; message: string } | null };

/**
 * What a type does with an accepted answer in the transaction that stores it (a cloze drill
 * grades it and records the review): the session changes to write with it (its new type state).
 */
export type AnswerConsequence = (tx: StorageTx, accepted: { session: StoredSession; text: string; now: Date }) => Promise<Pick<SessionUpdate, 'typeState'>>;

/**
 * Checks an answer against the pending widget and stores it as the widget's tool result; the
 * session is active again. `consequence`, if given, runs in the same transaction.
 */
export async function storeWidgetAnswer(deps: InboxDeps, sessionId: string, widgetId: string, response: WidgetAnswer, consequence?: AnswerConsequence): Promise<WidgetAnswerOutcome> {
  const { storage, clock, ids } = deps;
  const now = clock.now();
  return storage.transaction(async (tx): Promise<WidgetAnswerOutcome> => {
    const session = await tx.sessions.get(sessionId);
    if (!session) return { ok: false, error: null };
    if (isEnded(session.status)) return { ok: false, error: { code: 'session_ended', message: 'This session has ended.' } };
    const action = await tx.pendingActions.getPending(sessionId);
    if (!action || action.id !== widgetId) {
      const known = (await tx.pendingActions.list(sessionId)).some((candidate) => candidate.id === widgetId);
      return { ok: false, error: { code: 'widget_not_pending', message: known ? 'That widget was already answered.' : 'No widget with that id is waiting for an answer.' } };
    }
    const checked = checkWidgetAnswer(widgetForAction(action), response);
    if (!checked.ok) return { ok: false, error: { code: 'invalid_payload', message: checked.error } };
    await recordWidgetAnswer(tx, { id: ids.next(), action, response, text: checked.value, at: now });
    const changes = consequence ? await consequence(tx, { session, text: checked.value, now }) : {};
    await tx.sessions.update(sessionId, { ...changes, status: 'active', turn: session.turn + 1 }, now);
    return { ok: true };
  });
}
