import type { WidgetKind } from '@tutorloop/shared';
import { CodeEditor, CodeEditorAnswer } from './code-editor';
import { FreeText, FreeTextAnswer } from './free-text';
import { PlainPrompt } from './plain-prompt';
import { MultipleChoice, MultipleChoiceAnswer, MultipleChoicePrompt } from './multiple-choice';
import { Rating, RatingAnswer, RatingPrompt } from './rating';
import type { WidgetDefinition } from './widget-types';

/**
 * Every widget kind the tutor can hand out (SPEC §4.2), one entry each. Adding a kind to the
 * shared protocol makes this object fail to type-check until the kind has its components.
 */
export const widgetRegistry: { [K in WidgetKind]: WidgetDefinition<K> } = {
  multiple_choice: {
    label: 'Multiple choice',
    Input: MultipleChoice,
    Prompt: MultipleChoicePrompt,
    Answer: MultipleChoiceAnswer,
  },
  free_text: {
    label: 'Written answer',
    Input: FreeText,
    Prompt: PlainPrompt,
    Answer: FreeTextAnswer,
  },
  code_editor: {
    label: 'Code',
    Input: CodeEditor,
    Prompt: PlainPrompt,
    Answer: CodeEditorAnswer,
  },
  rating: {
    label: 'Rating',
    Input: Rating,
    Prompt: RatingPrompt,
    Answer: RatingAnswer,
  },
};
