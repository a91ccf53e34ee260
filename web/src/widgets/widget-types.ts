import type { Widget, WidgetAnswer, WidgetKind } from '@tutorloop/shared';
import type { ComponentType } from 'react';

/** The widget of one kind. */
export type WidgetOf<K extends WidgetKind> = Extract<Widget, { kind: K }>;

/** The answer each kind sends as `widget_response.response`. */
export interface WidgetAnswerByKind {
  multiple_choice: { selectedIndex: number };
  free_text: { text: string };
  code_editor: { code: string; language: WidgetOf<'code_editor'>['props']['language'] };
  rating: { value: number };
}

/** Props of the interactive form of a widget. */
export interface WidgetInputProps<K extends WidgetKind> {
  widget: WidgetOf<K>;
  /** True while the answer cannot be sent (e.g. reconnecting). */
  disabled: boolean;
  /** Focus the first control on mount: the widget is the next thing to do (issue 18). */
  autoFocus?: boolean;
  onSubmit(response: WidgetAnswerByKind[K]): void;
}

/** Props of the read-only views shown in the transcript once a widget is answered. */
export interface WidgetReadOnlyProps<K extends WidgetKind> {
  widget: WidgetOf<K>;
  /** The learner's answer, when known. */
  answer: WidgetAnswer | null;
}

/** Props of the learner's answer as shown on their message. */
export interface WidgetAnswerProps<K extends WidgetKind> {
  widget: WidgetOf<K>;
  answer: WidgetAnswer;
}

/** Everything the transcript needs to show one kind of widget. */
export interface WidgetDefinition<K extends WidgetKind> {
  /** Human name, e.g. for the accessible label of the widget region. */
  label: string;
  /** The form the learner answers with. */
  Input: ComponentType<WidgetInputProps<K>>;
  /** The question as it was asked (read-only), on the tutor's message. */
  Prompt: ComponentType<WidgetReadOnlyProps<K>>;
  /** The learner's answer (read-only), on the learner's message. */
  Answer: ComponentType<WidgetAnswerProps<K>>;
}
