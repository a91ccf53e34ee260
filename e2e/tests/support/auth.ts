/** Signing up through the form: every test gets its own learner, so tests never share data. */
import { expect, type Page } from '@playwright/test';

let counter = 0;

/** A username no other test (or earlier run against the same data folder) has used. */
export function uniqueUsername(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`.slice(0, 32);
}

/**
 * Signs a new learner up and lands on home, which greets a learner with nothing yet with the
 * welcome (issues 18 and 13). A first visit opens on the sign-up form; a browser that signed
 * in before opens on sign-in.
 */
export async function signUpToWelcome(page: Page, prefix = 'e2e'): Promise<string> {
  const username = uniqueUsername(prefix);
  await page.goto('/');
  const signUpButton = page.getByRole('button', { name: 'Sign up', exact: true });
  const toSignUp = page.getByRole('button', { name: 'Create an account' });
  await expect(signUpButton.or(toSignUp)).toBeVisible();
  if (await toSignUp.isVisible()) await toSignUp.click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('a long enough password');
  await signUpButton.click();
  await expect(page.getByTestId('username')).toHaveText(username);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to tutorloop, ${username}`);
  return username;
}

/** Signs a new learner up, then goes from the welcome page to the recall sets page. */
export async function signUp(page: Page, prefix = 'e2e'): Promise<string> {
  const username = await signUpToWelcome(page, prefix);
  await page.getByRole('link', { name: 'Go to your recall sets' }).click();
  await expect(page.getByRole('heading', { name: 'Recall sets', exact: true })).toBeVisible();
  return username;
}
