import type { Widget, WidgetAnswer, WidgetKind } from '@tutorloop/shared';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { StreamingMessage, TranscriptMessage } from '../store/session-store';
import type { WidgetAnswerByKind } from '../widgets/widget-types';
import { PendingWidget, WidgetAnswerView, WidgetPromptView } from '../widgets/widget-view';
import { useNow } from '../hooks/use-now';
import { formatElapsed } from '../widgets/run-examples';
import { CopyButton } from './copy-button';
import { Markdown } from './markdown';

export interface TranscriptProps {
  messages: TranscriptMessage[];
  streaming: StreamingMessage | null;
  typing: boolean;
  pendingWidget: Widget | null;
  widgetDisabled: boolean;
  onWidgetSubmit?(widget: Widget, response: WidgetAnswerByKind[WidgetKind]): void;
  /** Shown while a reply is being produced: stops it (SPEC §5 `stop`). */
  onStop?(): void;
  /** The tutor reply that may be produced again, and how (SPEC §5 `retry`). */
  retryMessageId?: string | null;
  onRetry?(messageId: string): void;
  /** When a code answer being scored was sent (ISO): the page shows the tests running, with the time taken so far. */
  scoringSince?: string | null;
}

/** How close to the bottom (px) still counts as "reading the latest", so new text scrolls into view. */
const stickThreshold = 96;

/**
 * The conversation: learner on the right, tutor on the left (Markdown), the reply being
 * streamed, the typing indicator, and the pending widget inline at the bottom.
 */
export function Transcript({ messages, streaming, typing, pendingWidget, widgetDisabled, onWidgetSubmit, onStop, retryMessageId = null, onRetry, scoringSince = null }: TranscriptProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  const { widgetsById, answersByWidgetId } = useMemo(() => {
    const widgets = new Map<string, Widget>();
    const answers = new Map<string, WidgetAnswer>();
    for (const message of messages) {
      if (message.widget) widgets.set(message.widget.widgetId, message.widget);
      if (message.widgetAnswer) answers.set(message.widgetAnswer.widgetId, message.widgetAnswer.response);
    }
    if (pendingWidget) widgets.set(pendingWidget.widgetId, pendingWidget);
    return { widgetsById: widgets, answersByWidgetId: answers };
  }, [messages, pendingWidget]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  }, [messages, streaming?.content, typing, pendingWidget]);

  function handleScroll() {
    const element = scrollRef.current;
    if (!element) return;
    stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < stickThreshold;
  }

  return (
    // Focusable, so the conversation scrolls by keyboard even when it holds no link or widget (axe).
    <div
      className="transcript"
      ref={scrollRef}
      onScroll={handleScroll}
      data-testid="transcript"
      tabIndex={0}
      role="region"
      aria-label="Conversation history"
    >
      {/* role=log announces each new message once; the streaming bubble is aria-busy until final.
          The log wraps the list, so the messages stay list items (axe: listitem). */}
      <div role="log" aria-label="Conversation" aria-relevant="additions">
        <ol className="messages">
          {messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              pendingWidgetId={pendingWidget?.widgetId ?? null}
              widgetsById={widgetsById}
              answersByWidgetId={answersByWidgetId}
              {...(onRetry && message.id === retryMessageId ? { onRetry: () => onRetry(message.id) } : {})}
            />
          ))}
          {streaming ? (
            <li
              key={`streaming-${streaming.messageId}`}
              className="message tutor streaming"
              aria-busy="true"
              data-testid="tutor-message-streaming"
            >
              <span className="visually-hidden">Tutor: </span>
              <Markdown text={streaming.content} />
            </li>
          ) : null}
        </ol>
      </div>
      <div className="typing-slot" role="status">
        {typing ? (
          <span className="typing-indicator" data-testid="typing-indicator">
            <span className="dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            Tutor is typing…
          </span>
        ) : null}
        {scoringSince && !typing ? <ScoringIndicator since={scoringSince} /> : null}
        {onStop && (typing || streaming) ? (
          <button type="button" className="button subtle stop-reply" onClick={onStop} data-testid="stop-reply">
            Stop
          </button>
        ) : null}
      </div>
      {pendingWidget && onWidgetSubmit ? (
        <PendingWidget
          widget={pendingWidget}
          disabled={widgetDisabled}
          onSubmit={(response) => onWidgetSubmit(pendingWidget, response)}
        />
      ) : null}
    </div>
  );
}

/** A code answer's tests running on the server, with the seconds taken so far (no verdict: that comes at the end). */
function ScoringIndicator({ since }: { since: string }) {
  const now = useNow(100);
  const started = new Date(since).getTime();
  return (
    <span className="typing-indicator" data-testid="scoring-indicator">
      <span className="dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      Running your code against the item’s tests…{' '}
      <span className="run-elapsed" aria-hidden="true">
        {Number.isNaN(started) ? '' : formatElapsed(now.getTime() - started)}
      </span>
    </span>
  );
}

function MessageBubble({
  message,
  pendingWidgetId,
  widgetsById,
  answersByWidgetId,
  onRetry,
}: {
  message: TranscriptMessage;
  pendingWidgetId: string | null;
  widgetsById: Map<string, Widget>;
  answersByWidgetId: Map<string, WidgetAnswer>;
  onRetry?: () => void;
}) {
  if (message.role === 'learner') {
    const answer = message.widgetAnswer;
    return (
      <li
        className={message.local ? 'message learner local' : 'message learner'}
        data-testid="learner-message"
        data-client-message-id={message.clientMessageId}
      >
        <span className="visually-hidden">You: </span>
        {answer ? (
          <WidgetAnswerView widget={widgetsById.get(answer.widgetId) ?? null} answer={answer.response} />
        ) : (
          // Markdown and math for the learner too, sanitised like the tutor's (issue 18).
          <Markdown text={message.content} />
        )}
        {!answer && message.content.trim() ? (
          <div className="message-actions">
            <CopyButton text={message.content} label="Copy your message" />
          </div>
        ) : null}
      </li>
    );
  }
  // The pending widget is shown live at the bottom; its read-only copy would duplicate it.
  const widget = message.widget && message.widget.widgetId !== pendingWidgetId ? message.widget : null;
  if (!message.content.trim() && !widget && !message.stopped) return null;
  return (
    <li className={message.stopped ? 'message tutor stopped' : 'message tutor'} data-testid="tutor-message" data-stopped={message.stopped ? 'true' : undefined}>
      <span className="visually-hidden">Tutor: </span>
      {message.content.trim() ? <Markdown text={message.content} /> : null}
      {widget ? <WidgetPromptView widget={widget} answer={answersByWidgetId.get(widget.widgetId) ?? null} /> : null}
      {message.stopped || message.content.trim() || onRetry ? (
        <div className="message-actions">
          {message.stopped ? (
            <span className="message-stopped" data-testid="stopped-marker">
              Stopped
            </span>
          ) : null}
          {message.content.trim() ? <CopyButton text={message.content} label="Copy the tutor’s reply" /> : null}
          {onRetry ? (
            <button type="button" className="message-action" onClick={onRetry} aria-label="Retry: produce this reply again" data-testid="retry-reply">
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
