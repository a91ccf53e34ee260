/**
 * Issue 25 items 3, 5 and 6 — everything reachable on a phone, and dark mode:
 * - at 390×844 the header's menu holds every main page and the account, each two taps away; it
 *   is a disclosure a keyboard can use (focus moves in, Escape closes and gives the focus back);
 *   a learner reaches the account page through it and changes the password;
 * - the Light/Dark/System switch in Settings applies at once, survives a reload and is on
 *   `<html>` before the app's script runs (no flash of the other scheme);
 * - no page of the app scrolls sideways at 390, and every page is photographed at 1280×800 and
 *   390×844 in light and dark (e2e/screenshots/page-*.png, gitignored) to be looked at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { createSetOverApi } from './support/api-sets';
import { endSession, say } from './support/session';

const here = path.dirname(fileURLToPath(import.meta.url));
const screenshotDir = path.join(here, '..', 'screenshots');
const phone = { width: 390, height: 844 } as const;
const desktop = { width: 1280, height: 800 } as const;
const password = 'a long enough password';

/**
 * The page itself never scrolls sideways (what scrolls, scrolls inside its own box). Polled: a
 * chart follows a new window size a frame or two later, through its resize observer.
 */
async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        return scrollWidth - innerWidth;
      },
      { message: `${label}: the page is wider than the window by this many pixels` },
    )
    .toBeLessThanOrEqual(0);
}

function menuButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Menu' });
}

async function openMenu(page: Page): Promise<Locator> {
  const button = menuButton(page);
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const menu = page.locator(`[id="${await button.getAttribute('aria-controls')}"]`);
  await expect(menu).toBeVisible();
  return menu;
}

test('on a 390 px phone the menu holds every main page and the account, where the password changes', async ({ page }) => {
  test.slow();
  await page.setViewportSize(phone);
  const username = await signUp(page, 'menu');
  const button = menuButton(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  await expectNoHorizontalOverflow(page, 'recall sets with the menu closed');

  // Opening moves the focus into the menu; Escape closes it and gives the focus back.
  let menu = await openMenu(page);
  await expect(nav.getByRole('link', { name: 'Home' })).toBeFocused();
  await expectNoHorizontalOverflow(page, 'the open menu');
  mkdirSync(screenshotDir, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(screenshotDir, `page-menu-open-390-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();

  // Every main page in two taps: the menu, then its link; the menu closes behind it.
  for (const [link, hash] of [
    ['Home', '#/home'],
    ['Study plans', '#/study-plans'],
    ['Assessments', '#/assessments'],
    ['Reflect', '#/reflect'],
    ['Settings', '#/settings'],
    ['Recall sets', '#/sets'],
  ] as const) {
    menu = await openMenu(page);
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(new RegExp(`${hash}$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  }

  // The account: the username in the menu, then change the password there.
  menu = await openMenu(page);
  await menu.getByRole('link', { name: new RegExp(username) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(menu).toBeHidden();
  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password').fill('a brand new secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('change-password-outcome')).toHaveText('Password changed. Your other devices are signed out.');
  await expectNoHorizontalOverflow(page, 'account');

  // Sign out from the menu, and back in with the new password.
  menu = await openMenu(page);
  await menu.getByRole('button', { name: 'Sign out' }).click();
  const signInButton = page.getByRole('button', { name: 'Sign in', exact: true });
  const toSignIn = page.getByRole('button', { name: 'Use an existing account' });
  await expect(signInButton.or(toSignIn).first()).toBeVisible();
  if (!(await signInButton.isVisible())) await toSignIn.click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a brand new secret');
  await signInButton.click();
  await expect(page.getByTestId('username')).toHaveText(username);

  // Wide enough for one row, the links and the account are in the header itself, with no menu.
  await page.setViewportSize({ width: 1101, height: 800 });
  await expect(nav).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(username) })).toBeVisible();
  await expect(button).toBeHidden();
  await expectNoHorizontalOverflow(page, 'the header at 1101 px');
  // At 1280 the account's name shows whole beside the links.
  await page.setViewportSize(desktop);
  const shown = await page.getByTestId('username').evaluate((element) => {
    const link = element.closest('a');
    return link ? { scrollWidth: link.scrollWidth, clientWidth: link.clientWidth } : null;
  });
  expect(shown && shown.scrollWidth <= shown.clientWidth, `the username fits its link at 1280: ${JSON.stringify(shown)}`).toBe(true);
});

