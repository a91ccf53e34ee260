/**
 * Learners drive a session turn by turn: given what the learner sees (the conversation
 * and the pending widget, if any), each decides its next move. `scripted` plays a list,
 * `policy` chats from a list and answers any widget by rules, `simulated` asks a model,
 * `learning` follows a study plan (learning-learner.ts).
 */
import type { LearningProgress, StudyPlanContent, Widget, WidgetAnswer } from '@tutorloop/shared';
import type { LearnerSpec, TurnExpectation, WidgetRule } from '../suites/suite-schema';
import { createMessage, type AnthropicSettings } from './anthropic-messages';
import { createLearningLearner } from './learning-learner';
import { answerWidget, describeWidget } from './widget-answer';

export interface LearnerView {
  /** 1-based number of the turn about to be played. */
  turn: number;
  pendingWidget: Widget | null;
  /** The visible conversation so far. */
  transcript: ReadonlyArray<{ role: 'tutor' | 'learner'; text: string }>;
  /** The session has ended (a learning session whose plan completed still answers chat). */
  ended?: boolean;
  /** Learning sessions: the plan as its author wrote it, and `state.learning` of the last `state_update`. */
  learning?: { plan: StudyPlanContent; progress: LearningProgress | null } | null;
}

/** Why a learner said something, when it says on purpose what a check looks for (recorded with the turn). */
export type LearnerPurpose = 'answer' | 'wrong_answer' | 'acknowledge' | 'off_topic' | 'unsafe' | 'after_completion' | 'stuck' | 'question';

export type LearnerMove =
  | { type: 'chat'; message: string; purpose?: LearnerPurpose }
  | { type: 'widget_answer'; widget: Widget; response: WidgetAnswer; label: string }
  /** The learner cannot play this turn (e.g. no rule answers the widget); the case stops. */
  | { type: 'stuck'; reason: string };

export interface Learner {
  /** For reports: `scripted (4 turns)`. */
  readonly label: string;
  /** Expectations per turn (index 0 = turn 1); only scripted learners have them. */
  readonly turnExpectations: ReadonlyArray<TurnExpectation | undefined>;
  /** The next move, or null when the learner has nothing more to say. */
  next(view: LearnerView): Promise<LearnerMove | null>;
  /** Keeps playing after the session completed (to see the post-completion reply). */
  readonly continuesAfterCompletion?: boolean;
}

export interface LearnerEnvironment {
  anthropic: AnthropicSettings | null;
}

export type CreateLearnerResult = { ok: true; learner: Learner } | { ok: false; notRunReason: string };

/** Default model of the simulated learner. */
export const DEFAULT_LEARNER_MODEL = 'claude-haiku-4-5';

function moveForWidget(widget: Widget, rules: readonly WidgetRule[]): LearnerMove {
  const decision = answerWidget(widget, rules);
  if (!decision.ok) return { type: 'stuck', reason: decision.reason };
  if (decision.type === 'chat') return { type: 'chat', message: decision.message };
  return { type: 'widget_answer', widget, response: decision.response, label: decision.label };
}

function scriptedLearner(spec: Extract<LearnerSpec, { type: 'scripted' }>): Learner {
  return {
    label: `scripted (${spec.turns.length} ${spec.turns.length === 1 ? 'turn' : 'turns'})`,
    turnExpectations: spec.turns.map((turn) => turn.expect),
    async next(view) {
      const turn = spec.turns[view.turn - 1];
      if (!turn) return null;
      if (turn.say !== undefined) return { type: 'chat', message: turn.say };
      if (!turn.widget) return { type: 'stuck', reason: 'the turn has neither "say" nor "widget"' };
      if (!view.pendingWidget) return { type: 'stuck', reason: 'the script answers a widget here, but no widget is pending' };
      return moveForWidget(view.pendingWidget, [turn.widget]);
    },
  };
}

function policyLearner(spec: Extract<LearnerSpec, { type: 'policy' }>): Learner {
  let said = 0;
  return {
    label: `policy (at most ${spec.maxTurns} turns)`,
    turnExpectations: [],
    async next(view) {
      if (view.turn > spec.maxTurns) return null;
      if (view.pendingWidget) return moveForWidget(view.pendingWidget, spec.widgets);
      const message = spec.say[Math.min(said, spec.say.length - 1)]!;
      said += 1;
      return { type: 'chat', message };
    },
  };
}

function systemPrompt(persona: string): string {
  return [
    'You are role-playing a learner in a spaced-repetition review session with a tutor.',
    `Your persona: ${persona}`,
    'Reply only with what this learner would type next: one short message, no narration, no quotation marks.',
    'Never say that you are an AI or that you are role-playing.',
  ].join('\n');
}

