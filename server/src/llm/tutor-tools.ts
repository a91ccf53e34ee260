/**
 * The tools the tutor may call (SPEC §4.1, §4.2): the client tools that hand the learner a
 * widget, whose inputs are the shared widget schemas (shared/src/widgets.ts), and the mode
 * tools. Their JSON schemas are generated from zod; a tool call becomes a widget only once
 * its input validates against the shared props schemas, so a widget that reaches the
 * learner is always a valid one.
 */
import { defaultFreeTextMaxLength, Limits, widgetKindForTool, widgetKinds, widgetSchemas, widgetToolNames, type WidgetKind } from '@tutorloop/shared';
import { z } from 'zod';
import { modeToolNames, type ModeChange, type WidgetRequest } from '../core/provider';
import type { LlmTool } from './llm-client';
import { defineTool } from './tool-schema';

/**
 * What the tutor is told about each widget kind: the tool's description, and its line in
 * the system prompt's widget list. Keyed by every kind (shared's registry), so a new kind
 * does not compile until the tutor knows how to use it — or is told it is not the tutor's
 * (`null`: the kind is only ever presented by the server, as `rating` is by surveys, §4.5).
 */
const widgetGuidance: Record<WidgetKind, { description: string; promptLine: string } | null> = {
  multiple_choice: {
    description:
      'Show the learner a multiple-choice question. Use it after several unsuccessful cues, or to check a fine distinction. Exactly one option is correct; the others are plausible. Their choice comes back as the tool result.',
    promptLine: 'a multiple-choice question with 2–6 options, exactly one correct and the others plausible. Good after a few unsuccessful cues or to test a fine distinction.',
  },
  free_text: {
    description: 'Ask the learner to write out a longer answer in a text box (an explanation, a definition, steps). Their text comes back as the tool result.',
    promptLine: 'a text box for a longer explanation, a definition or a list of steps.',
  },
  code_editor: {
    description: 'Ask the learner to write or complete code in an editor. Use it only when the material is about code. Their code comes back as the tool result.',
    promptLine: 'a code editor (python or javascript) — only when the material is about code.',
  },
  // A rating scale asks for an opinion, which a recall tutor never needs: surveys present it (SPEC §4.5).
  rating: null,
};

/** The widget kinds the tutor may hand out. */
const tutorWidgetKinds = widgetKinds.filter((kind) => widgetGuidance[kind] !== null);

/** The client tools, one per widget kind the tutor may use, their JSON schemas generated from the shared tool inputs. */
export const tutorTools: readonly LlmTool[] = tutorWidgetKinds.map((kind) => defineTool(widgetToolNames[kind], widgetGuidance[kind]!.description, widgetSchemas[kind].toolInput));

/** The widget list of the tutor's system prompt, one line per kind. */
export const widgetPromptLines = tutorWidgetKinds.map((kind) => `- ${widgetToolNames[kind]}: ${widgetGuidance[kind]!.promptLine}`).join('\n');

/** The `enter_rabbit_hole` tool input. */
export const EnterRabbitHoleInput = z.object({
  topic: z.string().describe('The tangent in a few words, as the learner put it.'),
});
/** The `exit_rabbit_hole` tool input: nothing. */
export const ExitRabbitHoleInput = z.object({});

/**
 * Server tools the tutor may call to change the session mode by its own judgment (SPEC §4.1).
 * Always offered (a stable tool list keeps the cached prompt prefix); a call that would not
 * change anything is ignored by the engine.
 */
export const modeTools: readonly LlmTool[] = [
  defineTool(
    modeToolNames.enter,
    'Follow the learner into a tangent (a "rabbit hole"): call it when they clearly want to explore a related question beyond the ideas being reviewed. Reply to their question in the same turn. While in the tangent you do not cue ideas.',
    EnterRabbitHoleInput,
  ),
  defineTool(
    modeToolNames.exit,
    'Leave the tangent and return to the review: call it when the learner is ready to go back (or the tangent has run its course), and cue the current idea in the same reply.',
    ExitRabbitHoleInput,
  ),
];

export type ModeFromTool = { ok: true; change: ModeChange } | { ok: false; error: string };

/** Reads a mode tool call; null when the tool is not a mode tool. */
export function modeFromToolCall(name: string, input: Record<string, unknown>): ModeFromTool | null {
  if (name === modeToolNames.exit) return { ok: true, change: { mode: 'recall' } };
  if (name !== modeToolNames.enter) return null;
  const topic = typeof input['topic'] === 'string' ? input['topic'].replace(/\s+/g, ' ').trim().slice(0, Limits.rabbitholeTopicMaxLength) : '';
  return topic ? { ok: true, change: { mode: 'rabbithole', topic } } : { ok: false, error: 'topic: expected a non-empty string' };
}

export type WidgetFromTool = { ok: true; widget: WidgetRequest } | { ok: false; error: string };

function issues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`).join('; ');
}

/** Fills in what the tutor may leave out, before the input is checked against the props. */
function withDefaults(kind: WidgetKind, input: Record<string, unknown>): Record<string, unknown> {
  if (kind === 'free_text' && (input['maxLength'] === undefined || input['maxLength'] === null)) return { ...input, maxLength: defaultFreeTextMaxLength };
  return input;
}

/** Validates a tool call of the tutor and returns the widget it asks for. */
export function widgetFromToolCall(name: string, input: Record<string, unknown>): WidgetFromTool {
  const kind = widgetKindForTool(name);
  // A kind the tutor was not offered is as unknown as any other name.
  if (!kind || !tutorWidgetKinds.includes(kind)) return { ok: false, error: `unknown tool ${name}` };
  const parsed = widgetSchemas[kind].props.safeParse(withDefaults(kind, input));
  // The props schema belongs to `kind`, so kind and props stay linked.
  return parsed.success ? { ok: true, widget: { kind, props: parsed.data } as WidgetRequest } : { ok: false, error: issues(parsed.error) };
}