test('the colour scheme: System follows the device, Light and Dark hold, and the choice is on <html> before the app runs', async ({ page }) => {
  // What the document says when parsing ends, before any deferred or module script (the app) runs.
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') {
        (window as unknown as { themeBeforeApp: string | null }).themeBeforeApp = document.documentElement.getAttribute('data-theme');
      }
    });
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await signUp(page, 'theme');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await background();
  expect(dark, 'System follows the device into dark').not.toBe(light);

  await page.goto('/#/settings');
  const switcher = page.getByTestId('theme-switch');
  await expect(switcher.getByRole('radio', { name: 'System' })).toBeChecked();
  await switcher.getByRole('radio', { name: 'Light' }).check();
  expect(await background(), 'Light holds on a dark device').toBe(light);
  await page.reload();
  await expect(switcher.getByRole('radio', { name: 'Light' })).toBeChecked();
  expect(await page.evaluate(() => (window as unknown as { themeBeforeApp: string | null }).themeBeforeApp)).toBe('light');
  expect(await background()).toBe(light);

  await page.emulateMedia({ colorScheme: 'light' });
  await switcher.getByRole('radio', { name: 'Dark' }).check();
  expect(await background(), 'Dark holds on a light device').toBe(dark);
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { themeBeforeApp: string | null }).themeBeforeApp)).toBe('dark');
  expect(await background()).toBe(dark);

  await switcher.getByRole('radio', { name: 'System' }).check();
  expect(await background(), 'back to the light device').toBe(light);
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { themeBeforeApp: string | null }).themeBeforeApp)).toBeNull();
  await expect(switcher.getByRole('radio', { name: 'System' })).toBeChecked();
});

interface AppPage {
  name: string;
  hash: string;
  /** Shown once the page has its content. */
  ready(page: Page): Locator;
}

/**
 * Photographs the whole page (opened at 390 in light) at 390 in light and dark, then at 1280 in
 * dark and light; at 390 it must not scroll sideways in either scheme.
 */
async function photograph(page: Page, target: AppPage): Promise<void> {
  const shots = [
    [phone, 'light'],
    [phone, 'dark'],
    [desktop, 'dark'],
    [desktop, 'light'],
  ] as const;
  for (const [size, colorScheme] of shots) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize(size);
    await expect(target.ready(page)).toBeVisible();
    if (size === phone) await expectNoHorizontalOverflow(page, `${target.name} (${colorScheme})`);
    await page.screenshot({ path: path.join(screenshotDir, `page-${target.name}-${size.width}-${colorScheme}.png`), fullPage: true });
  }
}

