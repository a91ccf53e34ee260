/**
 * The client tools the tutor may call (SPEC §4.2) as JSON schemas for the model, and the
 * check that turns a tool call into a widget: its input is validated with the shared zod
 * props schemas, so a widget that reaches the learner is always a valid one.
 */
import { CodeEditorProps, FreeTextProps, Limits, MultipleChoiceProps, type WidgetKind } from '@tutorloop/shared';
import { modeToolNames, type ModeChange, type WidgetRequest } from '../core/provider';
import type { LlmTool } from './llm-client';

/** Tool name per widget kind (the same names the engine stores, see session-view.ts). */
export const widgetToolNames = {
  multiple_choice: 'present_choices',
  free_text: 'request_free_text',
  code_editor: 'present_code_editor',
} as const satisfies Record<WidgetKind, string>;

/** The free-text widget's answer length when the model does not say. */
export const defaultFreeTextMaxLength = 1000;

export const tutorTools: readonly LlmTool[] = [
  {
    name: widgetToolNames.multiple_choice,
    description:
      'Show the learner a multiple-choice question. Use it after several unsuccessful cues, or to check a fine distinction. Exactly one option is correct; the others are plausible. Their choice comes back as the tool result.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The question.' },
        options: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 6, description: '2–6 answer options, in the order to show them.' },
        context: { type: 'string', description: 'Optional short line of context shown above the question.' },
      },
      required: ['prompt', 'options'],
      additionalProperties: false,
    },
  },
  {
    name: widgetToolNames.free_text,
    description:
      'Ask the learner to write out a longer answer in a text box (an explanation, a definition, steps). Their text comes back as the tool result.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'What to write about.' },
        placeholder: { type: 'string', description: 'Optional placeholder text for the box.' },
        context: { type: 'string', description: 'Optional short line of context shown above the box.' },
        maxLength: { type: 'integer', minimum: 1, maximum: Limits.freeTextMaxLength, description: `Longest answer in characters (default ${defaultFreeTextMaxLength}).` },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
  },
  {
    name: widgetToolNames.code_editor,
    description: 'Ask the learner to write or complete code in an editor. Use it only when the material is about code. Their code comes back as the tool result.',
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The task.' },
        language: { type: 'string', enum: ['python', 'javascript'] },
        starterCode: { type: 'string', description: 'Optional code to start from (never the solution).' },
      },
      required: ['prompt', 'language'],
      additionalProperties: false,
    },
  },
];

/**
 * Server tools the tutor may call to change the session mode by its own judgment (SPEC §4.1).
 * Always offered (a stable tool list keeps the cached prompt prefix); a call that would not
 * change anything is ignored by the engine.
 */
export const modeTools: readonly LlmTool[] = [
  {
    name: modeToolNames.enter,
    description:
      'Follow the learner into a tangent (a "rabbit hole"): call it when they clearly want to explore a related question beyond the ideas being reviewed. Reply to their question in the same turn. While in the tangent you do not cue ideas.',
    inputSchema: {
      type: 'object',
      properties: { topic: { type: 'string', description: 'The tangent in a few words, as the learner put it.' } },
      required: ['topic'],
      additionalProperties: false,
    },
  },
  {
    name: modeToolNames.exit,
    description: 'Leave the tangent and return to the review: call it when the learner is ready to go back (or the tangent has run its course), and cue the current idea in the same reply.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
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

/** Validates a tool call of the tutor and returns the widget it asks for. */
export function widgetFromToolCall(name: string, input: Record<string, unknown>): WidgetFromTool {
  switch (name) {
    case widgetToolNames.multiple_choice: {
      const parsed = MultipleChoiceProps.safeParse(input);
      return parsed.success ? { ok: true, widget: { kind: 'multiple_choice', props: parsed.data } } : { ok: false, error: issues(parsed.error) };
    }
    case widgetToolNames.free_text: {
      const maxLength = input['maxLength'] === undefined || input['maxLength'] === null ? defaultFreeTextMaxLength : input['maxLength'];
      const parsed = FreeTextProps.safeParse({ ...input, maxLength });
      return parsed.success ? { ok: true, widget: { kind: 'free_text', props: parsed.data } } : { ok: false, error: issues(parsed.error) };
    }
    case widgetToolNames.code_editor: {
      const parsed = CodeEditorProps.safeParse(input);
      return parsed.success ? { ok: true, widget: { kind: 'code_editor', props: parsed.data } } : { ok: false, error: issues(parsed.error) };
    }
    default:
      return { ok: false, error: `unknown tool ${name}` };
  }
}
