/**
 * Issue 25 item 4: the JSON export of the account page restores into a new account — the set,
 * the session with its conversation and the card it reviewed come back — and a file that is not
 * an export is refused in plain words with nothing added.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signUp, signUpToWelcome } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { createSet, setRow } from './support/recall-sets';
import { say } from './support/session';

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** The restore's outcome at 1280×800 and 390×844, light and dark (e2e/screenshots/, gitignored), to be looked at. */
async function screenshots(page: Page): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await page.getByTestId('restore-outcome').scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(screenshotDir, `account-restored-${size.width}${scheme === 'dark' ? '-dark' : ''}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function openAccount(page: Page, username: string) {
  await page.goto('/#/account');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(page.getByTestId('account-username')).toHaveText(username);
}

test('export my data from one account, restore it into a new one', async ({ page, browser }) => {
  test.slow();
  const first = await signUp(page, 'saved');
  const row = await createSet(page, 'Rivers', ['Rivers flow downhill to the sea', 'Deltas form where a river meets the sea']);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await say(page, 'Rivers flow downhill to the sea');
  await expect(page.getByTestId('progress')).toContainText('1 of 2');

  await openAccount(page, first);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my data' }).click();
  const exported = await (await downloadPromise).path();

  // A new account, in another browser.
  const context = await browser.newContext();
  const other = await context.newPage();
  const second = await signUpToWelcome(other, 'restored');
  await openAccount(other, second);
  await expect(other.getByRole('heading', { name: 'Restore from an export' })).toBeVisible();

  // Something that is not an export is refused, and nothing is added.
  await other.getByLabel('Export file (.json)').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"sets": []}') });
  await expect(other.getByTestId('restore-outcome')).toHaveText('This file is not a tutorloop account export (it should be the JSON file that "Export my data" saves).');
  await expect(other.getByTestId('restore-outcome')).toHaveAttribute('role', 'alert');

  await other.getByLabel('Export file (.json)').setInputFiles(exported);
  await expect(other.getByTestId('restore-outcome')).toHaveText('Restored 1 set, 1 card, 1 session.');
  await expectNoSeriousViolations(other, 'account page after a restore');
  await screenshots(other);

  // The set is there with its schedule (one point reviewed, one still due), and the session with its conversation.
  await other.goto('/#/sets');
  const restored = setRow(other, 'Rivers');
  await expect(restored.getByTestId('point-count')).toHaveText('2 points');
  await expect(restored.getByTestId('due-count')).toHaveText('1 due');
  await other.goto('/#/');
  const session = other.getByTestId('recent-session');
  await expect(session).toHaveCount(1);
  await expect(session).toContainText('In progress');
  await session.getByRole('link').click();
  await expect(other.getByTestId('progress')).toContainText('1 of 2');
  await expect(other.getByText('Rivers flow downhill to the sea').first()).toBeVisible();
  await context.close();
});
