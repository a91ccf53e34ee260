/**
 * Issue 13 — the home dashboard, offline tutor: a new learner lands on it and is greeted with
 * the friendly start; the sample set it creates shows up as due, with no streak and one session
 * begun today; one click reviews the most due set; after the review the due count, the streak
 * and the activity chart have moved, and the session is listed among the recent ones, opening
 * its replay — all on the calendar of a browser far from UTC. Screenshots at 1280×800 and
 * 390×844 go to e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { say } from './support/session';

const here = path.dirname(fileURLToPath(import.meta.url));

// A browser far from UTC, on a calendar day other than UTC's now: "today", the streak and the
// chart must be the learner's own days (the dashboard sends the browser's zone).
const zone = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
test.use({ timezoneId: zone });
const screenshotDir = path.join(here, '..', 'screenshots');

const samplePoints = [
  'Recalling something from memory strengthens it more than reading it again',
  'Reviews spread out over days keep a memory longer than the same reviews crammed together',
  'Without review most new facts are forgotten within a few days',
];

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** The last day's count of a series the chart carries (`data-reviews="0,…,0,3"`). */
async function todayOf(page: Page, series: 'reviews' | 'sessions'): Promise<number> {
  const values = (await page.getByTestId('activity-chart').getAttribute(`data-${series}`))?.split(',').map(Number) ?? [];
  expect(values).toHaveLength(30);
  return values[29]!;
}

async function goHome(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
}

test('a new learner lands on the dashboard, creates the sample set, reviews it and sees due count, streak and activity move', async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  const username = await signUpToWelcome(page, 'home');
  // The dashboard is home; with nothing yet it is the friendly start.
  await expect(page).toHaveURL(/#\/home$/);
  await expect(page.getByTestId('welcome-plans').getByRole('button', { name: /^Start learning / })).toHaveCount(3);
  await expect(page.getByTestId('welcome-assessments').getByRole('button', { name: /^Start assessment / }).first()).toBeVisible();

  // The sample set is made and its review opens; before answering, back to the dashboard.
  await page.getByRole('button', { name: 'Try a sample set' }).click();
  await expect(page).toHaveURL(/#\/sessions\/[^/]+$/);
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  const sampleSession = page.url();
  await goHome(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Hello, ${username}`);
  await expect(page.getByTestId('due-count')).toHaveText('3');
  await expect(page.getByTestId('most-due')).toHaveText('Most due: Sample: how memory works · 3 due');
  await expect(page.getByTestId('streak-days')).toHaveText('0');
  await expect(page.getByTestId('retention-rate')).toHaveText('–');
  await expect(page.getByTestId('retention')).toContainText('goal 90%');
  await expect(page.getByTestId('activity-summary')).toContainText('0 reviews and 1 session on 1 day');
  expect(await todayOf(page, 'reviews')).toBe(0);
  expect(await todayOf(page, 'sessions')).toBe(1);
  await expect(page.getByTestId('recent-session')).toHaveCount(1);
  await expect(page.getByTestId('recent-session').first()).toContainText('Sample: how memory works');
  await expect(page.getByTestId('recent-session').first()).toContainText('In progress');
  await expect(page.getByTestId('concept-mastery')).toContainText('study plan');
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'dashboard before the review');
  await shoot(page, 'dashboard-before-1280');

  // One click reviews the most due set, to the end — resuming the session of it still in
  // progress rather than starting a second one beside it (issue 25).
  await page.getByRole('button', { name: 'Review now' }).click();
  await expect(page).toHaveURL(sampleSession);
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  for (const point of samplePoints) await say(page, point);
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');

  // Everything moved: nothing due today, a one-day streak, three reviews in the one session today.
  await goHome(page);
  await expect(page.getByTestId('due-count')).toHaveText('0');
  await expect(page.getByTestId('nothing-due')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Review now' })).toHaveCount(0);
  await expect(page.getByTestId('streak-days')).toHaveText('1');
  await expect(page.getByTestId('streak')).toContainText('Reviewed today');
  await expect(page.getByTestId('activity-summary')).toContainText('3 reviews and 1 session on 1 day');
  expect(await todayOf(page, 'reviews')).toBe(3);
  expect(await todayOf(page, 'sessions')).toBe(1);
  const localToday = await page.evaluate(() => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date()));
  expect(await page.getByTestId('activity-chart').getAttribute('data-last-day')).toBe(localToday);
  expect(localToday, `${zone} is on another day than UTC`).not.toBe(new Date().toISOString().slice(0, 10));
  // First reviews of new points are not retention reviews: still nothing to measure.
  await expect(page.getByTestId('retention-rate')).toHaveText('–');
  const recent = page.getByTestId('recent-session');
  await expect(recent).toHaveCount(1);
  await expect(recent.first()).toContainText('Completed · 3 of 3');
  await expectNoSeriousViolations(page, 'dashboard after the review');
  await shoot(page, 'dashboard-after-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  // The chart follows the new width once its resize observer has run.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: 'the dashboard does not scroll sideways on a phone' })
    .toBeLessThanOrEqual(0);
  await shoot(page, 'dashboard-after-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A learning session joins the recent ones, and its plan's concepts show with their mastery.
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tutorloop.auth') ?? '{}') as { token?: string }).token);
  const headers = { Authorization: `Bearer ${token}` };
  const plans = (await (await page.request.get('/api/study-plans', { headers })).json()) as { studyPlans: Array<{ id: string; title: string; builtIn: boolean }> };
  const plan = plans.studyPlans.find((candidate) => candidate.builtIn)!;
  const created = await page.request.post('/api/sessions', { headers, data: { type: 'learning', studyPlanId: plan.id } });
  expect(created.status()).toBe(201);
  const { sessionId } = (await created.json()) as { sessionId: string };
  expect((await page.request.post(`/api/sessions/${sessionId}/step`, { headers, data: { message: 'Ready when you are.' } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(recent).toHaveCount(2);
  await expect(recent.first()).toContainText('Learning');
  await expect(recent.first()).toContainText(plan.title);
  const concepts = page.getByTestId('concept');
  expect(await concepts.count()).toBeGreaterThanOrEqual(3);
  await expect(concepts.first().getByTestId('mastery-level')).toBeVisible();
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await shoot(page, 'dashboard-learning-1280');

  // A recent session opens its replay: the finished review, all three answers in it.
  await recent.nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/#\/sessions\/[^/]+$/);
  await expect(page.getByTestId('learner-message')).toHaveCount(3);
});
