import { z } from 'zod';
import { Limits } from './limits';

/** Languages the code editor widget supports. */
export const CodeLanguage = z.enum(['python', 'javascript']);
export type CodeLanguage = z.infer<typeof CodeLanguage>;

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


// What the learner sends back for each kind (the `response` of `widget_response`, SPEC §5). The
// response carries no kind: the server knows it from the pending widget it answers. Strict, so
// no response fits two kinds.

/** A multiple-choice answer: the index of the option picked. */
export const MultipleChoiceResponse = z.object({ selectedIndex: z.number().int().min(0) }).strict();
/** A free-text answer. */
export const FreeTextResponse = z.object({ text: z.string().max(Limits.freeTextMaxLength) }).strict();
/** A code answer, in the language the widget asked for. */
export const CodeEditorResponse = z.object({ code: z.string().max(Limits.codeMaxLength), language: CodeLanguage }).strict();
/** A rating: the value picked on the scale (SPEC §4.5, §5). */
export const RatingResponse = z.object({ value: z.number().int() }).strict();

/**
 * The table of widget kinds (SPEC §4.2): for each kind, the client tool the tutor calls to
 * hand it out (the stored conversation keeps these names), that tool's input (what the tutor
 * sends), the props (what the client receives), the response (what the learner sends back) and
 * how to tell a learner who sent the wrong shape. Every other list of kinds — `WidgetKind`,
 * `Widget`, `WidgetAnswer`, the tools and their JSON schemas — is derived from it, so a new kind
 * is one entry here and the type checker lists what is left elsewhere.
 */
export const widgetSchemas = {
  multiple_choice: { toolName: 'present_choices', toolInput: MultipleChoiceToolInput, props: MultipleChoiceProps, response: MultipleChoiceResponse, expects: '{"selectedIndex": n}' },
  free_text: { toolName: 'request_free_text', toolInput: FreeTextToolInput, props: FreeTextProps, response: FreeTextResponse, expects: '{"text": "..."}' },
  code_editor: { toolName: 'present_code_editor', toolInput: CodeEditorToolInput, props: CodeEditorProps, response: CodeEditorResponse, expects: '{"code": "...", "language": "..."}' },
  rating: { toolName: 'present_rating', toolInput: RatingToolInput, props: RatingProps, response: RatingResponse, expects: '{"value": n}' },
} as const satisfies Record<string, { toolName: string; toolInput: z.ZodObject; props: z.ZodObject; response: z.ZodObject; expects: string }>;

type WidgetTable = typeof widgetSchemas;
/** A widget kind the tutor can hand the learner. */
export type WidgetKind = keyof WidgetTable;
/** Every widget kind, in the order tools and prompts list them. */
export const widgetKinds = Object.keys(widgetSchemas) as readonly WidgetKind[];
/** The widget kinds as a zod enum (suites, reports and other schemas that name a kind). */
export const WidgetKindSchema = z.enum(widgetKinds as [WidgetKind, ...WidgetKind[]]);

/** The client tool the tutor calls to hand out each widget kind. */
export const widgetToolNames = Object.fromEntries(widgetKinds.map((kind) => [kind, widgetSchemas[kind].toolName])) as { readonly [K in WidgetKind]: WidgetTable[K]['toolName'] };

/** The widget kind a client tool name stands for, or null. */
export function widgetKindForTool(toolName: string): WidgetKind | null {
  return widgetKinds.find((kind) => widgetToolNames[kind] === toolName) ?? null;
}

function widgetSchemaOf<K extends WidgetKind>(kind: K) {
  return z.object({ widgetId: z.string().min(1), kind: z.literal(kind), props: widgetSchemas[kind].props as WidgetTable[K]['props'] });
}
type WidgetSchemaOf<K extends WidgetKind> = ReturnType<typeof widgetSchemaOf<K>>;
type AnyWidgetSchema = { [K in WidgetKind]: WidgetSchemaOf<K> }[WidgetKind];

/** A widget as sent to the client in a `widget` event and inside `state_update`: a union keyed on `kind`. */
export const Widget = z.discriminatedUnion('kind', widgetKinds.map(widgetSchemaOf) as [AnyWidgetSchema, ...AnyWidgetSchema[]]);
export type Widget = z.infer<typeof Widget>;
/** The widget of one kind. */
export type WidgetOf<K extends WidgetKind> = Extract<Widget, { kind: K }>;

type AnyResponseSchema = WidgetTable[WidgetKind]['response'];
/** A learner's answer to a widget (the `response` of `widget_response`): any kind's response. */
export const WidgetAnswer = z.union(widgetKinds.map((kind) => widgetSchemas[kind].response) as [AnyResponseSchema, ...AnyResponseSchema[]]);
export type WidgetAnswer = z.infer<typeof WidgetAnswer>;
/** The answer a widget of one kind takes. */
export type WidgetAnswerOf<K extends WidgetKind> = z.infer<WidgetTable[K]['response']>;

/**
 * An answer paired with the kind of widget it answers: what every reader of an answer
 * switches on (`switch (answer.kind)`, ending in a `never` check), instead of probing fields.
 */
export type KindedAnswer = { [K in WidgetKind]: { kind: K; answer: WidgetAnswerOf<K> } }[WidgetKind];
export type KindedAnswerOf<K extends WidgetKind> = Extract<KindedAnswer, { kind: K }>;

/**
 * The answer to a widget of `kind`, paired with that kind; null when the response is not what
 * that kind takes (a `{"text": …}` sent to a multiple-choice widget).
 */
export function answerForKind<K extends WidgetKind>(kind: K, response: unknown): KindedAnswerOf<K> | null {
  const parsed = (widgetSchemas[kind].response as z.ZodType).safeParse(response);
  return parsed.success ? ({ kind, answer: parsed.data } as KindedAnswerOf<K>) : null;
}

/**
 * The kind a stored answer belongs to, read from its shape (the responses are strict, so at
 * most one kind fits). For an answer whose widget is not at hand — one already checked against
 * it when it arrived; with the widget, use `answerForKind`.
 */
export function kindOfAnswer(response: unknown): KindedAnswer | null {
  for (const kind of widgetKinds) {
    const paired = answerForKind(kind, response);
    if (paired) return paired;
  }
  return null;
}
