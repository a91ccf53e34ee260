import { z } from 'zod';
import { Limits } from './limits';

/** Widget kinds the tutor can hand the learner (SPEC §4.2). */
export const WidgetKinds = {
  multipleChoice: 'multiple_choice',
  freeText: 'free_text',
  codeEditor: 'code_editor',
  /** A scale to rate on (surveys, SPEC §4.5): answered with `{"value": n}`. */
  rating: 'rating',
} as const;
export type WidgetKind = (typeof WidgetKinds)[keyof typeof WidgetKinds];
/** Every widget kind, in the order tools and prompts list them. */
export const widgetKinds = Object.values(WidgetKinds) as readonly WidgetKind[];
/** The widget kinds as a zod enum (suites, reports and other schemas that name a kind). */
export const WidgetKindSchema = z.enum(Object.values(WidgetKinds) as [WidgetKind, ...WidgetKind[]]);

/** Languages the code editor widget supports. */
export const CodeLanguage = z.enum(['python', 'javascript']);
export type CodeLanguage = z.infer<typeof CodeLanguage>;

/**
 * The client tool the tutor calls to hand out each widget kind (SPEC §4.2); the stored
 * conversation keeps these names.
 */
export const widgetToolNames = {
  multiple_choice: 'present_choices',
  free_text: 'request_free_text',
  code_editor: 'present_code_editor',
  rating: 'present_rating',
} as const satisfies Record<WidgetKind, string>;

/** The free-text widget's answer length when the tutor does not set one. */
export const defaultFreeTextMaxLength = 1000;

// Each widget is defined once, as the input of the tool the tutor calls for it: the
// descriptions are what the model reads (the server derives the tool's JSON schema from
// these schemas). The props sent to the client are that input, tightened — no empty text,
// and every optional setting the server fills in made explicit.

/** The `present_choices` tool input: a multiple-choice question as the tutor asks for it. */
export const MultipleChoiceToolInput = z.object({
  prompt: z.string().describe('The question.'),
  options: z.array(z.string()).min(2).max(6).describe('2–6 answer options, in the order to show them.'),
  context: z.string().optional().describe('Optional short line of context shown above the question.'),
});
/** Props of a multiple-choice widget: 2–6 options, one to pick. */
export const MultipleChoiceProps = MultipleChoiceToolInput.extend({
  prompt: MultipleChoiceToolInput.shape.prompt.min(1),
  options: z.array(z.string().min(1)).min(2).max(6),
});

/** The `request_free_text` tool input: a text box as the tutor asks for it. */
export const FreeTextToolInput = z.object({
  prompt: z.string().describe('What to write about.'),
  placeholder: z.string().optional().describe('Optional placeholder text for the box.'),
  context: z.string().optional().describe('Optional short line of context shown above the box.'),
  maxLength: z
    .number()
    .int()
    .min(1)
    .max(Limits.freeTextMaxLength)
    .optional()
    .describe(`Longest answer in characters (default ${defaultFreeTextMaxLength}).`),
});
/** Props of a free-text widget (`maxLength` always set: `defaultFreeTextMaxLength` when the tutor gave none). */
export const FreeTextProps = FreeTextToolInput.extend({
  prompt: FreeTextToolInput.shape.prompt.min(1),
  maxLength: FreeTextToolInput.shape.maxLength.unwrap(),
});

/** The `present_code_editor` tool input: a code editor as the tutor asks for it. */
export const CodeEditorToolInput = z.object({
  prompt: z.string().describe('The task.'),
  language: CodeLanguage,
  starterCode: z.string().optional().describe('Optional code to start from (never the solution).'),
});
/** A visible example of a code item: a call and what it must return, both written in the item's language. */
export const CodeExample = z.object({ input: z.string().min(1), expected: z.string() });
export type CodeExample = z.infer<typeof CodeExample>;

