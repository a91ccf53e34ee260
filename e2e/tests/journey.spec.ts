/**
 * Issue 6 — the whole product in one learner's visit, offline tutor, no API key: sign up;
 * a set typed by hand and another imported from Markdown; a recall session on the imported
 * set that meets every widget; the completion screen; the set's schedule with the new due
 * dates and the 30-day forecast; the desired retention changed in settings; an assessment
 * ended early and its results. Widgets and assessments in depth: widgets.spec.ts,
 * assessment.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { scoreLabel, startAssessment, waitForItem } from './support/assessment';
import { arithmeticAnswer } from './support/items';
import { createSet, importMarkdown, setRow } from './support/recall-sets';
import { choose, chooseByKeyboard, endSession, submitCode, submitFreeText } from './support/session';
import {
  codeAnswer,
  freeTextAnswer,
  missUntilChoices,
  missUntilCodeEditor,
  missUntilFreeText,
  progress,
  shortPoint,
  widgetPoints,
  widgetSetMarkdown,
} from './support/widget-set';

test('sign up, build two sets, recall one through every widget, check its schedule, set retention, take an assessment', async ({ page }) => {
  test.slow();
  const username = await signUp(page, 'journey');
  await expect(page.getByTestId('offline-badge')).toBeVisible();

  // Two sets: one typed by hand, one imported from Markdown.
  await createSet(page, 'Geography basics', ['Paris is the capital of France', 'The Pacific is the largest ocean on Earth']);
  const imported = await importMarkdown(page, 'Mixed bag', widgetSetMarkdown('Mixed bag'), widgetPoints.length);
  await expect(page.getByTestId('recall-set')).toHaveCount(2);

  // A recall session on the imported set that meets each widget.
  await imported.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mixed bag');
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(progress(page)).toHaveText('0 of 3 recalled');
  await submitCode(await missUntilCodeEditor(page), codeAnswer);
  await expect(progress(page)).toHaveText('1 of 3 recalled');
  await submitFreeText(await missUntilFreeText(page), freeTextAnswer);
  await expect(progress(page)).toHaveText('2 of 3 recalled');
  await chooseByKeyboard(await missUntilChoices(page), shortPoint);

  // The completion screen.
  await expect(page.getByRole('heading', { name: 'Session complete' })).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
  for (const point of widgetPoints) {
    await expect(page.getByTestId('completion-point').filter({ hasText: point })).toHaveAttribute('data-recalled', 'true');
  }
  await page.getByRole('button', { name: 'Back to recall sets' }).click();
  await expect(setRow(page, 'Mixed bag').getByTestId('due-count')).toHaveText('0 due');
  await expect(setRow(page, 'Geography basics').getByTestId('due-count')).toHaveText('2 due');

  // The set's schedule: every recalled point has a card and a due date in the future.
  await setRow(page, 'Mixed bag').getByRole('link', { name: 'Mixed bag' }).click();
  await expect(page).toHaveURL(/#\/sets\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mixed bag');
  const summary = page.getByTestId('set-summary');
  await expect(summary.getByTestId('point-count')).toHaveText('3 points');
  await expect(summary.getByTestId('due-count')).toHaveText('0 due');
  await expect(summary.getByTestId('new-count')).toHaveText('0 new');
  const schedule = page.getByRole('region', { name: 'Schedule' });
  const rows = schedule.getByTestId('schedule-row');
  await expect(rows).toHaveCount(3);
  for (const [index, point] of widgetPoints.entries()) {
    const row = rows.nth(index);
    await expect(row.getByRole('rowheader')).toHaveText(point);
    await expect(row).not.toHaveAttribute('data-state', 'new');
    await expect(row).not.toContainText('New');
    await expect(row.locator('time')).toHaveText(/^in (under a minute|\d+ (minute|hour|day|month|year)s?)$/);
    await expect(row).not.toContainText('due now');
  }
  const forecast = page.getByTestId('forecast-chart');
  await expect(forecast).toBeVisible();
  await expect(page.getByRole('figure', { name: /Reviews due now, then per day over the next 30 days/ })).toBeVisible();
  // "Now" (the set's due count), then later today and one bar per day: 31 bars.
  const counts = (await forecast.getAttribute('data-counts'))?.split(',').map(Number) ?? [];
  expect(counts).toHaveLength(31);
  expect(counts.every((count) => Number.isInteger(count) && count >= 0)).toBe(true);
  await expect(page.getByTestId('forecast-summary')).toBeVisible();

  // Settings: a lower desired retention, saved, and still there after a reload.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const slider = page.getByRole('slider', { name: 'Desired retention' });
  await expect(slider).toHaveValue('0.9');
  await slider.fill('0.85');
  await expect(page.getByTestId('retention-value')).toHaveText('85%');
  await expect(page.getByTestId('retention-effect')).toContainText('At 85%');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved. New reviews use this retention.');
  await page.reload();
  await expect(page.getByTestId('username')).toHaveText(username);
  await expect(page.getByRole('slider', { name: 'Desired retention' })).toHaveValue('0.85');
  await expect(page.getByTestId('retention-value')).toHaveText('85%');

  // An assessment: three items answered, then ended early; the results count only those.
  await startAssessment(page, 'Mathematics Fundamentals — Level 1');
  let previousWidgetId: string | null = null;
  for (let position = 1; position <= 3; position++) {
    const item = await waitForItem(page, position, 20, previousWidgetId);
    previousWidgetId = await item.widget.getAttribute('data-widget-id');
    await choose(item.widget, String(arithmeticAnswer(item.stem)));
  }
  await expect(page.getByTestId('assessment-item-counter')).toHaveText('Item 4 of 20');
  await endSession(page);
  await expect(page.getByTestId('assessment-results')).toBeVisible();
  await expect(page.getByTestId('assessment-score')).toHaveText(scoreLabel(3, 20));
  await expect(page.getByTestId('assessment-results')).toContainText('You ended this assessment early');
  await expect(page.getByTestId('domain-chart')).toBeVisible();
  // The answered count itself: see "ended early" in assessment.spec.ts.
  const review = page.getByTestId('item-review-row');
  await expect(review.and(page.locator('[data-outcome="correct"]'))).toHaveCount(3);
  await expect(review.and(page.locator('[data-outcome="incorrect"], [data-outcome="partial"]'))).toHaveCount(0);

  // It is listed among the learner's assessments, finished.
  await page.getByRole('button', { name: 'Back to assessments' }).click();
  const past = page.getByTestId('past-assessment');
  await expect(past).toHaveCount(1);
  await expect(past.getByRole('button', { name: /^View results/ })).toBeVisible();
});