test('no page scrolls sideways at 390, and each is photographed at 1280 and 390 in light and dark', async ({ page }) => {
  test.setTimeout(600_000);
  mkdirSync(screenshotDir, { recursive: true });
  await page.setViewportSize(phone);
  await signUp(page, 'pages');
  const points = ['Rivers flow downhill to the sea', 'Deltas form where a river meets the sea', 'A meander is a bend in a river, carved where the outer bank erodes faster than the inner one'];
  const studied = await createSetOverApi(page, 'Rivers', points);
  const setHash = (await studied.getByRole('link', { name: 'Rivers' }).getAttribute('href')) ?? '';
  expect(setHash).toMatch(/^#\/sets\//);

  // A session left in progress.
  await studied.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  const sessionHash = new URL(page.url()).hash;

  // A recall session ended early: its completion screen.
  const ended = await createSetOverApi(page, 'Oceans', ['The Pacific is the largest ocean', 'The Atlantic separates Europe from the Americas']);
  await ended.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  // On a phone the keyboard hint is not offered (issue 25).
  await expect(page.getByText('Enter to send')).toBeHidden();
  await say(page, 'I do not remember');
  await endSession(page);
  await expect(page.getByRole('heading', { name: 'Session ended early' })).toBeVisible();
  const completionHash = new URL(page.url()).hash;

  // An assessment ended at once: its results, with the Ability column.
  await page.goto('/#/assessments');
  await page.getByTestId('assessment').filter({ hasText: 'Mathematics Fundamentals — Level 1' }).getByRole('button', { name: 'Start assessment' }).click();
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(/^Item 1 of \d+$/);
  await endSession(page);
  await expect(page.getByTestId('assessment-results')).toBeVisible();
  const resultsHash = new URL(page.url()).hash;

  await page.goto('/#/study-plans');
  const planHash = (await page.getByTestId('study-plan').first().getByRole('link', { name: 'Steps' }).getAttribute('href')) ?? '';
  expect(planHash).toMatch(/^#\/study-plans\//);

  const heading = (name: string) => (target: Page) => target.getByRole('heading', { level: 1, name });
  const pages: AppPage[] = [
    { name: 'home', hash: '#/home', ready: (target) => target.getByTestId('dashboard') },
    { name: 'recall-sets', hash: '#/sets', ready: (target) => target.getByTestId('recall-set').first() },
    { name: 'recall-set', hash: setHash, ready: (target) => target.getByTestId('schedule-row').first() },
    { name: 'recall-set-editor', hash: `${setHash}/edit`, ready: heading('Edit recall set') },
    { name: 'recall-set-new', hash: '#/sets/new', ready: heading('New recall set') },
    { name: 'import', hash: '#/import', ready: heading('Import a recall set') },
    { name: 'set-from-document', hash: '#/sets/from-document', ready: heading('Recall points from a document') },
    { name: 'study-plans', hash: '#/study-plans', ready: (target) => target.getByTestId('study-plan').first() },
    { name: 'study-plan', hash: planHash, ready: (target) => target.getByTestId('study-plan-detail') },
    { name: 'study-plan-new', hash: '#/study-plans/new', ready: heading('New study plan') },
    { name: 'study-plan-import', hash: '#/study-plans/import', ready: heading('Import a study plan') },
    { name: 'assessments', hash: '#/assessments', ready: (target) => target.getByTestId('assessment').first() },
    { name: 'reflect', hash: '#/reflect', ready: heading('Reflect') },
    { name: 'settings', hash: '#/settings', ready: (target) => target.getByTestId('retention-forecast').and(target.locator('[data-status="ready"], [data-status="error"]')) },
    { name: 'account', hash: '#/account', ready: (target) => target.getByTestId('account-username') },
    { name: 'session', hash: sessionHash, ready: (target) => target.getByTestId('tutor-message').first() },
    { name: 'completion', hash: completionHash, ready: heading('Session ended early') },
    { name: 'assessment-results', hash: resultsHash, ready: (target) => target.getByTestId('domain-table') },
  ];
  for (const target of pages) {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(phone);
    await page.goto(`/${target.hash}`);
    await expect(target.ready(page)).toBeVisible();
    await photograph(page, target);
  }

  // The tables that were cut off (issue 25): at 390 every column ends inside the window; at 1280
  // the schedule needs no sideways scrolling to show its last column.
  const rightEdge = async (locator: Locator) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error('no box');
    return found.x + found.width;
  };
  await page.setViewportSize(phone);
  await page.goto(`/${setHash}`);
  await expect(page.getByTestId('schedule-row')).toHaveCount(3);
  expect(await rightEdge(page.getByTestId('schedule-row').first().locator('td[data-label="Lapses"]'))).toBeLessThanOrEqual(phone.width);
  // The set page's buttons (two ways to start, Edit, two exports) sit in two rows, not three (issue 25).
  const rowsOfButtons = await page.locator('.set-toolbar button').evaluateAll((buttons) => new Set(buttons.map((button) => Math.round(button.getBoundingClientRect().top))).size);
  expect(rowsOfButtons, 'rows of buttons on the set page at 390').toBe(2);
  await page.setViewportSize(desktop);
  const scroll = await page.locator('.table-scroll').filter({ has: page.getByTestId('schedule-table') }).evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
  expect(scroll.scrollWidth, 'the schedule fits its box at 1280').toBeLessThanOrEqual(scroll.clientWidth);
  await page.setViewportSize(phone);
  await page.goto(`/${resultsHash}`);
  await expect(page.getByTestId('overall-ability')).toBeVisible();
  expect(await rightEdge(page.getByTestId('overall-ability'))).toBeLessThanOrEqual(phone.width);
});
