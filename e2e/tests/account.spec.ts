/**
 * The account page in a real Chromium (issue 18): change the password (the current one
 * required), export my data, sign out everywhere (another browser is signed out too), delete
 * the account after typing the username.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { createSet } from './support/recall-sets';

const password = 'a long enough password';

async function openAccount(page: Page, username: string) {
  await page.getByRole('link', { name: new RegExp(username) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
}

async function signIn(page: Page, username: string, secret: string) {
  await page.goto('/#/login');
  const signInButton = page.getByRole('button', { name: 'Sign in', exact: true });
  const toSignIn = page.getByRole('button', { name: 'Use an existing account' });
  await expect(signInButton.or(toSignIn).first()).toBeVisible();
  if (!(await signInButton.isVisible())) await toSignIn.click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(secret);
  await signInButton.click();
}

test('change password, export my data, sign out everywhere', async ({ page, browser }) => {
  const username = await signUp(page, 'acct');
  await createSet(page, 'Exported set', ['Paris is the capital of France', 'Water boils at 100 degrees Celsius']);
  await openAccount(page, username);

  // A wrong current password is refused and changes nothing.
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password').fill('a brand new secret');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('change-password-outcome')).toHaveText('Current password: that is not your current password.');
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('change-password-outcome')).toHaveText('Password changed. Your other devices are signed out.');
  // This browser stays signed in with its new token.
  await page.reload();
  await expect(page.getByTestId('account-username')).toHaveText(username);

  // Export my data: one JSON file with the set in it.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export my data' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^tutorloop-${username}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { learner: { username: string }; recallSets: Array<{ name: string }> };
  expect(exported.learner.username).toBe(username);
  expect(exported.recallSets.map((set) => set.name)).toEqual(['Exported set']);

  // Another browser signs in with the new password.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, username, 'a brand new secret');
  await expect(otherPage.getByTestId('username')).toHaveText(username);

  // Sign out everywhere: this browser lands on sign-in, and the other one is refused at its next request.
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true }).or(page.getByRole('button', { name: 'Use an existing account' })).first()).toBeVisible();
  await otherPage.reload();
  await expect(otherPage.getByTestId('username')).toHaveCount(0);
  await other.close();
});

test('delete my account after typing the username', async ({ page }) => {
  const username = await signUp(page, 'gone');
  await openAccount(page, username);
  const remove = page.getByRole('button', { name: 'Delete my account' });
  await expect(remove).toBeDisabled();
  await page.getByLabel('Username', { exact: true }).fill('someone else');
  await expect(remove).toBeDisabled();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await expect(remove).toBeEnabled();
  // Keyboard: the button is reachable and pressed with Enter.
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('username')).toHaveCount(0);
  // The account is gone: signing in fails.
  await signIn(page, username, password);
  await expect(page.getByText('Wrong username or password.')).toBeVisible();
  await expect(page.getByTestId('username')).toHaveCount(0);
});
