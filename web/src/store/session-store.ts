import type {
  AssessmentProgress,
  LearningProgress,
  HistoryMessage,
  ServerEvent,
  SessionState,
  SessionSummary,
  Widget,
  WidgetAnswer,
} from '@tutorloop/shared';
import { answerForKind } from '@tutorloop/shared';
import { createStore } from 'zustand/vanilla';
import { findUndelivered } from '../api/outbox';
import type { CloseReason, ConnectionStatus } from '../api/session-socket';
import { sessionRulesFor } from '../sessions/rules';

/** One bubble of the transcript. */
export interface TranscriptMessage {
  id: string;
  role: 'learner' | 'tutor';
  content: string;
  createdAt: string | null;
  clientMessageId?: string;
  /** A tutor message that handed the learner this widget. */
  widget?: Widget;
  /** A learner message that answered a widget. */
  widgetAnswer?: { widgetId: string; response: WidgetAnswer };
  /** Sent from this tab and not yet seen in a server history. */
  local?: boolean;
  /** A tutor reply the learner stopped: its text is what was sent before the stop (SPEC §5). */
  stopped?: boolean;
}

/** The tutor reply being streamed, assembled from `assistant_delta` events. */
export interface StreamingMessage {
  messageId: string;
  content: string;
}

export interface SessionError {
  code: string;
  message: string;
}

export interface SessionViewState {
  sessionId: string | null;
  connection: ConnectionStatus;
  /** Set when `connection` is `closed`. */
  closeReason: CloseReason | null;
  messages: TranscriptMessage[];
  streaming: StreamingMessage | null;
  /** The tutor is producing a reply (from `typing` until `assistant`). */
  typing: boolean;
  state: SessionState | null;
  /** The widget waiting for the learner's answer, if any. */
  pendingWidget: Widget | null;
  /**
   * Widgets answered on the current connection. A `state_update` that still lists one as
   * pending was produced before the server saw the answer, so it must not bring it back.
   * Cleared on reconnect: if the answer was lost in a drop, the widget returns.
   */
  answeredWidgetIds: string[];
  summary: SessionSummary | null;
  lastError: SessionError | null;
}

export interface SessionActions {
  /** Starts a fresh view for `sessionId` (or none). */
  reset(sessionId: string | null): void;
  /** Folds one server event into the view. */
  handleServerEvent(event: ServerEvent): void;
  handleConnectionChange(connection: ConnectionStatus, reason: CloseReason | null): void;
  /** Shows a chat message the learner just sent, before any server confirmation. */
  addLocalChat(input: { clientMessageId: string; content: string }): void;
  /** Shows the learner's widget answer and takes the widget off the screen. */
  addLocalWidgetAnswer(widget: Widget, response: WidgetAnswer): void;
  setSummary(summary: SessionSummary): void;
  setError(error: SessionError | null): void;
}

export type SessionStoreState = SessionViewState & SessionActions;

function initialView(sessionId: string | null): SessionViewState {
  return {
    sessionId,
    connection: 'connecting',
    closeReason: null,
    messages: [],
    streaming: null,
    typing: false,
    state: null,
    pendingWidget: null,
    answeredWidgetIds: [],
    summary: null,
    lastError: null,
  };
}

function fromHistory(message: HistoryMessage): TranscriptMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    createdAt: message.createdAt,
    ...(message.clientMessageId !== undefined && { clientMessageId: message.clientMessageId }),
    ...(message.widget !== undefined && { widget: message.widget }),
    ...(message.widgetAnswer !== undefined && { widgetAnswer: message.widgetAnswer }),
    ...(message.stopped && { stopped: true }),
  };
}

/**
 * Attaches a live widget to the tutor message that handed it out (the latest one), the shape
 * the server's history has, so the question stays readable once answered or when the session
 * ends with it unanswered. The transcript hides this copy while the widget is pending.
 */
function attachWidget(messages: TranscriptMessage[], widget: Widget): TranscriptMessage[] {
  if (messages.some((message) => message.widget?.widgetId === widget.widgetId)) return messages;
  let lastTutorIndex = -1;
  messages.forEach((message, index) => {
    if (message.role === 'tutor') lastTutorIndex = index;
  });
  const lastTutor = messages[lastTutorIndex];
  if (!lastTutor || lastTutor.widget) return messages;
  return messages.map((message, index) => (index === lastTutorIndex ? { ...message, widget } : message));
}

