/**
 * A recall set that makes the offline tutor hand out every widget (see
 * server/test/offline-widgets.test.ts): a point quoting code gets a Python code editor after
 * one miss, a point of 160+ characters a free-text box after one miss, a short point multiple
 * choice after two misses. The tutor probes them in this order.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { pendingWidget, say } from './session';

export const codePoint = '`len(s)` returns the number of characters in a string';
export const longPoint =
  'Photosynthesis converts light energy into chemical energy: chloroplasts capture sunlight with chlorophyll, split water to release oxygen, and fix carbon dioxide into glucose in the Calvin cycle';
export const shortPoint = 'Paris is the capital of France';
export const widgetPoints = [codePoint, longPoint, shortPoint] as const;

/** The same three points as a Markdown import. */
export function widgetSetMarkdown(title: string): string {
  return [`# ${title}`, 'Three points, one per kind of widget.', '', ...widgetPoints.map((point) => `- ${point}`), ''].join('\n');
}

/** Code that uses `len()` on a string: recalls the code point. */
export const codeAnswer = 'word = "héllo"\nprint(len(word))';
/** The long point in other words: recalls it. */
export const freeTextAnswer =
  'Chloroplasts use chlorophyll to capture sunlight, split water releasing oxygen, and fix carbon dioxide into glucose — light energy becomes chemical energy.';

/** One miss on the code point: the tutor hands over a Python code editor. */
export async function missUntilCodeEditor(page: Page): Promise<Locator> {
  await say(page, 'no idea');
  const widget = pendingWidget(page, 'code_editor');
  await expect(widget).toBeVisible();
  await expect(widget.getByTestId('code-language')).toHaveText('Python');
  return widget;
}

/** One miss on the long point: a free-text box. */
export async function missUntilFreeText(page: Page): Promise<Locator> {
  await say(page, 'no idea');
  const widget = pendingWidget(page, 'free_text');
  await expect(widget).toBeVisible();
  return widget;
}

/** Two misses on the short point: multiple choice. */
export async function missUntilChoices(page: Page): Promise<Locator> {
  await say(page, 'no idea');
  await expect(pendingWidget(page, 'multiple_choice')).toHaveCount(0);
  await say(page, 'still nothing');
  const widget = pendingWidget(page, 'multiple_choice');
  await expect(widget).toBeVisible();
  return widget;
}

/** The session's progress label, e.g. `1 of 3 recalled`. */
export function progress(page: Page): Locator {
  return page.getByTestId('progress');
}
