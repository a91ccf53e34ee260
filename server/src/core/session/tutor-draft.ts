/**
 * The tutor's reply to one turn, whatever the session type (SPEC §4.1, §4.2): streamed
 * through a LeakGuard (no part of a leak is ever sent), regenerated once when a draft leaked,
 * else stripped; at most one tool call per reply counts.
 */
import type { Logger } from '../ports';
import type { ModeChange, TutorInput, TutorProvider, WidgetRequest } from '../provider';
import { LeakGuard, stripLeaks } from './sanitize';

export interface DraftReply {
  /** The whole text the model produced (leaks included, when there were any). */
  text: string;
  widget: { toolCallId: string; widget: WidgetRequest } | null;
  mode: { toolCallId: string; change: ModeChange } | null;
  /** What leaked; empty for a clean draft. */
  leaks: string[];
}

export interface DraftOptions {
  /** Point ids (and so leak markers) of the session. */
  pointIds: string[];
  /** A widget already pending stays the only one: the tutor cannot stack another on it. */
  widgetPending: boolean;
  /** Whether a mode change the tutor asked for applies now. */
  modeChangeApplies: (change: ModeChange) => boolean;
}

/**
 * One draft of the tutor's reply. Text goes through a LeakGuard: what is safe is passed to
 * `forward` as it streams (null: nothing is streamed); once a leak shows, nothing more is.
 */
export async function draftReply(
  provider: TutorProvider,
  input: TutorInput,
  options: DraftOptions,
  signal: AbortSignal,
  forward: ((text: string) => void) | null,
  logger: Logger,
): Promise<DraftReply> {
  const guard = new LeakGuard(options.pointIds);
  let widget: DraftReply['widget'] = null;
  let mode: DraftReply['mode'] = null;
  let toolCallSeen = false;
  for await (const event of provider.reply(input, signal)) {
    if (signal.aborted) break;
    if (event.type === 'text_delta') {
      const safe = guard.push(event.text);
      if (safe && forward) forward(safe);
      continue;
    }
    // One tool call per reply (SPEC §4.2), whichever provider: the first widget or mode
    // change decides — even one that does not apply here — and any later one is ignored.
    if (toolCallSeen) {
      logger.warn({ sessionId: input.sessionId, toolCallId: event.toolCallId, event: event.type }, 'second tool call in one reply skipped');
      continue;
    }
    toolCallSeen = true;
    if (event.type === 'widget') {
      if (!options.widgetPending) widget = { toolCallId: event.toolCallId, widget: event.widget };
    } else if (options.modeChangeApplies(event.change)) {
      mode = { toolCallId: event.toolCallId, change: event.change };
    }
  }
  const rest = guard.finish();
  if (rest && forward) forward(rest);
  return { text: guard.received, widget, mode, leaks: guard.leaks };
}

/**
 * The tutor's reply with the leak rule applied: a leaking draft (never sent: the guard held
 * it back) is asked for once more, told what leaked, and not streamed — the final `assistant`
 * replaces the text; a second leak is stripped sentence by sentence. Throws what the model
 * call throws.
 */
export async function guardedReply(
  provider: TutorProvider,
  input: TutorInput,
  options: DraftOptions,
  signal: AbortSignal,
  forward: (text: string) => void,
  logger: Logger,
): Promise<DraftReply> {
  const reply = await draftReply(provider, input, options, signal, forward, logger);
  if (reply.leaks.length === 0 || signal.aborted) return reply;
  logger.warn({ sessionId: input.sessionId, leaks: reply.leaks }, 'tutor output leaked internal language; regenerating once');
  const retry = await draftReply(provider, { ...input, feedback: regenerationNote(input.feedback, reply.leaks) }, options, signal, null, logger);
  if (retry.leaks.length === 0) return retry;
  logger.warn({ sessionId: input.sessionId, leaks: retry.leaks }, 'regenerated reply leaked again; leaking sentences stripped');
  return { ...retry, text: stripLeaks(retry.text, options.pointIds), leaks: [] };
}

/** The instruction added to the turn's note when a draft leaked and is asked for again. */
function regenerationNote(feedback: string, leaks: string[]): string {
  const note = `Your previous draft of this reply mentioned internal details (${leaks.join(', ')}). Write the reply again, speaking to the learner directly, without any of them.`;
  return feedback.trim() ? `${feedback.trim()}\n${note}` : note;
}
