import { z } from 'zod';
import { Limits } from './limits';

/** Widget kinds the tutor can hand the learner (SPEC §4.2). */
export const WidgetKinds = {
  multipleChoice: 'multiple_choice',
  freeText: 'free_text',
  codeEditor: 'code_editor',
} as const;
export type WidgetKind = (typeof WidgetKinds)[keyof typeof WidgetKinds];

/** Languages the code editor widget supports. */
export const CodeLanguage = z.enum(['python', 'javascript']);
export type CodeLanguage = z.infer<typeof CodeLanguage>;

/** Props of a multiple-choice widget: 2–6 options, one to pick. */
export const MultipleChoiceProps = z.object({
  prompt: z.string().min(1),
  options: z.array(z.string().min(1)).min(2).max(6),
  context: z.string().optional(),
});
/** Props of a free-text widget. */
export const FreeTextProps = z.object({
  prompt: z.string().min(1),
  placeholder: z.string().optional(),
  context: z.string().optional(),
  maxLength: z.number().int().min(1).max(Limits.freeTextMaxLength),
});
/** Props of a code editor widget. */
export const CodeEditorProps = z.object({
  prompt: z.string().min(1),
  language: CodeLanguage,
  starterCode: z.string().optional(),
});

/** A widget as sent to the client in a `widget` event and inside `state_update`. */
export const Widget = z.discriminatedUnion('kind', [
  z.object({ widgetId: z.string().min(1), kind: z.literal('multiple_choice'), props: MultipleChoiceProps }),
  z.object({ widgetId: z.string().min(1), kind: z.literal('free_text'), props: FreeTextProps }),
  z.object({ widgetId: z.string().min(1), kind: z.literal('code_editor'), props: CodeEditorProps }),
]);
export type Widget = z.infer<typeof Widget>;

/** A learner's answer to a widget (the `response` of `widget_response`). */
export const WidgetAnswer = z.union([
  z.object({ selectedIndex: z.number().int().min(0) }).strict(),
  z.object({ text: z.string().max(Limits.freeTextMaxLength) }).strict(),
  z.object({ code: z.string().max(Limits.codeMaxLength), language: CodeLanguage }).strict(),
]);
export type WidgetAnswer = z.infer<typeof WidgetAnswer>;
