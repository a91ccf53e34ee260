/**
 * How a plan-following learner answers a practice widget (SPEC §4.4 "Practice steps"). Pure.
 * A multiple-choice item that is simple arithmetic ("What is 38 + 45?", "Subtract 27 from 52.",
 * "Find the product of 6 and 7.") is computed and the option holding the result is picked;
 * any other item gets its first option. A code item gets its starter code back (any answer
 * will do: the server scores it and the plan moves on either way); free text a short reply.
 */
import type { Widget, WidgetAnswer } from '@tutorloop/shared';

const operations: Record<string, (left: number, right: number) => number> = {
  '+': (left, right) => left + right,
  '-': (left, right) => left - right,
  '×': (left, right) => left * right,
  '*': (left, right) => left * right,
  '÷': (left, right) => left / right,
};

const dashes = /[−–—]/g;

/** The value of the simple arithmetic a prompt asks for, or null when it is not one. */
export function solveArithmetic(prompt: string): number | null {
  const text = prompt.replace(dashes, '-').replace(/(\d),(\d{3})\b/g, '$1$2');
  // Whole numbers standing on their own: "10.0.0.77/26" or "3.5.2" are not arithmetic (no "/" either: the generators write ÷).
  const written = /(?<![\d./])(\d+(?:\.\d+)?)\s*([+\-×*÷]|\bx\b)\s*(\d+(?:\.\d+)?)(?![\d./])/.exec(text);
  if (written) {
    const operator = written[2] === 'x' ? '×' : written[2]!;
    return operations[operator]!(Number(written[1]), Number(written[3]));
  }
  const phrased: Array<[RegExp, (first: number, second: number) => number]> = [
    [/\bsum of (\d+) and (\d+)/i, (first, second) => first + second],
    [/\bproduct of (\d+) and (\d+)/i, (first, second) => first * second],
    [/\bdifference between (\d+) and (\d+)/i, (first, second) => first - second],
    [/\bsubtract (\d+) from (\d+)/i, (first, second) => second - first],
    [/\bdivide (\d+) by (\d+)/i, (first, second) => first / second],
    [/\badd (\d+) (?:and|to) (\d+)/i, (first, second) => first + second],
    [/\bmultiply (\d+) by (\d+)/i, (first, second) => first * second],
  ];
  for (const [pattern, compute] of phrased) {
    const match = pattern.exec(text);
    if (match) return compute(Number(match[1]), Number(match[2]));
  }
  return null;
}

/** The option whose text is the number `value` (commas and spaces ignored), or -1. */
export function optionFor(options: readonly string[], value: number): number {
  return options.findIndex((option) => {
    const cleaned = option.replace(dashes, '-').replace(/[,\s]/g, '');
    return cleaned !== '' && Number(cleaned) === value;
  });
}

export interface PracticeAnswer {
  response: WidgetAnswer;
  /** What the learner picked or wrote, for reports. */
  label: string;
}

export function answerPractice(widget: Widget): PracticeAnswer {
  switch (widget.kind) {
    case 'multiple_choice': {
      const value = solveArithmetic(widget.props.prompt);
      const computed = value === null ? -1 : optionFor(widget.props.options, value);
      const index = computed >= 0 ? computed : 0;
      return { response: { selectedIndex: index }, label: widget.props.options[index] ?? '' };
    }
    case 'free_text': {
      const text = 'I am not sure yet.'.slice(0, widget.props.maxLength);
      return { response: { text }, label: text };
    }
    case 'code_editor': {
      const code = widget.props.starterCode?.trim() ? widget.props.starterCode : `# ${widget.props.prompt.slice(0, 200)}\npass\n`;
      return { response: { code, language: widget.props.language }, label: code };
    }
    case 'rating': {
      // The middle of the scale: a practice item never asks for a rating; a survey would.
      const value = Math.round((widget.props.min + widget.props.max) / 2);
      return { response: { value }, label: String(value) };
    }
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}
