/**
 * SPEC §5 `stop` and `retry` in a real Chromium against the real server (offline tutor):
 * stop a reply in flight (kept and marked), retry the last reply (it replaces the old one,
 * also after a reload), copy a message — with the keyboard where a learner would.
 */
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { createSet } from './support/recall-sets';
import { say } from './support/session';

const points = ['Paris is the capital of France', 'Water boils at 100 degrees Celsius at sea level', 'The Pacific is the largest ocean on Earth'];

test('stop a reply in flight, retry it, and copy a message', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, 'stop');
  const row = await createSet(page, 'Stop and retry', points);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  // The opening reply is the last one: it may be produced again; nothing is being written, so no Stop.
  await expect(page.getByTestId('retry-reply')).toHaveCount(1);
  await expect(page.getByTestId('stop-reply')).toHaveCount(0);

  // Press Stop the moment it appears (the offline tutor streams in well under a second).
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      const button = document.querySelector<HTMLButtonElement>('[data-testid="stop-reply"]');
      if (!button) return;
      observer.disconnect();
      button.click();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('textbox', { name: 'Message' }).fill(points[0]!);
  await page.keyboard.press('Enter');
  const stopped = page.locator('[data-testid="tutor-message"][data-stopped="true"]');
  await expect(stopped).toHaveCount(1);
  await expect(stopped.getByTestId('stopped-marker')).toHaveText('Stopped');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  // What the evaluator found stays applied.
  await expect(page.getByTestId('progress')).toContainText('1 of 3');
  // The stopped reply survives a reload, still marked.
  await page.reload();
  await expect(stopped).toHaveCount(1);

  // Retry from the keyboard: the new, whole reply takes the stopped one's place.
  const tutorMessages = page.getByTestId('tutor-message');
  const countBefore = await tutorMessages.count();
  await page.getByRole('button', { name: 'Retry: produce this reply again' }).focus();
  await page.keyboard.press('Enter');
  await expect(stopped).toHaveCount(0);
  await expect(tutorMessages).toHaveCount(countBefore);
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  const replacement = (await tutorMessages.last().innerText()).trim();
  expect(replacement.length).toBeGreaterThan(0);
  await page.reload();
  await expect(tutorMessages).toHaveCount(countBefore);
  await expect(page.locator('[data-testid="tutor-message"][data-stopped="true"]')).toHaveCount(0);
  await expect(progressOf(page)).toContainText('1 of 3');

  // Once the learner writes on, only the newest reply offers Retry.
  await say(page, 'I am not sure about the next one');
  await expect(page.getByTestId('retry-reply')).toHaveCount(1);
  await expect(tutorMessages.last().getByTestId('retry-reply')).toHaveCount(1);

  // Copy a message: the clipboard holds its text.
  await page.getByTestId('learner-message').first().getByRole('button', { name: 'Copy your message' }).click();
  await expect(page.getByTestId('learner-message').first().getByTestId('copy-message')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(points[0]);
});

function progressOf(page: import('@playwright/test').Page) {
  return page.getByTestId('progress');
}