/**
 * Props of a code editor widget. `examples` only on items the server generated (assessments,
 * practice): the learner may run their code on them first (`POST
 * /api/sessions/{id}/items/{widgetId}/run-examples`) — never set by a tutor's tool call.
 */
export const CodeEditorProps = CodeEditorToolInput.extend({
  prompt: CodeEditorToolInput.shape.prompt.min(1),
  examples: z.array(CodeExample).max(10).optional(),
});

/** The widest rating scale: 0–10 (eleven points). */
export const ratingScaleMax = 10;

/** The `present_rating` tool input: a scale from `min` to `max`, optionally labelled (SPEC §4.5, §5). */
export const RatingToolInput = z.object({
  prompt: z.string().describe('The question.'),
  min: z.number().int().min(0).max(ratingScaleMax - 1).describe('The lowest value of the scale (e.g. 1).'),
  max: z.number().int().min(1).max(ratingScaleMax).describe('The highest value of the scale (e.g. 5).'),
  labels: z
    .record(z.string().regex(/^\d+$/, 'a label is keyed by a value of the scale'), z.string().min(1).max(60))
    .optional()
    .describe('Optional words for some values, keyed by the value, e.g. {"1": "Poor", "5": "Excellent"}.'),
});
/** Props of a rating widget: `min` < `max`, labels only for values of the scale. */
export const RatingProps = RatingToolInput.extend({
  prompt: RatingToolInput.shape.prompt.min(1),
}).superRefine((props, context) => {
  if (props.max <= props.min) context.addIssue({ code: 'custom', path: ['max'], message: 'must be greater than min' });
  for (const key of Object.keys(props.labels ?? {})) {
    const value = Number(key);
    if (value < props.min || value > props.max) context.addIssue({ code: 'custom', path: ['labels', key], message: `labels a value outside ${props.min}–${props.max}` });
  }
});

/**
 * The widget registry: each kind's tool input (what the tutor sends) and props (what the
 * client receives). Keyed by every kind, so a new kind does not compile until it has both;
 * the server derives its tools, their JSON schemas and the tool-call parsing from it.
 */
export const widgetSchemas = {
  multiple_choice: { toolInput: MultipleChoiceToolInput, props: MultipleChoiceProps },
  free_text: { toolInput: FreeTextToolInput, props: FreeTextProps },
  code_editor: { toolInput: CodeEditorToolInput, props: CodeEditorProps },
  rating: { toolInput: RatingToolInput, props: RatingProps },
} as const satisfies Record<WidgetKind, { toolInput: z.ZodObject; props: z.ZodObject }>;

/** The widget kind a client tool name stands for, or null. */
export function widgetKindForTool(toolName: string): WidgetKind | null {
  return widgetKinds.find((kind) => widgetToolNames[kind] === toolName) ?? null;
}

/** A widget as sent to the client in a `widget` event and inside `state_update`. */
export const Widget = z.discriminatedUnion('kind', [
  z.object({ widgetId: z.string().min(1), kind: z.literal('multiple_choice'), props: MultipleChoiceProps }),
  z.object({ widgetId: z.string().min(1), kind: z.literal('free_text'), props: FreeTextProps }),
  z.object({ widgetId: z.string().min(1), kind: z.literal('code_editor'), props: CodeEditorProps }),
  z.object({ widgetId: z.string().min(1), kind: z.literal('rating'), props: RatingProps }),
]);
export type Widget = z.infer<typeof Widget>;

/** A learner's answer to a widget (the `response` of `widget_response`). */
export const WidgetAnswer = z.union([
  z.object({ selectedIndex: z.number().int().min(0) }).strict(),
  z.object({ text: z.string().max(Limits.freeTextMaxLength) }).strict(),
  z.object({ code: z.string().max(Limits.codeMaxLength), language: CodeLanguage }).strict(),
  /** A rating: the value picked on the scale (SPEC §5). */
  z.object({ value: z.number().int() }).strict(),
]);
export type WidgetAnswer = z.infer<typeof WidgetAnswer>;
