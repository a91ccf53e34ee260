/**
 * The port through which the session engine reaches a tutor and an evaluator (SPEC §7).
 * Two kinds of provider implement it: the model provider (server/src/llm/model-provider.ts,
 * over a vendor transport such as `anthropic`) and `offline` (deterministic, local, no
 * network). Nothing here imports an SDK: adapters map to and from these types.
 *
 * The rules of a turn live in the engine, not in providers: a failed or erroring safety
 * check counts as safe, evaluator output is normalised (parse-evaluation.ts), and only the
 * first tool call of a reply (widget or mode change) is considered (session-room.ts).
 */
import type { ProviderName, SessionMode, Widget } from '@tutorloop/shared';
import type { LlmClient } from './llm-port';

/**
 * The models behind a model provider, for a session type that makes calls of its own (it
 * builds its requests against the LLM port in its own folder). Absent offline.
 */
export interface ModelAccess {
  client: LlmClient;
  /** The tutor's model (`TUTOR_MODEL`). */
  tutorModel: string;
  /** The evaluator's small fast model (`EVALUATOR_MODEL`). */
  evaluatorModel: string;
}

/** A point of the session checklist as the evaluator and tutor see it. */
export interface ChecklistPoint {
  id: string;
  content: string;
  /** Optional author's context: a hint about where the point belongs. */
  context: string | null;
}

/** One message of the conversation as the models see it. */
export type ConversationMessage =
  | { role: 'learner'; content: string }
  | { role: 'tutor'; content: string; toolCall?: ToolCall }
  | { role: 'tool_result'; toolCallId: string; content: string };

/** A call the tutor made to a client tool (a widget) or a backend tool. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What the batch evaluator receives (SPEC §4.1): only unchecked points, the last 10 messages. */
export interface EvaluationInput {
  /** The session being evaluated, for attributing model calls. */
  sessionId?: string;
  points: ChecklistPoint[];
  recentMessages: ConversationMessage[];
  mode: SessionMode;
}

/** A point the evaluator found recalled. */
export interface RecalledPoint {
  id: string;
  /** 0–1; clamped by the parser. */
  confidence: number;
  observation: string;
}

/**
 * The evaluator's answer as a provider got it: a tool input object, text (perhaps fenced
 * JSON), or an already clean EvaluationResult. Providers pass it on as it is; the engine
 * normalises every answer with `normalizeEvaluation` (core/evaluation/parse-evaluation.ts).
 */
export type RawEvaluation = unknown;

/**
 * What the learner's latest message was: an `attempt` at recall (graded), or a `question` /
 * request for clarification — never graded: nothing recalled, not a miss, no stronger cue
 * (issue 15). Absent means `attempt`.
 */
export type LearnerMessageKind = 'attempt' | 'question';

/** The evaluator's verdict for one learner message, normalised. An empty result is always valid. */
export interface EvaluationResult {
  recalledPoints: RecalledPoint[];
  /** Guidance for the tutor's next reply; never shown to the learner, never stored. */
  feedback: string;
  /** `question` when the message asked instead of answering; absent or `attempt` otherwise. */
  messageKind?: LearnerMessageKind;
}

export const emptyEvaluation: EvaluationResult = Object.freeze({ recalledPoints: [], feedback: '' }) as EvaluationResult;

/** Why the tutor is being asked to speak. */
export type TutorTrigger =
  /** The session just started: greet and open the first probe. */
  | 'session_start'
  /** The learner sent a chat message. */
  | 'learner_message'
  /** The learner answered the pending widget. */
  | 'widget_answer';

/** Everything the tutor needs for one reply. Built fresh from the database every turn. */
export interface TutorInput {
  /** The session being tutored, for attributing model calls. */
  sessionId?: string;
  trigger: TutorTrigger;
  /** The recall set's name. */
  title: string;
  mode: SessionMode;
  rabbitholeTopic: string | null;
  /** The whole checklist with its progress. */
  checklist: Array<ChecklistPoint & { recalled: boolean }>;
  /** The point the tutor should be probing now, or null when every point is recalled. */
  probePoint: ChecklistPoint | null;
  /** Learner turns already spent on the current probe point without recalling it. */
  probeAttempts: number;
  /** Points the learner recalled in this very turn. */
  justRecalled: ChecklistPoint[];
  /** The evaluator's feedback for this turn: an ephemeral system-level note, never stored. */
  feedback: string;
  /** The stored conversation, oldest first, tool calls and results included. */
  conversation: ConversationMessage[];
  /** The learner's turn number (1 for the first learner message). */
  turn: number;
  /**
   * Set on a `retry` (SPEC §5): the reply being replaced, so a deterministic tutor can say it
   * differently (issue 28). Never stored; the replaced reply is not in `conversation`.
   */
  retryOf?: string;
}

/** A widget as the tutor asks for it, before the engine gives it an id (kind and props stay linked). */
export type WidgetRequest = Widget extends infer Each ? (Each extends Widget ? Omit<Each, 'widgetId'> : never) : never;

/** A piece of the tutor's reply as it is produced. */
export type TutorEvent =
  | { type: 'text_delta'; text: string }
  /** The tutor hands the learner a widget (a client tool call suspends the loop). */
  | { type: 'widget'; toolCallId: string; widget: WidgetRequest }
  /**
   * The tutor judged that the learner opened a tangent (enter a rabbit hole) or is ready to
   * return to recall (SPEC §4.1). Applied once the reply is committed.
   */
  | { type: 'mode'; toolCallId: string; change: ModeChange };

/** A change of session mode decided by the tutor. */
export type ModeChange = { mode: 'rabbithole'; topic: string } | { mode: 'recall' };

/** Tool names of the mode changes, as stored in the conversation. */
export const modeToolNames = { enter: 'enter_rabbit_hole', exit: 'exit_rabbit_hole' } as const;

/** Verdict of the safety gate on a learner message. */
export type SafetyVerdict = { safe: true } | { safe: false; reason: string };

/**
 * A tutor + evaluator provider. Methods may throw or reject; the session engine turns an
 * evaluator failure into an empty result, a tutor failure into an `error` event and a
 * safety-check failure into "safe", so a provider never swallows errors itself.
 */
export interface TutorProvider {
  /** Which provider this is (shared/src/providers.ts); `GET /api/health` reports it. */
  readonly name: ProviderName;
  /**
   * The models a session type may call itself; absent for the offline provider. A type that
   * makes calls of its own builds its port from these in its folder (`core/<type>/<type>-model.ts`),
   * so this port names no session type.
   */
  readonly models?: ModelAccess;
  /** The batch evaluator: which unchecked points the latest learner message shows (raw; the engine normalises). */
  evaluate(input: EvaluationInput, signal: AbortSignal): Promise<RawEvaluation>;
  /**
   * The tutor's reply, streamed. It may yield several tool calls (widgets, mode changes);
   * the engine keeps the first and ignores the rest (one per reply, SPEC §4.2).
   */
  reply(input: TutorInput, signal: AbortSignal): AsyncIterable<TutorEvent>;
  /** A fast check that a learner message is safe to answer normally. */
  checkSafety(message: string, signal: AbortSignal): Promise<SafetyVerdict>;
}
