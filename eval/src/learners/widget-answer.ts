/**
 * Picks the answer to a widget from a list of rules: the first rule that applies wins.
 * Pure. A rule applies when its kind fits the widget (`first`/`index`/`match` → multiple
 * choice, `text` → free text, `code` → code editor, `skip` → any), its `whenPromptIncludes` / `whenPromptMasks`
 * (if any) is in the prompt, and it can produce an answer (`match` needs an option that
 * contains its text, `index` must be in range).
 */
import type { Widget, WidgetAnswer } from '@tutorloop/shared';
import type { WidgetRule } from '../suites/suite-schema';

export type WidgetDecision =
  /** Send `widget_response` with this answer; `label` is what the learner picked or wrote. */
  | { ok: true; type: 'answer'; response: WidgetAnswer; label: string }
  /** Leave the widget pending and chat instead. */
  | { ok: true; type: 'chat'; message: string }
  | { ok: false; reason: string };

type RuleOutcome = Exclude<WidgetDecision, { ok: false }> | { ok: false; reason: string };

function includes(haystack: string, needle: string): boolean {
  return haystack.toLowerCase().includes(needle.toLowerCase());
}

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);

/**
 * A prompt word stands for a text word when it is the word, its mask ("F_____" for "france"),
 * or a blank of underscores alone, which hides the word's length on purpose and so stands for
 * any one word ("Paris _____ the capital of France").
 */
function standsFor(shown: string, word: string): boolean {
  if (shown === word) return true;
  if (/^_+$/.test(shown)) return true;
  return /^[\p{L}\p{N}]_+$/u.test(shown) && shown.length === word.length && shown[0] === word[0];
}

/** Whether `prompt` states `text`, word for word, with any of its words masked. */
export function promptMasks(prompt: string, text: string): boolean {
  const shown = words(prompt);
  const wanted = words(text);
  if (wanted.length === 0) return false;
  for (let start = 0; start + wanted.length <= shown.length; start++) {
    if (wanted.every((word, offset) => standsFor(shown[start + offset]!, word))) return true;
  }
  return false;
}

/** The option that is the text (ignoring case and surrounding space), else the first that contains it, else -1. */
function matchingOption(options: readonly string[], text: string): number {
  const exact = options.findIndex((option) => option.trim().toLowerCase() === text.trim().toLowerCase());
  return exact >= 0 ? exact : options.findIndex((option) => includes(option, text));
}

/** `match "capital"` — a short name for a rule in messages. */
export function describeRule(rule: WidgetRule): string {
  const condition =
    (rule.whenPromptIncludes ? ` when the prompt includes "${rule.whenPromptIncludes}"` : '') +
    (rule.whenPromptMasks ? ` when the prompt states "${rule.whenPromptMasks}", masked or not` : '');
  switch (rule.answer) {
    case 'first':
      return `first${condition}`;
    case 'index':
      return `index ${rule.index}${condition}`;
    case 'match':
      return `match "${rule.text}"${condition}`;
    case 'text':
      return `text${condition}`;
    case 'code':
      return `code${condition}`;
    case 'skip':
      return `skip${condition}`;
    default: {
      const unreachable: never = rule;
      throw new Error(`unknown rule ${JSON.stringify(unreachable)}`);
    }
  }
}

function applyRule(widget: Widget, rule: WidgetRule): RuleOutcome {
  if (rule.whenPromptIncludes && !includes(widget.props.prompt, rule.whenPromptIncludes)) {
    return { ok: false, reason: 'the prompt does not include that text' };
  }
  if (rule.whenPromptMasks && !promptMasks(widget.props.prompt, rule.whenPromptMasks)) {
    return { ok: false, reason: 'the prompt does not state that text, masked or not' };
  }
  // `skip` answers any widget by chatting instead; every other rule fits one kind, read by
  // switching on the widget's kind (a new kind is listed by the type checker).
  if (rule.answer === 'skip') return { ok: true, type: 'chat', message: rule.say };
  const wrongKind = { ok: false, reason: `does not answer ${widget.kind}` } as const;
  switch (widget.kind) {
    case 'multiple_choice': {
      if (rule.answer !== 'first' && rule.answer !== 'index' && rule.answer !== 'match') return wrongKind;
      const options = widget.props.options;
      const index =
        rule.answer === 'first' ? 0 : rule.answer === 'index' ? rule.index : matchingOption(options, rule.text);
      const option = options[index];
      if (option === undefined) {
        return { ok: false, reason: rule.answer === 'match' ? `no option contains "${rule.text}"` : `there are only ${options.length} options` };
      }
      return { ok: true, type: 'answer', response: { selectedIndex: index }, label: option };
    }
    case 'free_text': {
      if (rule.answer !== 'text') return wrongKind;
      if (rule.text.length > widget.props.maxLength) return { ok: false, reason: `the text is longer than the widget's ${widget.props.maxLength} characters` };
      return { ok: true, type: 'answer', response: { text: rule.text }, label: rule.text };
    }
    case 'code_editor': {
      if (rule.answer !== 'code') return wrongKind;
      const language = rule.language ?? widget.props.language;
      if (language !== widget.props.language) return { ok: false, reason: `the widget asks for ${widget.props.language}, the rule gives ${language}` };
      return { ok: true, type: 'answer', response: { code: rule.code, language }, label: rule.code };
    }
    case 'rating':
      // No suite rule rates yet: a rating widget is answered by a `skip` rule's chat.
      return wrongKind;
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

/** `multiple_choice "Which…?" (options: "A" | "B")` — the widget in messages. */
export function describeWidget(widget: Widget): string {
  const prompt = `${widget.kind} "${widget.props.prompt}"`;
  switch (widget.kind) {
    case 'multiple_choice':
      return `${prompt} (options: ${widget.props.options.map((option) => `"${option}"`).join(' | ')})`;
    case 'free_text':
    case 'code_editor':
    case 'rating':
      return prompt;
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

/** The first applicable rule's answer, or why none applies. */
export function answerWidget(widget: Widget, rules: readonly WidgetRule[]): WidgetDecision {
  const refusals: string[] = [];
  for (const [index, rule] of rules.entries()) {
    const outcome = applyRule(widget, rule);
    if (outcome.ok) return outcome;
    refusals.push(`rule ${index + 1} (${describeRule(rule)}): ${outcome.reason}`);
  }
  return { ok: false, reason: `no rule answers the ${describeWidget(widget)}; ${refusals.join('; ')}` };
}
