/**
 * Reads one tutor reply out of the events that followed a learner message (or the
 * connection, for the opening reply). Pure. A reply is whole when, after the `assistant`
 * event, the `state_update` arrived — and, when that state has just ended, `session_complete`
 * too; or when an `error` event answered instead.
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import type { TimedEvent } from './session-socket';

export interface Reply {
  /** The `assistant` messages of the reply, joined (normally exactly one). */
  tutorMessage: string;
  /** First `assistant_delta` after `since`, in ms; null when nothing was streamed. */
  ttftMs: number | null;
  /** The `assistant` event after `since`, in ms. */
  totalMs: number | null;
  /** The last `state_update` of the reply. */
  state: SessionState | null;
  summary: SessionSummary | null;
  error: { code: string; message: string } | null;
}

function isEnded(state: SessionState): boolean {
  return state.status === 'completed' || state.status === 'abandoned';
}

/**
 * The reply held by `events` (all received after `since`), or null while it is incomplete.
 * `endedBefore`: the session had already ended when the message was sent (a learning session
 * answers chat after its plan completed) — then no `session_complete` follows the reply.
 */
export function readReply(events: readonly TimedEvent[], since: number, endedBefore = false): Reply | null {
  let sawAssistant = false;
  let settled = false;
  const reply: Reply = { tutorMessage: '', ttftMs: null, totalMs: null, state: null, summary: null, error: null };
  const messages: string[] = [];
  for (const { event, at } of events) {
    switch (event.type) {
      case 'assistant_delta':
        reply.ttftMs ??= at - since;
        break;
      case 'assistant':
        reply.totalMs ??= at - since;
        messages.push(event.payload.message);
        sawAssistant = true;
        break;
      case 'state_update':
        reply.state = event.payload.state;
        if (sawAssistant && (endedBefore || !isEnded(event.payload.state))) settled = true;
        break;
      case 'session_complete':
        reply.summary = event.payload.summary;
        settled = true;
        break;
      case 'error':
        reply.error = event.payload;
        settled = true;
        break;
      case 'typing':
      case 'widget':
      case 'history':
        break;
      default: {
        const unreachable: never = event;
        throw new Error(`unhandled event ${JSON.stringify(unreachable)}`);
      }
    }
  }
  reply.tutorMessage = messages.join('\n\n');
  return settled ? reply : null;
}
