/**
 * Issue 18 — the phone layout, at 390×844: no page scrolls sideways, the session gives the
 * conversation most of the screen (the header folds to one row), widgets and the code editor
 * fit the width with their task in view, and a wide table scrolls inside its message. Each
 * page is saved as a screenshot (e2e/screenshots/, gitignored); with UPDATE_DOCS_SCREENSHOTS=1
 * the README's images in docs/ are replaced too (desktop and phone).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { createSetOverApi } from './support/api-sets';
import { pendingWidget, say } from './support/session';
import { widgetPoints } from './support/widget-set';

const here = path.dirname(fileURLToPath(import.meta.url));
const screenshotDir = path.join(here, '..', 'screenshots');
const docsDir = path.join(here, '..', '..', 'docs');
const phone = { width: 390, height: 844 } as const;
const desktop = { width: 1280, height: 800 } as const;

/** Saves the viewport as `name`.png; `docsName` also goes to docs/ when asked for. */
async function shoot(page: Page, name: string, docsName?: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  if (docsName && process.env.UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(file, path.join(docsDir, docsName));
}

/** The page itself never scrolls sideways (what scrolls, scrolls inside its own box). */
async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

async function box(page: Page, testId: string) {
  const found = await page.getByTestId(testId).boundingBox();
  if (!found) throw new Error(`${testId} has no box`);
  return found;
}

const wideTable = [
  '| Interval | Recall if reviewed | Recall if not | Stability after | Next review in |',
  '| --- | --- | --- | --- | --- |',
  '| 1 day | 95 % | 80 % | 3 days | 3 days |',
  '| 1 week | 90 % | 55 % | 2 weeks | 12 days |',
].join('\n');

test('the phone layout: no sideways scrolling, the conversation first, widgets within the width', async ({ page }) => {
  test.slow();
  await page.setViewportSize(phone);
  await signUpToWelcome(page, 'phone');
  await expectNoHorizontalOverflow(page, 'welcome');
  await shoot(page, 'welcome-390');
  await page.getByTestId('offline-badge').click();
  await expect(page.getByRole('banner').getByTestId('provider-explanation')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'provider explanation');
  await shoot(page, 'provider-explanation-390');
  await page.keyboard.press('Escape');

  await page.setViewportSize(desktop);
  await shoot(page, 'welcome-1280', 'welcome.png');
  await page.setViewportSize(phone);

  await page.getByRole('link', { name: 'Go to your recall sets' }).click();
  const row = await createSetOverApi(page, 'Phone set', widgetPoints);
  await expectNoHorizontalOverflow(page, 'recall sets');
  await shoot(page, 'recall-sets-390');
  await page.getByRole('button', { name: 'New recall set' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('editor-errors')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'editor with errors');
  await shoot(page, 'editor-errors-390');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // A recall session: the header folds to one row, the conversation takes most of the screen.
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  const transcript = await box(page, 'transcript');
  expect(transcript.height, 'the conversation gets most of the screen').toBeGreaterThan(phone.height * 0.6);
  await expectNoHorizontalOverflow(page, 'recall session');

  // A wide table scrolls inside its message, math and code stay within the bubble.
  await page.getByRole('textbox', { name: 'Message' }).fill(`How intervals grow, as I understand it:\n\n${wideTable}\n\nwith $R(t) = e^{-t/S}$`);
  await page.getByRole('button', { name: 'Send' }).click();
  const table = page.getByTestId('learner-message').last().locator('.table-scroll');
  await expect(table).toBeVisible();
  await expect(page.getByTestId('learner-message').last().locator('.katex')).toHaveCount(1);
  const tableScroll = await table.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
  expect(tableScroll.scrollWidth).toBeGreaterThan(tableScroll.clientWidth);
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  await expectNoHorizontalOverflow(page, 'session with a wide table');
  await page.getByTestId('learner-message').last().scrollIntoViewIfNeeded();
  await shoot(page, 'session-table-390', 'screenshot-phone.png');
  await page.getByTestId('transcript').evaluate((element) => element.scrollTo(0, element.scrollHeight));

  // The code editor fits the width with its task in view.
  await say(page, 'no idea');
  const code = pendingWidget(page, 'code_editor');
  await expect(code.locator('.cm-editor')).toBeVisible();
  const codeBox = await code.boundingBox();
  expect(codeBox && codeBox.x >= 0 && codeBox.x + codeBox.width <= phone.width).toBe(true);
  await expect(code.locator('.widget-prompt')).toBeInViewport();
  await expectNoHorizontalOverflow(page, 'code editor');
  await expectNoSeriousViolations(page, 'phone session');
  await shoot(page, 'session-code-390');

  // The same session on a desktop, for the README.
  await page.setViewportSize(desktop);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(1);
  await shoot(page, 'session-code-1280', 'screenshot.png');
  await page.setViewportSize(phone);

  // An assessment item and the pages around it.
  await page.goto('/#/assessments');
  await expect(page.getByTestId('assessment').first()).toBeVisible();
  await expectNoHorizontalOverflow(page, 'assessments');
  await page.getByTestId('assessment').filter({ hasText: 'Python' }).first().getByRole('button', { name: 'Start assessment' }).click();
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(/^Item 1 of \d+$/);
  await expect(pendingWidget(page, 'multiple_choice').or(pendingWidget(page, 'code_editor'))).toBeVisible();
  await expectNoHorizontalOverflow(page, 'assessment item');
  await shoot(page, 'assessment-390');
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('assessment-results')).toBeVisible();
  await expectNoHorizontalOverflow(page, 'assessment results');
  await shoot(page, 'assessment-results-390');

  for (const [hash, heading] of [
    ['#/study-plans', 'Study plans'],
    ['#/settings', 'Settings'],
  ] as const) {
    await page.goto(`/${hash}`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expectNoHorizontalOverflow(page, heading);
  }
});
