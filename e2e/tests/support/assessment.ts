/** Assessments in the browser: starting one from `#/assessments` and walking through its items. */
import { expect, type Locator, type Page } from '@playwright/test';
import { anyPendingWidget, promptOf } from './session';

/** Opens `#/assessments` from the header and starts the assessment with this title. */
export async function startAssessment(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assessments' }).click();
  await expect(page.getByRole('heading', { name: 'Assessments' })).toBeVisible();
  await page.getByTestId('assessment').filter({ hasText: title }).getByRole('button', { name: 'Start assessment' }).click();
  await expect(page).toHaveURL(/#\/sessions\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

export interface PresentedItem {
  /** 1-based, as in "Item 3 of 20". */
  position: number;
  kind: 'multiple_choice' | 'code_editor';
  /** The section badge while the item is pending, e.g. `Addition`. */
  section: string;
  stem: string;
  widget: Locator;
}

/**
 * Waits for item `position` of `total` to be pending — the counter says so and a widget other
 * than the previous one is shown — and reads it.
 */
export async function waitForItem(
  page: Page,
  position: number,
  total: number,
  previousWidgetId: string | null,
  options: { timeout?: number } = {},
): Promise<PresentedItem> {
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(`Item ${position} of ${total}`, options);
  const notPrevious = previousWidgetId ? page.locator(`[data-widget-id]:not([data-widget-id="${previousWidgetId}"])`) : page.locator('[data-widget-id]');
  const widget = anyPendingWidget(page).and(notPrevious);
  await expect(widget).toBeVisible();
  const testId = await widget.getAttribute('data-testid');
  if (testId !== 'widget-multiple_choice' && testId !== 'widget-code_editor') throw new Error(`unexpected assessment widget ${testId}`);
  const kind = testId === 'widget-multiple_choice' ? 'multiple_choice' : 'code_editor';
  if (kind === 'multiple_choice') await expect(widget).toContainText(`Item ${position} of ${total}`);
  return { position, kind, section: await page.getByTestId('assessment-section').innerText(), stem: await promptOf(widget), widget };
}

/** Nothing on the page may show a correct answer, a score or an outcome while the assessment runs. */
export async function expectNoAnswersRevealed(page: Page): Promise<void> {
  await expect(page.getByTestId('assessment-results')).toHaveCount(0);
  await expect(page.getByTestId('item-correct-answer')).toHaveCount(0);
  await expect(page.getByTestId('item-credit')).toHaveCount(0);
  await expect(page.getByText('Correct answer')).toHaveCount(0);
}

/** The results row of one domain, by the last part of its path (`Addition`). */
export function domainRow(page: Page, domain: string): Locator {
  return page.getByTestId('domain-row').and(page.locator(`[data-domain$="> ${domain}"]`));
}

/** `14 / 20 — 70%`, worded as the results screen does (tenths for partial credit). */
export function scoreLabel(score: number, max: number): string {
  return `${Math.round(score * 10) / 10} / ${max} — ${Math.round((score / max) * 100)}%`;
}
