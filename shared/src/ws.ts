import { z } from 'zod';
import { ErrorCodeSchema } from './errors';
import { describeUnknownValue, parseClientJson } from './json-guard';
import { Limits } from './limits';
import { HistoryMessage, SessionState, SessionSummary } from './session';
import { Widget, WidgetAnswer } from './widgets';

// ---------------------------------------------------------------------------
// Client → server (SPEC §5). Parsed strictly at the server edge.
// ---------------------------------------------------------------------------

/** A learner chat message. A resend with the same clientMessageId is processed once. */
export const ChatMessage = z.object({
  type: z.literal('chat'),
  payload: z.object({
    message: z.string().trim().min(1, 'message is empty').max(Limits.chatMessageMaxLength),
    clientMessageId: z.string().min(1).max(Limits.clientMessageIdMaxLength).optional(),
  }),
});
/** The learner's answer to the pending widget. */
export const WidgetResponseMessage = z.object({
  type: z.literal('widget_response'),
  payload: z.object({ widgetId: z.string().min(1), response: WidgetAnswer }),
});
/** Enter or leave a rabbit hole (a tangent the learner opened). */
export const RabbitholeMessage = z.object({
  type: z.literal('rabbithole'),
  payload: z.discriminatedUnion('action', [
    z.object({ action: z.literal('enter'), topic: z.string().trim().min(1).max(Limits.rabbitholeTopicMaxLength) }),
    z.object({ action: z.literal('exit') }),
  ]),
});
/** The learner ends the session early. */
export const EndSessionMessage = z.object({
  type: z.literal('end_session'),
  payload: z.object({}),
});

/**
 * Stop the reply being produced (SPEC §5): its model call is cancelled, the text sent so far
 * is stored as the reply with `stopped: true`, and the turn ends as usual. With no reply in
 * flight the server answers `nothing_to_stop`.
 */
export const StopMessage = z.object({
  type: z.literal('stop'),
  payload: z.object({}),
});
/**
 * Produce the last tutor reply again (SPEC §5): only the last one, only when no reply is in
 * flight. The new reply replaces the old in the visible history (`assistant` with
 * `replaces`); the learner's message is not evaluated a second time.
 */
export const RetryMessage = z.object({
  type: z.literal('retry'),
  payload: z.object({ messageId: z.string().min(1).max(Limits.clientMessageIdMaxLength) }),
});

/** Every frame a client may send. */
export const ClientMessage = z.discriminatedUnion('type', [
  ChatMessage,
  WidgetResponseMessage,
  RabbitholeMessage,
  EndSessionMessage,
  StopMessage,
  RetryMessage,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export const clientMessageTypes = ['chat', 'widget_response', 'rabbithole', 'end_session', 'stop', 'retry'] as const;
export type ClientMessageType = (typeof clientMessageTypes)[number];

// ---------------------------------------------------------------------------
// Server → client (SPEC §5).
// ---------------------------------------------------------------------------

export const TypingEvent = z.object({ type: z.literal('typing'), payload: z.object({}) });
export const AssistantDeltaEvent = z.object({
  type: z.literal('assistant_delta'),
  payload: z.object({ messageId: z.string(), delta: z.string() }),
});
/**
 * The whole reply. `stopped`: the learner stopped it and this is the text sent so far;
 * `replaces`: a retry produced it, and it takes the place of that earlier reply.
 */
export const AssistantEvent = z.object({
  type: z.literal('assistant'),
  payload: z.object({
    messageId: z.string(),
    message: z.string(),
    stopped: z.literal(true).optional(),
    replaces: z.string().optional(),
  }),
});
export const StateUpdateEvent = z.object({
  type: z.literal('state_update'),
  payload: z.object({ state: SessionState }),
});
export const WidgetEvent = z.object({ type: z.literal('widget'), payload: Widget });
export const SessionCompleteEvent = z.object({
  type: z.literal('session_complete'),
  payload: z.object({ summary: SessionSummary }),
});
export const ErrorEvent = z.object({
  type: z.literal('error'),
  payload: z.object({ code: ErrorCodeSchema, message: z.string() }),
});
export const HistoryEvent = z.object({
  type: z.literal('history'),
  payload: z.object({ messages: z.array(HistoryMessage) }),
});

/** Every event the server may send. */
export const ServerEvent = z.discriminatedUnion('type', [
  TypingEvent,
  AssistantDeltaEvent,
  AssistantEvent,
  StateUpdateEvent,
  WidgetEvent,
  SessionCompleteEvent,
  ErrorEvent,
  HistoryEvent,
]);
export type ServerEvent = z.infer<typeof ServerEvent>;
export type ServerEventType = ServerEvent['type'];
export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>;

export type ParseResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: 'invalid_json' | 'unknown_type' | 'invalid_payload'; message: string } };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * Parses one text frame from a client. Never throws, and never recurses over or
 * stringifies the unvalidated value: nesting is bounded before parsing (SPEC §8), every
 * string comes out well-formed, and a bad frame yields an error the server sends back as
 * an `error` event while the connection stays open.
 */
export function parseClientMessage(raw: string): ParseResult<ClientMessage> {
  const json = parseClientJson(raw, Limits.frameMaxDepth);
  if (!json.ok) {
    return json.error.reason === 'too_deep'
      ? { ok: false, error: { code: 'invalid_payload', message: `Frame nests deeper than ${Limits.frameMaxDepth} levels.` } }
      : { ok: false, error: { code: 'invalid_json', message: 'Frame is not valid JSON.' } };
  }
  const data = json.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, error: { code: 'invalid_payload', message: 'Frame must be a JSON object {"type","payload"}.' } };
  }
  const type = (data as { type?: unknown }).type;
  if (typeof type !== 'string' || !(clientMessageTypes as readonly string[]).includes(type)) {
    return {
      ok: false,
      error: {
        code: 'unknown_type',
        message: `Unknown message type ${describeUnknownValue(type)}; expected one of ${clientMessageTypes.join(', ')}.`,
      },
    };
  }
  const parsed = ClientMessage.safeParse(data);
  if (!parsed.success) {
    return { ok: false, error: { code: 'invalid_payload', message: `Invalid ${type} payload: ${describeIssues(parsed.error)}` } };
  }
  return { ok: true, value: parsed.data };
}

/**
 * Parses one frame from the server, leniently: unknown fields pass, and an unknown event
 * type yields `null` so an older client survives a newer server.
 */
export function parseServerEvent(raw: string): ServerEvent | null {
  try {
    const parsed = ServerEvent.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
