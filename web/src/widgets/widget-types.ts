import type { WidgetAnswerOf, WidgetKind, WidgetOf } from '@tutorloop/shared';
import type { ComponentType } from 'react';

export type { WidgetOf };

/** The answer each kind sends as `widget_response.response` (from the shared table of kinds). */
export type WidgetAnswerByKind = { [K in WidgetKind]: WidgetAnswerOf<K> };

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
  /** The learner's answer, when known (read as this kind's answer by the view). */
  answer: WidgetAnswerOf<K> | null;
}

/** Props of the learner's answer as shown on their message. */
export interface WidgetAnswerProps<K extends WidgetKind> {
  widget: WidgetOf<K>;
  answer: WidgetAnswerOf<K>;
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
