/**
 * Issue 25: the activity chart (home), the forecast chart (a set's page) and the domain chart (an
 * assessment's results) are read by keyboard.
 * Each chart is one tab stop; the arrow keys, Home and End move between its days, and a visible
 * `aria-live` line says the day's value. Screenshots at 1280×800 and 390×844, light and dark, go
 * to e2e/screenshots/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { createSet } from './support/recall-sets';
import { endSession, say } from './support/session';

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** Presses Tab until `target` has the focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the chart was not reached with Tab');
}

async function screenshots(page: Page, target: Locator, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await target.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.width}${scheme === 'dark' ? '-dark' : ''}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the activity, forecast and domain charts read out each value by keyboard', async ({ page }) => {
  test.slow();
  await signUp(page, 'charts');
  const row = await createSet(page, 'Rivers', ['Rivers flow downhill to the sea', 'Deltas form where a river meets the sea']);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await say(page, 'Rivers flow downhill to the sea');
  await expect(page.getByTestId('progress')).toContainText('1 of 2');

  // Home: the activity chart starts at today, on the right.
  await page.goto('/#/');
  const activity = page.getByTestId('activity-chart-keys');
  const activityLine = page.getByTestId('activity-chart-keys-readout');
  await expect(activity).toBeVisible();
  await expect(activityLine).toHaveAttribute('aria-live', 'polite');
  await expect(activityLine).toHaveText('');
  await tabTo(page, activity);
  await expect(activityLine).toHaveText('Use the arrow keys to read each value.');
  await page.keyboard.press('ArrowLeft');
  await expect(activityLine).toHaveText(/^\S.*: 1 review, 1 session$/);
  const today = await activityLine.innerText();
  await page.keyboard.press('ArrowLeft');
  await expect(activityLine).toHaveText(/: 0 reviews, 0 sessions$/);
  await expect(activityLine).not.toHaveText(today);
  await page.keyboard.press('End');
  await expect(activityLine).toHaveText(today);
  await page.keyboard.press('ArrowRight');
  await expect(activityLine).toHaveText(today);
  await page.keyboard.press('Home');
  await expect(activityLine).toHaveText(/: 0 reviews, 0 sessions$/);
  await expectNoSeriousViolations(page, 'home with the activity chart read by keyboard');
  await page.keyboard.press('End');
  await screenshots(page, activity, 'chart-keys-activity');

  // A set's page: the forecast starts at what is due now; the reviewed point comes back later.
  await page.goto('/#/sets');
  await page.getByTestId('recall-set').filter({ hasText: 'Rivers' }).getByRole('link', { name: 'Rivers', exact: true }).click();
  const forecast = page.getByTestId('forecast-chart-keys');
  const forecastLine = page.getByTestId('forecast-chart-keys-readout');
  await expect(forecast).toBeVisible();
  await tabTo(page, forecast);
  await page.keyboard.press('ArrowRight');
  await expect(forecastLine).toHaveText('Due now: 1 review');
  const counts = (await page.getByTestId('forecast-chart').getAttribute('data-counts'))!.split(',').map(Number);
  const later = counts.findIndex((count, index) => index > 0 && count > 0);
  expect(later).toBeGreaterThan(0);
  for (let step = 0; step < later; step++) await page.keyboard.press('ArrowRight');
  await expect(forecastLine).toHaveText(/: 1 review due$/);
  await page.keyboard.press('End');
  await expect(forecastLine).toHaveText(/: \d+ reviews? due$/);
  await expectNoSeriousViolations(page, 'a set page with the forecast chart read by keyboard');
  await page.keyboard.press('Home');
  await screenshots(page, forecast, 'chart-keys-forecast');

  // Leaving the chart clears the line, so a stale value is never left on screen.
  await page.keyboard.press('Tab');
  await expect(forecastLine).toHaveText('');

  // An assessment's results: the domain chart reads each domain's score.
  await page.goto('/#/assessments');
  await page.getByTestId('assessment').filter({ hasText: 'Mathematics Fundamentals — Level 1' }).getByRole('button', { name: 'Start assessment' }).click();
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(/^Item 1 of \d+$/);
  await endSession(page);
  const domains = page.getByTestId('domain-chart-keys');
  const domainLine = page.getByTestId('domain-chart-keys-readout');
  await expect(domains).toBeVisible();
  await tabTo(page, domains);
  await page.keyboard.press('ArrowDown');
  await expect(domainLine).toHaveText(/^\S.*: 0\s?% \(0 \/ \d+\)$/);
  const firstDomain = await domainLine.innerText();
  await page.keyboard.press('End');
  await expect(domainLine).toHaveText(/: 0\s?% \(0 \/ \d+\)$/);
  await expect(domainLine).not.toHaveText(firstDomain);
  await expectNoSeriousViolations(page, 'assessment results with the domain chart read by keyboard');
  await screenshots(page, domains, 'chart-keys-domain');
});
