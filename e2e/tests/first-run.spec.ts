/**
 * Issue 18 — the learner's web experience, first run, offline tutor: a new visitor is offered
 * an account (not "Welcome back"), gets plain field errors from the form and from the
 * server, lands on the welcome, learns what the offline tutor can and cannot do, tries the
 * sample set and recalls it to the end — Markdown and math rendered in the chat, a draft
 * kept across a reload — and is greeted back after signing out. The recall set editor flags
 * a blank point instead of dropping it, and a set with no points says why it cannot start.
 * Every page on the way passes the accessibility scan (support/axe.ts).
 */
import { expect, test } from '@playwright/test';
import { signUp, uniqueUsername } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { setRow } from './support/recall-sets';
import { say } from './support/session';

const samplePoints = [
  'Recalling something from memory strengthens it more than reading it again',
  'Reviews spread out over days keep a memory longer than the same reviews crammed together',
  'Without review most new facts are forgotten within a few days',
];

test('a new learner signs up, meets the welcome and recalls the sample set to the end', async ({ page }) => {
  test.slow();
  // A name already taken, made over the API (the server's conflict must land on the field).
  const taken = uniqueUsername('taken');
  expect((await page.request.post('/api/auth/register', { data: { username: taken, password: 'a long enough password' } })).status()).toBe(201);

  // A first visit: the sign-up form, telling what tutorloop is — nobody is welcomed "back".
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  await expect(page.getByTestId('auth-intro')).toContainText('asks you about what you want to remember');
  await expect(page.getByText('Welcome back')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'sign-up');

  // Errors in plain words, one per field, the first field focused: the shared schema first…
  const username = page.getByLabel('Username');
  const password = page.getByLabel('Password');
  await username.fill('ab');
  await password.fill('short');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByTestId('username-error')).toHaveText('Use at least 3 characters.');
  await expect(page.getByTestId('password-error')).toHaveText('Use at least 8 characters.');
  await expect(username).toBeFocused();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAccessibleDescription(/Use at least 3 characters\./);
  await expectNoSeriousViolations(page, 'sign-up with errors');
  await username.fill('has space');
  await password.fill('a long enough password');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByTestId('username-error')).toHaveText('Use only letters, digits, “_”, “.” and “-” (no spaces).');
  await expect(page.getByTestId('password-error')).toHaveCount(0);
  // …then the server's code: a taken name.
  await username.fill(taken);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByTestId('username-error')).toHaveText('That username is taken. Pick another, or sign in if it is yours.');

  const learner = uniqueUsername('first');
  await username.fill(learner);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();

  // The welcome: two sentences, the sample, shipped plans and assessments, create your own.
  await expect(page).toHaveURL(/#\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome to tutorloop, ${learner}`);
  await expect(page.getByTestId('welcome-lead')).toContainText('asks you about the things you want to remember');
  await expect(page.getByTestId('welcome-plans').getByRole('button', { name: /^Start learning / })).toHaveCount(3);
  await expect(page.getByTestId('welcome-assessments').getByRole('button', { name: /^Start assessment / }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create your own set' })).toBeVisible();
  const explanation = page.getByRole('main').getByTestId('provider-explanation');
  await expect(explanation).toContainText('It cannot');
  await expect(explanation).toContainText('LLM_PROVIDER=anthropic');
  await expect(explanation).toContainText('OPENAI_BASE_URL');
  await expectNoSeriousViolations(page, 'welcome');

  // The badge explains itself, by keyboard too: open, read, Escape back to the badge.
  const badge = page.getByTestId('offline-badge');
  await expect(badge).toHaveText('Offline tutor');
  await badge.focus();
  await page.keyboard.press('Enter');
  await expect(badge).toHaveAttribute('aria-expanded', 'true');
  const popover = page.getByRole('banner').getByTestId('provider-explanation');
  await expect(popover).toBeVisible();
  await expect(popover).toContainText('It can');
  await expect(popover).toContainText('ANTHROPIC_API_KEY');
  await expectNoSeriousViolations(page, 'provider explanation');
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(badge).toBeFocused();

  // The sample set: a real set, and its review starts at once.
  await page.getByRole('button', { name: 'Try a sample set' }).click();
  await expect(page).toHaveURL(/#\/sessions\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sample: how memory works');
  await expect(page.getByTestId('progress')).toHaveText('0 of 3 recalled');
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'recall session');

  // Nothing typed is lost: the composer's draft comes back after a reload.
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('a half-written thought about **spacing**');
  await page.reload();
  await expect(composer).toHaveValue('a half-written thought about **spacing**');

  // Markdown and math in the chat, the learner's own included (KaTeX arrives lazily).
  await composer.fill(`${samplePoints[0]} — *really*: $R = e^{-t/S}$ and $$\\frac{1}{2}$$`);
  await page.getByRole('button', { name: 'Send' }).click();
  const mine = page.getByTestId('learner-message').last();
  await expect(mine.locator('em')).toHaveText('really');
  await expect(mine.locator('.katex')).toHaveCount(2);
  await expect(mine.locator('.katex-display')).toHaveCount(1);
  await expect(mine.locator('math')).toHaveCount(2);
  await expect(page.getByTestId('progress')).toHaveText('1 of 3 recalled');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  // Sent, so the draft is gone: a reload brings an empty box.
  await page.reload();
  await expect(composer).toHaveValue('');
  await expect(page.getByTestId('learner-message').last().locator('.katex')).toHaveCount(2);

  // A highlighted code block in a message.
  await composer.fill('Like this:\n```python\nprint("spacing")\n```');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('learner-message').last().locator('pre code.hljs .hljs-string')).toHaveText('"spacing"');
  await expect(page.locator('xpath=//li[@data-testid="learner-message"][last()]/following-sibling::li[@data-testid="tutor-message"]')).not.toHaveCount(0);
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  await expectNoSeriousViolations(page, 'recall session with markdown');

  await say(page, samplePoints[1]!);
  await expect(page.getByTestId('progress')).toHaveText('2 of 3 recalled');
  await say(page, samplePoints[2]!);
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
  await expectNoSeriousViolations(page, 'completion');

  // The sample is one of the learner's sets now.
  await page.getByRole('button', { name: 'Back to recall sets' }).click();
  await expect(setRow(page, 'Sample: how memory works').getByTestId('point-count')).toHaveText('3 points');

  // Signed out, the same browser is greeted back, name filled in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  await expect(page.getByLabel('Username')).toHaveValue(learner);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await expectNoSeriousViolations(page, 'sign-in');
});