function widgetInstruction(widget: Widget): string {
  switch (widget.kind) {
    case 'multiple_choice':
      return `[The tutor shows a multiple-choice question: "${widget.props.prompt}"\n${widget.props.options
        .map((option, index) => `${index + 1}. ${option}`)
        .join('\n')}\nReply with only the number of the option you choose.]`;
    case 'free_text':
      return `[The tutor shows a text box: "${widget.props.prompt}". Reply with only what you type into it.]`;
    case 'code_editor':
      return `[The tutor shows a ${widget.props.language} code editor: "${widget.props.prompt}"${
        widget.props.starterCode ? `\nStarter code:\n${widget.props.starterCode}` : ''
      }\nReply with only your code.]`;
    case 'rating':
      return `[The tutor shows a rating scale from ${widget.props.min} to ${widget.props.max}: "${widget.props.prompt}". Reply with only the number you pick.]`;
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The conversation from the simulated learner's side: tutor → user, learner → assistant. */
export function simulatedMessages(view: LearnerView): Array<{ role: 'user' | 'assistant'; content: string }> {
  const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  const push = (role: 'user' | 'assistant', content: string) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content += `\n\n${content}`;
    else messages.push({ role, content });
  };
  for (const entry of view.transcript) if (entry.text.trim()) push(entry.role === 'tutor' ? 'user' : 'assistant', entry.text);
  if (view.pendingWidget) push('user', widgetInstruction(view.pendingWidget));
  if (messages[0]?.role !== 'user') messages.unshift({ role: 'user', content: '(The tutor opens the session.)' });
  if (messages[messages.length - 1]?.role !== 'user') push('user', '(The tutor waits for your reply.)');
  return messages;
}

function stripCodeFence(text: string): string {
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(text.trim());
  return fenced ? fenced[1]! : text;
}

function simulatedLearner(spec: Extract<LearnerSpec, { type: 'simulated' }>, settings: AnthropicSettings): Learner {
  const model = spec.model ?? DEFAULT_LEARNER_MODEL;
  return {
    label: `simulated (${model}, at most ${spec.maxTurns} turns)`,
    turnExpectations: [],
    async next(view) {
      if (view.turn > spec.maxTurns) return null;
      const widget = view.pendingWidget;
      if (widget && spec.widgets) {
        const byRule = moveForWidget(widget, spec.widgets);
        if (byRule.type !== 'stuck') return byRule;
      }
      const reply = await createMessage(settings, { model, system: systemPrompt(spec.persona), messages: simulatedMessages(view), maxTokens: 400 });
      if (!reply.ok) return { type: 'stuck', reason: `simulated learner: ${reply.error}` };
      if (!widget) return { type: 'chat', message: reply.text };
      switch (widget.kind) {
        case 'multiple_choice': {
          const picked = Number(/\d+/.exec(reply.text)?.[0] ?? Number.NaN) - 1;
          const option = widget.props.options[picked];
          if (option === undefined) return { type: 'stuck', reason: `simulated learner answered "${reply.text}" to the ${describeWidget(widget)}` };
          return { type: 'widget_answer', widget, response: { selectedIndex: picked }, label: option };
        }
        case 'free_text': {
          const text = reply.text.slice(0, widget.props.maxLength);
          return { type: 'widget_answer', widget, response: { text }, label: text };
        }
        case 'code_editor': {
          const code = stripCodeFence(reply.text);
          return { type: 'widget_answer', widget, response: { code, language: widget.props.language }, label: code };
        }
        case 'rating': {
          const value = Number(/-?\d+/.exec(reply.text)?.[0] ?? Number.NaN);
          if (!Number.isInteger(value) || value < widget.props.min || value > widget.props.max) return { type: 'stuck', reason: `simulated learner answered "${reply.text}" to the ${describeWidget(widget)}` };
          return { type: 'widget_answer', widget, response: { value }, label: String(value) };
        }
        default: {
          const unreachable: never = widget;
          throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
        }
      }
    },
  };
}

/** The learner a case asks for; a simulated learner without an API key is not run. */
export function createLearner(spec: LearnerSpec, environment: LearnerEnvironment): CreateLearnerResult {
  switch (spec.type) {
    case 'scripted':
      return { ok: true, learner: scriptedLearner(spec) };
    case 'policy':
      return { ok: true, learner: policyLearner(spec) };
    case 'simulated':
      if (!environment.anthropic) {
        return { ok: false, notRunReason: 'the simulated learner needs ANTHROPIC_API_KEY (and honours ANTHROPIC_BASE_URL); it is not set' };
      }
      return { ok: true, learner: simulatedLearner(spec, environment.anthropic) };
    case 'learning':
      return { ok: true, learner: createLearningLearner(spec) };
    default: {
      const unreachable: never = spec;
      throw new Error(`unknown learner ${JSON.stringify(unreachable)}`);
    }
  }
}
