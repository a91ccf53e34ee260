/**
 * Issue 25: a recall session the learner ends early says so, and every point shows when it
 * comes back — the recalled one its next review, the others that they are due now.
 */
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { createSet } from './support/recall-sets';
import { say } from './support/session';

test('ending a recall session early is headed so, and each point shows its next review', async ({ page }) => {
  await signUp(page, 'early');
  const row = await createSet(page, 'Rivers', ['Rivers flow downhill to the sea', 'Deltas form where a river meets the sea', 'Meanders are bends in a river']);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await say(page, 'Rivers flow downhill to the sea');
  await expect(page.getByTestId('progress')).toContainText('1 of 3');
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End now' }).click();

  await expect(page.getByRole('heading', { name: 'Session ended early' })).toBeVisible();
  await expect(page).toHaveTitle('Session ended early — tutorloop');
  await expect(page.getByTestId('completion-point')).toHaveCount(3);
  const dues = page.getByTestId('completion-point-due');
  await expect(dues).toHaveCount(3);
  await expect(page.getByTestId('completion-point').filter({ hasText: 'Rivers flow downhill' }).getByTestId('completion-point-due')).toHaveText(/^Next review /);
  for (const text of await dues.allInnerTexts()) expect(text).toMatch(/^(Next review .+|Not reviewed yet · due now)$/);

  // An unknown route does not keep the last page's title (issue 25, "small things").
  await page.goto('/#/nowhere');
  await expect(page).toHaveTitle('Page not found — tutorloop');
});