function isFinished(state: SessionState | null): boolean {
  return state?.status === 'completed' || state?.status === 'abandoned';
}

function assertNever(value: never): never {
  throw new Error(`Unhandled server event: ${JSON.stringify(value)}`);
}

/**
 * The pure reducer behind the session store: the view after `event`. Exported so the rules
 * can be read (and tested) in one place.
 */
export function reduceServerEvent(
  view: SessionViewState,
  event: ServerEvent,
  now: () => Date = () => new Date(),
): Partial<SessionViewState> {
  switch (event.type) {
    case 'typing':
      return { typing: true };

    case 'assistant_delta': {
      const { messageId, delta } = event.payload;
      // A late delta for a reply that is already final (e.g. restored by history) changes nothing.
      if (view.messages.some((message) => message.id === messageId)) return {};
      const content = view.streaming?.messageId === messageId ? view.streaming.content + delta : delta;
      return { streaming: { messageId, content }, typing: true };
    }

    case 'assistant': {
      const { messageId, message, stopped, replaces } = event.payload;
      // A retried reply takes the place of the one it replaces (SPEC §5); a widget that one handed out goes with it.
      const existing = view.messages.findIndex((item) => item.id === messageId || (replaces !== undefined && item.id === replaces));
      const previous = existing === -1 || replaces !== undefined ? undefined : view.messages[existing];
      const finalMessage: TranscriptMessage = {
        ...previous,
        id: messageId,
        role: 'tutor',
        content: message,
        createdAt: previous ? previous.createdAt : now().toISOString(),
        ...(stopped && { stopped: true }),
      };
      const messages =
        existing === -1
          ? [...view.messages, finalMessage]
          : view.messages.map((item, index) => (index === existing ? finalMessage : item));
      // Only one reply streams at a time: whatever was streaming is settled by this one.
      return { messages, streaming: null, typing: false };
    }

    case 'state_update': {
      const state = event.payload.state;
      const pending =
        state.status === 'awaiting_client_action' && !view.answeredWidgetIds.includes(state.pendingWidget.widgetId)
          ? state.pendingWidget
          : null;
      return {
        state,
        pendingWidget: pending,
        ...(isFinished(state) && { typing: false }),
      };
    }

    case 'widget': {
      const widget = event.payload;
      if (view.answeredWidgetIds.includes(widget.widgetId) || isFinished(view.state)) return {};
      return { pendingWidget: widget, messages: attachWidget(view.messages, widget) };
    }

    case 'session_complete':
      return { summary: event.payload.summary, pendingWidget: null, typing: false };

    case 'error':
      // The connection and the session survive an error (SPEC §5); a turn that failed will
      // not produce its `assistant`, so the typing indicator must not hang.
      return { lastError: event.payload, typing: false };

    case 'history': {
      const history = event.payload.messages;
      const restored = history.map(fromHistory);
      // Messages sent from this tab that the server has not recorded yet stay visible: the
      // socket resends them right after this history.
      const localEntries = view.messages
        .filter((message) => message.local && message.clientMessageId !== undefined)
        .map((message) => ({ message: message.content, clientMessageId: message.clientMessageId as string, item: message }));
      const stillLocal = findUndelivered(localEntries, history).map((entry) => entry.item);
      const streaming =
        view.streaming && !history.some((message) => message.id === view.streaming?.messageId) ? view.streaming : null;
      return { messages: [...restored, ...stillLocal], streaming };
    }

    default:
      return assertNever(event);
  }
}

export interface SessionStoreOptions {
  /** Clock for the timestamps of messages shown before the server's history has them. */
  now?: () => Date;
}

