/** Signing up through the form: every test gets its own learner, so tests never share data. */
import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A username no other test (or earlier run against the same data folder) has used. */
export function uniqueUsername(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`.slice(0, 32);
}

/** Signs a new learner up from the sign-in page and waits for the recall sets page. */
export async function signUp(page: Page, prefix = 'e2e'): Promise<string> {
  const username = uniqueUsername(prefix);
  await page.goto('/');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByTestId('username')).toHaveText(username);
  await expect(page.getByRole('heading', { name: 'Recall sets', exact: true })).toBeVisible();
  return username;
}
