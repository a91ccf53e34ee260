/**
 * Pure mappings from stored records to what a learner may see (SPEC §5): the session
 * state (never unchecked point contents, confidences or answers), the visible history,
 * each type's state and summary through its module (what the GET routes answer with, no
 * room opened), and the conversation as the models see it.
 */
import { z } from 'zod';
import { SessionMode, Widget, widgetToolNames, type AssessmentProgress, type HistoryMessage, type SessionState, type SessionStatus, type SessionSummary, type SessionType, type WidgetKind } from '@tutorloop/shared';
import type { ConversationMessage } from '../provider';
import type { ChecklistEntry } from '../storage/checklists';
import type { StoredMessage } from '../storage/messages';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import { moduleOf, type SessionModules, type SessionOf } from './session-module';

export function isEnded(status: SessionStatus): boolean {
  return status === 'completed' || status === 'abandoned';
}

/** The client tool name (SPEC §4.2) for a widget kind. */
export function toolNameForKind(kind: WidgetKind): string {
  return widgetToolNames[kind];
}

/** Rebuilds the widget a pending action stands for. */
export function widgetForAction(action: PendingActionRecord): Widget {
  return Widget.parse({ widgetId: action.id, kind: action.kind, props: action.props });
}

/** What a session has achieved so far: points recalled of the checklist, or items answered. */
export interface SessionProgress {
  recalledCount: number;
  totalPoints: number;
  /** Assessment sessions: the type-specific progress of SPEC §5. */
  assessment?: AssessmentProgress;
}

/** Progress of a recall session, from its checklist. */
export function checklistProgress(checklist: ChecklistEntry[]): SessionProgress {
  return { recalledCount: checklist.filter((entry) => entry.status === 'recalled').length, totalPoints: checklist.length };
}

/** The part of a type's state that tangents (SPEC §4.1) add: a type that takes them stores its mode. */
const TangentState = z.object({ mode: SessionMode, rabbitholeTopic: z.string().nullable() });

/**
 * The mode and tangent a session shows: those its type stores (recall sessions do), `recall`
 * for a type without tangents. Read by shape, so a type that adds tangents needs no edit here.
 */
export function modeOf(session: StoredSession): { mode: SessionMode; rabbitholeTopic: string | null } {
  const tangent = TangentState.safeParse(session.typeState);
  return tangent.success ? tangent.data : { mode: 'recall', rabbitholeTopic: null };
}

export function buildState(session: StoredSession, progress: SessionProgress, pending: PendingActionRecord | null): SessionState {
  const { mode, rabbitholeTopic } = modeOf(session);
  const base = {
    sessionId: session.id,
    type: session.type,
    mode,
    turn: session.turn,
    recalledCount: progress.recalledCount,
    totalPoints: progress.totalPoints,
    title: session.title,
    ...(progress.assessment ? { assessment: progress.assessment } : {}),
    ...(mode === 'rabbithole' && rabbitholeTopic ? { rabbitholeTopic } : {}),
  };
  switch (session.status) {
    case 'pending':
    case 'active':
      return { status: session.status, ...base };
    case 'awaiting_client_action':
      // A status without its widget would be a broken state: fall back to active.
      return pending ? { status: 'awaiting_client_action', ...base, pendingWidget: widgetForAction(pending) } : { status: 'active', ...base };
    case 'completed':
    case 'abandoned':
      return { status: session.status, ...base, endedAt: (session.endedAt ?? session.updatedAt).toISOString() };
    default: {
      const unreachable: never = session.status;
      throw new Error(`unknown status ${String(unreachable)}`);
    }
  }
}

/** The visible conversation: learner messages, tutor replies (with their widget), widget answers. */
export function buildHistory(messages: StoredMessage[], actions: PendingActionRecord[]): HistoryMessage[] {
  const actionsByToolCall = new Map(actions.map((action) => [action.toolCallId, action]));
  // A tool result with no widget answer belongs to a server tool (a mode change): not shown.
  const visible = messages.filter((message) => message.role !== 'tool_result' || message.widgetAnswer !== null);
  return visible.map((message): HistoryMessage => {
    const base = { id: message.id, content: message.content, createdAt: message.createdAt.toISOString() };
    switch (message.role) {
      case 'learner':
        return { ...base, role: 'learner', ...(message.clientMessageId ? { clientMessageId: message.clientMessageId } : {}) };
      case 'tutor': {
        const action = message.toolCall ? actionsByToolCall.get(message.toolCall.id) : undefined;
        return { ...base, role: 'tutor', ...(action ? { widget: widgetForAction(action) } : {}), ...(message.stopped ? { stopped: true as const } : {}) };
      }
      case 'tool_result':
        return { ...base, role: 'learner', ...(message.widgetAnswer ? { widgetAnswer: message.widgetAnswer } : {}) };
      default: {
        const unreachable: never = message.role;
        throw new Error(`unknown role ${String(unreachable)}`);
      }
    }
  });
}

/** A session's state (SPEC §5 `state_update`) by its type's view, from a snapshot: no room needed. */
export function stateView<K extends SessionType>(modules: SessionModules, snapshot: SessionSnapshot & { session: SessionOf<K> }, now: Date): SessionState {
  return moduleOf(modules, snapshot.session.type as K).state(snapshot, now);
}

/** A session's summary by its type's view, from a snapshot; null until the session has ended. */
export function summaryView<K extends SessionType>(modules: SessionModules, snapshot: SessionSnapshot & { session: SessionOf<K> }, now: Date): SessionSummary | null {
  return isEnded(snapshot.session.status) ? moduleOf(modules, snapshot.session.type as K).summary(snapshot, now) : null;
}

/** Appended to a stopped reply in the conversation the models read. */
export const stoppedReplyNote = '[the learner stopped this reply here]';

/** The stored conversation as the models see it, tool calls and results included. */
export function toConversation(messages: StoredMessage[]): ConversationMessage[] {
  return messages.map((message): ConversationMessage => {
    switch (message.role) {
      case 'learner':
        return { role: 'learner', content: message.content };
      case 'tutor': {
        // A reply the learner cut off says so, so the model does not take it as finished (SPEC §5).
        const content = message.stopped ? `${message.content}${message.content ? ' ' : ''}${stoppedReplyNote}` : message.content;
        return message.toolCall ? { role: 'tutor', content, toolCall: message.toolCall } : { role: 'tutor', content };
      }
      case 'tool_result':
        return { role: 'tool_result', toolCallId: message.toolCallId ?? '', content: message.content };
      default: {
        const unreachable: never = message.role;
        throw new Error(`unknown role ${String(unreachable)}`);
      }
    }
  });
}