/** The view of one session, fed by the session socket; React reads it through `useSessionView`. */
export function createSessionStore(options: SessionStoreOptions = {}) {
  const now = options.now ?? (() => new Date());
  return createStore<SessionStoreState>()((set, get) => ({
    ...initialView(null),

    reset: (sessionId) => set(initialView(sessionId)),

    handleServerEvent: (event) => set(reduceServerEvent(get(), event, now)),

    handleConnectionChange: (connection, reason) => {
      if (connection === 'connecting' || connection === 'reconnecting') {
        // A new connection starts from the server's truth: it will resend the state, the
        // pending widget and the history. A reply cut off by the drop will not resume here.
        set({ connection, closeReason: null, answeredWidgetIds: [], typing: false });
        return;
      }
      set({ connection, closeReason: connection === 'closed' ? reason : null });
    },

    addLocalChat: ({ clientMessageId, content }) =>
      set((view) => ({
        messages: [
          ...view.messages,
          {
            id: `local-${clientMessageId}`,
            role: 'learner',
            content,
            createdAt: now().toISOString(),
            clientMessageId,
            local: true,
          },
        ],
      })),

    addLocalWidgetAnswer: (widget, response) =>
      set((view) => {
        // Keep the question readable above the answer until the server's history replaces
        // this view; normally the `widget` event already attached it to its tutor message.
        const messages = [...attachWidget(view.messages, widget)];
        if (!messages.some((message) => message.widget?.widgetId === widget.widgetId)) {
          messages.push({ id: `local-widget-${widget.widgetId}`, role: 'tutor', content: '', createdAt: null, widget, local: true });
        }
        messages.push({
          id: `local-answer-${widget.widgetId}`,
          role: 'learner',
          content: '',
          createdAt: now().toISOString(),
          widgetAnswer: { widgetId: widget.widgetId, response },
          local: true,
        });
        return {
          messages,
          pendingWidget: view.pendingWidget?.widgetId === widget.widgetId ? null : view.pendingWidget,
          answeredWidgetIds: [...view.answeredWidgetIds, widget.widgetId],
        };
      }),

    setSummary: (summary) => set({ summary }),

    setError: (lastError) => set({ lastError }),
  }));
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/**
 * The session bar's progress text ("2 of 5 recalled", "Question 1 of 3"), or null before the
 * first state arrives or for a type that shows its progress in its own bar (assessments count
 * items, learning sessions steps: see `selectAssessmentProgress`, `selectLearningProgress`).
 */
export function selectProgressLabel(view: SessionViewState): string | null {
  return view.state ? (sessionRulesFor(view.state.type)?.progressLabel(view.state) ?? null) : null;
}

/** Whether a Stop button belongs on the reply being produced now (SPEC §5 `stop`: only some types take it). */
export function selectCanStop(view: SessionViewState): boolean {
  return sessionRulesFor(view.state?.type)?.canStop === true && selectReplying(view) && !selectFinished(view);
}

/**
 * The tutor reply a Retry button may produce again, or null: the last message, a tutor reply
 * the server has stored, while nothing is being produced and the session runs.
 */
export function selectRetryableMessageId(view: SessionViewState): string | null {
  if (sessionRulesFor(view.state?.type)?.canRetry !== true || selectReplying(view) || selectFinished(view)) return null;
  const last = view.messages.at(-1);
  return last && last.role === 'tutor' && !last.local ? last.id : null;
}

/** True while the tutor is answering (typing indicator on, or text streaming). */
export function selectReplying(view: SessionViewState): boolean {
  return view.typing || view.streaming !== null;
}

/** True once the session is over (summary received or a terminal status). */
export function selectFinished(view: SessionViewState): boolean {
  return view.summary !== null || isFinished(view.state);
}

/**
 * When the code answer being scored was sent, or null: in a running assessment, a code answer
 * is the last message and no next item is there yet — the server is running its tests (the
 * first Python run also starts the interpreter, seconds), so the page says so (issue 25).
 */
export function selectScoringSince(view: SessionViewState): string | null {
  if (sessionRulesFor(view.state?.type)?.scoresAnswers !== true || selectFinished(view) || view.pendingWidget !== null) return null;
  const last = view.messages.at(-1);
  if (last?.role !== 'learner' || !last.widgetAnswer || answerForKind('code_editor', last.widgetAnswer.response) === null) return null;
  return last.createdAt;
}

/** The running assessment's progress (item, section, deadline), or null for other sessions. */
export function selectAssessmentProgress(view: SessionViewState): AssessmentProgress | null {
  // Only an assessment's state carries it (SPEC §5).
  return view.state?.assessment ?? null;
}

/** The running learning session's progress (step n of N, concepts, open question), or null for other sessions. */
export function selectLearningProgress(view: SessionViewState): LearningProgress | null {
  return view.state?.learning ?? null;
}
