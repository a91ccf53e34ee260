/**
 * Per-learner FSRS optimisation in the Settings page (issue 17), in Chromium against the real
 * server: a new learner cannot optimise yet and is told why; with a synthetic review history
 * (seeded into the server's SQLite file by a separate process, no test-only route) they see
 * the default parameters and the workload chart beside the retention slider, press
 * "Optimise now" from the keyboard, follow the run, and get parameters that predict their
 * reviews better than the defaults, with their cards rescheduled.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import type { CardList, SchedulerStatus, SimulationResponse } from '@tutorloop/shared';
import { signUp } from './support/auth';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDirectory = path.resolve(here, '../../server');
const seedScript = path.join(here, 'support', 'seed-review-history.ts');
const pointCount = 120;

async function seedHistory(username: string): Promise<{ recallSetId: string; reviewCount: number }> {
  const dataDirectory = process.env.E2E_DATA_DIR;
  if (!dataDirectory) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const request = { databaseFile: path.join(dataDirectory, 'tutorloop.sqlite'), username, points: pointCount };
  // `--import tsx` resolves from the server package, as the e2e server itself is started.
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', seedScript, JSON.stringify(request)], { cwd: serverDirectory, timeout: 60_000 });
  return JSON.parse(stdout) as { recallSetId: string; reviewCount: number };
}

/** The signed-in learner's token, as the web app keeps it. */
async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tutorloop.auth') ?? '{}') as { token?: string }).token);
  if (!token) throw new Error('not signed in');
  return token;
}

async function api<T>(page: Page, method: 'GET' | 'POST', url: string): Promise<T> {
  const response = await page.request.fetch(url, { method, headers: { Authorization: `Bearer ${await tokenOf(page)}` } });
  expect(response.ok(), `${method} ${url}`).toBe(true);
  return (await response.json()) as T;
}

