/**
 * The foundation journey in a real Chromium, offline tutor, no API key: sign up, create a
 * set of three points, recall them in chat, see the completion screen; a reload mid-session
 * restores the conversation.
 */
import { expect, test, type Page } from '@playwright/test';

const points = [
  'Paris is the capital of France',
  'Water boils at 100 degrees Celsius at sea level',
  'The Pacific is the largest ocean on Earth',
];

async function signUp(page: Page, username: string) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByTestId('username')).toHaveText(username);
}

async function createSet(page: Page, name: string) {
  await page.getByRole('button', { name: 'New recall set' }).or(page.getByRole('link', { name: 'New recall set' })).first().click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const [index, content] of points.entries()) {
    if (index > 0 || (await page.getByTestId('point-row').count()) === 0) {
      await page.getByRole('button', { name: 'Add point' }).click();
    }
    await page.getByRole('textbox', { name: 'Point', exact: true }).nth(index).fill(content);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId('recall-set').filter({ hasText: name });
  await expect(row.getByTestId('point-count')).toHaveText('3 points');
  await expect(row.getByTestId('due-count')).toContainText('3 due');
  return row;
}

async function say(page: Page, message: string) {
  const before = await page.getByTestId('tutor-message').count();
  await page.getByRole('textbox', { name: 'Message' }).fill(message);
  // Send is disabled while the tutor replies; click() waits for it.
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('learner-message').filter({ hasText: message })).toBeVisible();
  await expect(page.getByTestId('tutor-message')).toHaveCount(before + 1);
}

test('a new learner recalls a three-point set to completion with the offline tutor', async ({ page }) => {
  await signUp(page, `e2e_${Date.now()}`);
  await expect(page.getByTestId('offline-badge')).toBeVisible();
  const row = await createSet(page, 'Geography basics');
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
