/**
 * The foundation journey in a real Chromium, offline tutor, no API key: sign up, create a
 * set of three points, recall them in chat, see the completion screen; a reload mid-session
 * restores the conversation.
 */
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { createSet } from './support/recall-sets';
import { say } from './support/session';

const points = [
  'Paris is the capital of France',
  'Water boils at 100 degrees Celsius at sea level',
  'The Pacific is the largest ocean on Earth',
];

test('a new learner recalls a three-point set to completion with the offline tutor', async ({ page }) => {
  await signUp(page);
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  const row = await createSet(page, 'Geography basics', points);
  await row.getByRole('button', { name: 'Start session' }).click();

  // The tutor opens; progress shows counts only, never point contents.
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('progress')).toContainText('0 of 3');
  const opening = await page.getByTestId('transcript').innerText();
  for (const content of points) expect(opening).not.toContain(content);

  await say(page, points[0]!);
  await expect(page.getByTestId('progress')).toContainText('1 of 3');

  // A reload restores the conversation and the progress.
  await page.reload();
  await expect(page.getByTestId('learner-message').filter({ hasText: points[0]! })).toBeVisible();
  await expect(page.getByTestId('progress')).toContainText('1 of 3');

  await say(page, `${points[1]} — and ${points[2]}`);
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toContainText('3 of 3');
  await expect(page.getByTestId('completion-point')).toHaveCount(3);
  for (const content of points) await expect(page.getByTestId('completion-screen')).toContainText(content);
});
