/**
 * The tutor's reply to one turn, whatever the session type (SPEC §4.1, §4.2): streamed
 * through a LeakGuard (no part of a leak is ever sent), regenerated once when a draft leaked,
 * else stripped; at most one tool call per reply counts. The model call is the type's: the
 * draft only reads the events it yields.
 */
import type { Logger } from '../ports';
import type { ModeChange, TutorEvent, WidgetRequest } from '../provider';
import { LeakGuard, stripLeaks } from './sanitize';

export interface DraftReply {
  /** The whole text the model produced (leaks included, when there were any). */
  text: string;
  widget: { toolCallId: string; widget: WidgetRequest } | null;
  mode: { toolCallId: string; change: ModeChange } | null;
  /** What leaked; empty for a clean draft. */
  leaks: string[];
}

/** One reply to draft: the type's model call and what the draft may keep of it. */
export interface DraftRequest {
  sessionId: string;
  /**
   * The type's model call; `leaked` names what the previous draft leaked when it is asked for
   * again (null the first time).
   */
  reply: (leaked: string[] | null, signal: AbortSignal) => AsyncIterable<TutorEvent>;
  /**
   * Point ids (and so leak markers) of the session, for the LeakGuard; null: the text is
   * streamed as written, unscreened (the type screens the whole reply itself).
   */
  leakMarkers: string[] | null;
  /** A widget already pending stays the only one: the tutor cannot stack another on it. */
  widgetPending: boolean;
  /** Whether a mode change the tutor asked for applies now. */
  modeChangeApplies: (change: ModeChange) => boolean;
  signal: AbortSignal;
  /** Receives what is safe to send, as it streams. */
  forward: (text: string) => void;
  logger: Logger;
}

/**
 * One draft of the tutor's reply. Text goes through a LeakGuard (when the request names leak
 * markers): what is safe is passed to `forward` as it streams (null: nothing is streamed);
 * once a leak shows, nothing more is.
 */
export async function draftReply(request: DraftRequest, leaked: string[] | null, forward: ((text: string) => void) | null): Promise<DraftReply> {
  const { signal, logger } = request;
  const guard = request.leakMarkers ? new LeakGuard(request.leakMarkers) : null;
  let text = '';
  let widget: DraftReply['widget'] = null;
  let mode: DraftReply['mode'] = null;
  let toolCallSeen = false;
  for await (const event of request.reply(leaked, signal)) {
    if (signal.aborted) break;
    if (event.type === 'text_delta') {
      text += event.text;
      const safe = guard ? guard.push(event.text) : event.text;
      if (safe && forward) forward(safe);
      continue;
    }
    // One tool call per reply (SPEC §4.2), whichever provider: the first widget or mode
    // change decides — even one that does not apply here — and any later one is ignored.
    if (toolCallSeen) {
      logger.warn({ sessionId: request.sessionId, toolCallId: event.toolCallId, event: event.type }, 'second tool call in one reply skipped');
      continue;
    }
    toolCallSeen = true;
    if (event.type === 'widget') {
      if (!request.widgetPending) widget = { toolCallId: event.toolCallId, widget: event.widget };
    } else if (request.modeChangeApplies(event.change)) {
      mode = { toolCallId: event.toolCallId, change: event.change };
    }
  }
  const rest = guard?.finish();
  if (rest && forward) forward(rest);
  return { text, widget, mode, leaks: guard?.leaks ?? [] };
}

/**
 * The tutor's reply with the leak rule applied: a leaking draft (never sent: the guard held
 * it back) is asked for once more, told what leaked, and not streamed — the final `assistant`
 * replaces the text; a second leak is stripped sentence by sentence. Throws what the model
 * call throws.
 */
export async function guardedReply(request: DraftRequest): Promise<DraftReply> {
  const { sessionId, signal, logger } = request;
  const reply = await draftReply(request, null, request.forward);
  if (reply.leaks.length === 0 || signal.aborted) return reply;
  logger.warn({ sessionId, leaks: reply.leaks }, 'tutor output leaked internal language; regenerating once');
  const retry = await draftReply(request, reply.leaks, null);
  if (retry.leaks.length === 0) return retry;
  logger.warn({ sessionId, leaks: retry.leaks }, 'regenerated reply leaked again; leaking sentences stripped');
  return { ...retry, text: stripLeaks(retry.text, request.leakMarkers ?? []), leaks: [] };
}

/** The instruction added to a turn's note (its `feedback`) when a draft leaked and is asked for again. */
export function regenerationNote(feedback: string, leaks: string[]): string {
  const note = `Your previous draft of this reply mentioned internal details (${leaks.join(', ')}). Write the reply again, speaking to the learner directly, without any of them.`;
  return feedback.trim() ? `${feedback.trim()}\n${note}` : note;
}
