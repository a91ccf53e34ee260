/**
 * Issue 27 item 5 — opening the app signed in: the home page greets the learner by name at once
 * and fills in the dashboard when its figures arrive (they are requested before the first
 * render, so the greeting does not wait for them), and each figure is requested once.
 */
import { expect, test } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';

const dashboardRequests = ['/api/sessions/stats', '/api/sessions/history', '/api/sessions/subtopic-progress', '/api/recall-sets'] as const;

test('a signed-in learner reopening home is greeted while the figures load, then sees the dashboard; each figure is asked for once', async ({ page }) => {
  const username = await signUpToWelcome(page, 'homeload');
  // A set of the learner's own, so home is the dashboard rather than the first-run welcome.
  await page.getByRole('button', { name: 'Try a sample set' }).click();
  await expect(page).toHaveURL(/#\/sessions\/[^/]+$/);
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await page.goto('/#/home');
  await expect(page.getByTestId('dashboard')).toBeVisible();

  // Reopen the app with the stats held back, counting the dashboard's requests.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route('**/api/sessions/stats?**', async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  const counts = new Map<string, number>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if ((dashboardRequests as readonly string[]).includes(pathname)) counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
  });
  await page.reload();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hello, ${username}`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
  await expect(page.getByTestId('dashboard')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'home while its figures load');

  await expect.poll(() => held).toBe(1);
  release();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hello, ${username}`);
  await expect(page.getByTestId('due-count')).toHaveText('3');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(dashboardRequests.map((pathname) => [pathname, 1])));
});