test('a learner with a synthetic history optimises their parameters from Settings and sees the workload by retention', async ({ page }, testInfo) => {
  // The seeding process, the optimisation and the photographs in both sizes and schemes.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  const username = await signUp(page, 'sched');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByTestId('scheduler-panel');
  await expect(panel.getByRole('heading', { name: 'Scheduler' })).toBeVisible();

  // No reviews yet: the defaults, and "Optimise now" refused with the reason read out with it.
  await expect(panel.getByTestId('scheduler-source')).toHaveText('FSRS default parameters, fitted on the reviews of many learners.');
  const optimise = panel.getByRole('button', { name: 'Optimise now' });
  await expect(optimise).toHaveAttribute('aria-disabled', 'true');
  await expect(optimise).toHaveAccessibleDescription('Optimising needs at least 100 reviews; you have 0. Keep reviewing and try again.');
  // Still focusable (aria-disabled), so the reason is reached from the keyboard; pressing it does nothing.
  await optimise.focus();
  await expect(optimise).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('scheduler-progress')).toHaveCount(0);
  await expect(page.getByTestId('retention-forecast-empty')).toBeVisible();

  const seeded = await seedHistory(username);
  expect(seeded.reviewCount).toBeGreaterThan(300);
  const cardsBefore = (await api<CardList>(page, 'GET', `/api/cards?recallSetId=${seeded.recallSetId}`)).cards;
  expect(cardsBefore).toHaveLength(pointCount);

  // The simulation the page draws, as the server answered it.
  const simulated = page.waitForResponse((response) => response.url().endsWith('/api/me/scheduler/simulate') && response.request().method() === 'POST');
  await page.reload();
  const simulation = (await (await simulated).json()) as SimulationResponse;
  await expect(panel.getByTestId('scheduler-review-count')).toHaveText(seeded.reviewCount.toLocaleString('en-US'));
  await expect(panel.getByTestId('scheduler-source')).toHaveAttribute('data-source', 'default');
  await expect(panel.getByTestId('scheduler-metrics')).toHaveCount(0);

  // The workload chart beside the slider, the saved retention (90%) marked and described.
  const forecast = page.getByTestId('retention-forecast');
  await expect(forecast).toHaveAttribute('data-status', 'ready');
  await expect(forecast.locator('.recharts-line')).toBeVisible();
  const summary = page.getByTestId('retention-forecast-summary');
  await expect(summary).toHaveText(/^At 90%: about [\d.]+ reviews a day over the next 90 days, and on an average day you would remember about \d+% of your 120 points\.$/);
  await expect(page.getByTestId('retention-forecast-table').getByRole('row')).toHaveCount(12);
  // Issue 25: every figure shown is the server's simulation — the sentence at 90% and each row
  // of the table — and what is remembered grows with the retention asked for, as the cost does.
  const at90 = simulation.points.find((point) => point.retention === 0.9)!;
  const perDayText = (value: number) => (Number(value.toFixed(2)) < 10 ? Number(value.toFixed(2)).toFixed(1) : String(Math.round(value)));
  await expect(summary).toHaveText(
    `At 90%: about ${at90.reviewsPerDay < 10 ? at90.reviewsPerDay.toFixed(1) : Math.round(at90.reviewsPerDay)} reviews a day over the next ${simulation.days} days, and on an average day you would remember about ${Math.round(at90.retainedShare * 100)}% of your ${simulation.cardCount} points.`,
  );
  const byRetention = [...simulation.points].sort((left, right) => left.retention - right.retention);
  const shownRows = await page.getByTestId('retention-forecast-table').locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.children, (cell) => cell.textContent)));
  expect(shownRows).toEqual(byRetention.map((point) => [`${Math.round(point.retention * 100)}%`, perDayText(point.reviewsPerDay), `${Math.round(point.retainedShare * 100)}%`]));
  for (let index = 1; index < byRetention.length; index += 1) {
    expect(byRetention[index]!.retainedShare, `remembered at ${byRetention[index]!.retention}`).toBeGreaterThan(byRetention[index - 1]!.retainedShare);
  }
  // Workload grows with the retention asked for.
  const perDay = (await forecast.getAttribute('data-reviews-per-day'))!.split(',').map(Number);
  expect(perDay[perDay.length - 1]!).toBeGreaterThan(perDay[0]!);
  // Keyboard: the slider moves the marker and the sentence with it.
  const slider = page.getByRole('slider', { name: 'Desired retention' });
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(summary).toHaveText(/^At 88%: /);
  await expect(forecast.locator('.recharts-surface')).toContainText('88%');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(summary).toHaveText(/^At 90%: /);

  // Optimise from the keyboard; the run is followed while it is under way.
  await expect(optimise).not.toHaveAttribute('aria-disabled', 'true');
  await optimise.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('scheduler-progress')).toBeVisible();
  await expect(panel.getByRole('progressbar', { name: 'Optimisation progress' })).toBeVisible();
  const finished = panel.getByTestId('scheduler-status');
  await expect(finished).toHaveText(/^Optimisation finished\. Predicts your recall \d+% better than the default parameters\. Your reviews have been rescheduled\.$/, { timeout: 60_000 });
  await expect(panel.getByTestId('scheduler-progress')).toHaveCount(0);
  await expect(panel.getByTestId('scheduler-source')).toHaveText(new RegExp(`^Optimised for you on .+ from ${seeded.reviewCount.toLocaleString('en-US')} reviews\\.$`));
  await expect(panel.getByTestId('scheduler-improvement')).toHaveText(/^Predicts your recall \d+% better than the default parameters\.$/);
  await expect(panel.getByTestId('scheduler-metrics')).toContainText('Lower is better.');
  await expect(panel.getByRole('button', { name: 'Optimise now' })).toBeEnabled();

  // What the page says is what the server stored: lower log loss and RMSE than the defaults,
  // and the learner's cards rescheduled under the new parameters.
  const status = await api<SchedulerStatus>(page, 'GET', '/api/me/scheduler');
  const run = status.parameters.run!;
  expect(status.parameters.source).toBe('optimised');
  expect(run).toMatchObject({ kept: true, previousSource: 'default', reviewCount: seeded.reviewCount });
  expect(run.metrics.logLoss).toBeLessThan(run.previousMetrics.logLoss);
  expect(run.metrics.rmseBins).toBeLessThan(run.previousMetrics.rmseBins);
  const shown = Number(/(\d+)% better/.exec((await panel.getByTestId('scheduler-improvement').textContent()) ?? '')![1]);
  expect(shown).toBe(Math.max(1, Math.round(((run.previousMetrics.logLoss - run.metrics.logLoss) / run.previousMetrics.logLoss) * 100)));
  const cardsAfter = (await api<CardList>(page, 'GET', `/api/cards?recallSetId=${seeded.recallSetId}`)).cards;
  expect(cardsAfter.filter((card, index) => card.due !== cardsBefore[index]!.due).length).toBeGreaterThan(0);

  // The recent runs, behind a disclosure that opens from the keyboard.
  const runs = panel.getByText('Recent optimisations (1)');
  await runs.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('scheduler-runs').getByRole('row')).toHaveCount(2);
  await expect(panel.getByTestId('scheduler-runs')).toContainText('better');

  await expect(forecast).toHaveAttribute('data-status', 'ready');
  // From the top: a full-page shot of a scrolled page paints the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath('scheduler-1280x800.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(forecast.locator('.recharts-line')).toBeVisible();
  // Nothing wider than the phone's screen, once the chart has followed the new width (its
  // ResizeObserver redraws it a frame or more after the viewport changes).
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Issue 25: on the phone the recent runs are cards — each value under its column's name, the
  // column headings out of sight (still the table's headers for a screen reader) — and nothing
  // in them scrolls sideways.
  const runsTable = panel.getByTestId('scheduler-runs');
  await expect(runsTable.locator('thead')).toHaveCSS('position', 'absolute');
  const runCard = runsTable.locator('tbody tr').first();
  await expect(runCard).toHaveCSS('display', 'grid');
  const labels = await runCard.locator('td').evaluateAll((cells) => cells.map((cell) => /"([^"]+)"/.exec(getComputedStyle(cell, '::before').content)?.[1] ?? null));
  expect(labels).toEqual(['Reviews', 'Log loss', 'Outcome']);
  await expect(runCard.getByRole('cell').last()).toHaveText(/^Kept: \d+% better$/);
  const runsScroll = await runsTable.evaluate((table) => {
    const box = table.parentElement!;
    return { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth };
  });
  expect(runsScroll.scrollWidth, 'the runs fit their box at 390').toBeLessThanOrEqual(runsScroll.clientWidth);
  await page.screenshot({ path: testInfo.outputPath('scheduler-390x844.png'), fullPage: true });

  // Settings with the runs open, at both sizes in both schemes (e2e/screenshots, gitignored).
  const screenshotDir = path.join(here, '..', 'screenshots');
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(forecast.locator('.recharts-line')).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(screenshotDir, `settings-runs-${size.width}-${colorScheme}.png`), fullPage: true });
    }
  }
});