test('the recall set editor flags a blank point and names each problem under its field', async ({ page }) => {
  await signUp(page, 'editor');
  await page.getByRole('button', { name: 'New recall set' }).click();
  await expect(page.getByRole('heading', { name: 'New recall set' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Rivers');
  await page.getByRole('textbox', { name: 'Point', exact: true }).nth(0).fill('The Nile flows north');
  await page.getByRole('button', { name: 'Add point' }).click();
  await page.getByRole('button', { name: 'Add point' }).click();
  await page.getByRole('textbox', { name: 'Point', exact: true }).nth(2).fill('The Amazon carries the most water');
  await page.getByRole('textbox', { name: 'Context' }).nth(1).fill('a context without its point');
  await page.getByRole('button', { name: 'Save' }).click();

  // Point 2 is blank: flagged where it is, focused, and nothing saved or dropped.
  const blank = page.getByTestId('point-row').nth(1);
  await expect(blank.getByTestId('field-error')).toHaveText('This point is empty: write it, or remove the row.');
  await expect(blank.getByRole('textbox', { name: 'Point', exact: true })).toBeFocused();
  await expect(page.getByTestId('editor-errors')).toContainText('Point 2: This point is empty');
  await expect(page.getByTestId('point-row')).toHaveCount(3);
  await expect(page.getByRole('textbox', { name: 'Context' }).nth(1)).toHaveValue('a context without its point');
  await expectNoSeriousViolations(page, 'editor with errors');

  // A blank name is flagged under the name.
  await page.getByLabel('Name', { exact: true }).fill('   ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('This cannot be empty.');

  await page.getByLabel('Name', { exact: true }).fill('Rivers');
  await blank.getByRole('textbox', { name: 'Point', exact: true }).fill('The Danube crosses ten countries');
  await expect(page.getByTestId('field-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(setRow(page, 'Rivers').getByTestId('point-count')).toHaveText('3 points');

  // A set with no points: Start is disabled and says why.
  await page.getByRole('button', { name: 'New recall set' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Empty for now');
  await page.getByRole('button', { name: 'Remove point 1' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  const empty = setRow(page, 'Empty for now');
  const start = empty.getByRole('button', { name: 'Start session' });
  await expect(start).toBeDisabled();
  await expect(start).toHaveAccessibleDescription('No points yet: add one with Edit to start a session.');
  await expect(empty.getByTestId('start-disabled-reason')).toBeVisible();
  await expectNoSeriousViolations(page, 'recall sets');
});
