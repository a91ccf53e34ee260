/**
 * Issue 13 — a survey taken in the browser (SPEC §4.5), no API key: a new learner opens
 * Reflect, starts the shipped course-feedback survey and answers every question it shows, the
 * rating scales by keyboard alone (Tab, arrow keys, Enter); an optional question is skipped;
 * the progress reads "Question n of N", N counted on the learner's own path (issue 25); the end shows the learner's own answers, no score.
 * And a thought session started from the same page: no checklist, a summary at the end.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { say } from './support/session';

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(viewports[size]);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${viewports[size].width}.png`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${viewports[size].width}-dark.png`) });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await page.setViewportSize(viewports.desktop);
}

function rating(page: Page): Locator {
  return page.getByTestId('widget-rating');
}

/** Answers the pending rating widget with the keyboard only: focus is on the scale, arrows move, Tab to Submit, Enter. */
async function rateByKeyboard(page: Page, steps: number, expected: string): Promise<void> {
  const widget = rating(page);
  await expect(widget).toBeVisible();
  const radios = widget.getByRole('radio');
  // The new widget took the focus (issue 18): its first point.
  await expect(radios.first()).toBeFocused();
  for (let step = 0; step < steps; step += 1) await page.keyboard.press('ArrowRight');
  await expect(widget.getByRole('radio', { name: expected, exact: true })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('button', { name: 'Submit' })).toBeFocused();
  const widgetId = await widget.getAttribute('data-widget-id');
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-widget-id="${widgetId}"]`)).toHaveCount(0);
}

async function choose(page: Page, option: string): Promise<void> {
  const widget = page.getByTestId('widget-multiple_choice');
  await expect(widget).toBeVisible();
  const widgetId = await widget.getAttribute('data-widget-id');
  await widget.getByRole('radio', { name: option }).check();
  await widget.getByRole('button', { name: 'Submit' }).click();
  await expect(page.locator(`[data-widget-id="${widgetId}"]`)).toHaveCount(0);
}

test('a learner takes the course-feedback survey, the rating scales by keyboard', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await signUp(page, 'survey');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reflect' }).click();
  await expect(page.getByRole('heading', { name: 'Reflect', level: 1 })).toBeVisible();
  await expect(page.getByTestId('think-it-through')).toBeVisible();
  const card = page.getByTestId('survey-course-feedback');
  await expect(card.getByRole('heading', { name: 'Studying with tutorloop' })).toBeVisible();
  await screenshots(page, 'reflect');
  await card.getByRole('button', { name: 'Start Studying with tutorloop' }).click();

  await expect(page.getByRole('heading', { name: 'Studying with tutorloop', level: 1 })).toBeVisible();
  await expect(page.getByTestId('progress')).toHaveText('Question 1 of 5');
  await choose(page, 'Yes');

  await expect(page.getByTestId('progress')).toHaveText('Question 2 of 5');
  await expect(rating(page).locator('.widget-prompt')).toHaveText('Overall, how would you rate studying with tutorloop?');
  await expect(rating(page).getByRole('radio')).toHaveCount(5);
  await expect(rating(page).getByRole('radio', { name: '5 — Excellent', exact: true })).toBeVisible();
  // Issue 25: each label is shown once, under its own point (there was a second, misaligned row).
  for (const [value, label] of [['1', 'Poor'], ['3', 'Okay'], ['5', 'Excellent']] as const) {
    await expect(rating(page).getByText(label, { exact: true })).toHaveCount(1);
    await expect(rating(page).locator('label').filter({ hasText: label }).locator('.rating-value')).toHaveText(value);
  }
  await screenshots(page, 'survey-rating');
  await rateByKeyboard(page, 3, '4');

  await expect(page.getByTestId('progress')).toHaveText('Question 3 of 5');
  await choose(page, 'About right');

  // An optional question: skipped with its button.
  await expect(page.getByTestId('progress')).toHaveText('Question 4 of 5');
  await expect(page.getByTestId('widget-free_text')).toBeVisible();
  await page.getByTestId('skip-question').click();

  await expect(page.getByTestId('progress')).toHaveText('Question 5 of 5');
  await expect(rating(page).getByRole('radio')).toHaveCount(11);
  await rateByKeyboard(page, 9, '9');

  const summary = page.getByTestId('reflection-summary');
  await expect(summary.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  // The counts agree (issue 25): five questions on this path, "Question 5 of 5", 4 answered and 1 skipped.
  await expect(page.getByTestId('survey-summary-counts')).toHaveText('“Studying with tutorloop”: 4 answered, 1 skipped.');
  const answers = page.getByTestId('survey-answers');
  await expect(answers.locator('dt')).toHaveText([
    'Did you finish what you set out to study here?',
    'Overall, how would you rate studying with tutorloop?',
    'How was the pace of your sessions?',
    'What was the most useful part for you?',
    'How likely are you to recommend tutorloop to a friend?',
  ]);
  await expect(answers.locator('dd')).toHaveText(['Yes', '4 of 5', 'About right', 'skipped', '9 of 10']);
  await expect(summary).not.toContainText(/score|correct/i);
  await screenshots(page, 'survey-summary');
});

test('a learner thinks a topic through with the offline partner and ends with a summary', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await signUp(page, 'think');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reflect' }).click();
  await page.getByLabel('Topic (optional)').fill('why habits stick');
  await page.getByRole('button', { name: 'Start thinking' }).click();
  await expect(page.getByRole('heading', { name: 'Thinking about why habits stick', level: 1 })).toBeVisible();
  await expect(page.getByTestId('tutor-message').first()).toContainText('why habits stick');
  // No checklist: nothing counts points.
  await expect(page.getByTestId('progress')).toHaveCount(0);
  await say(page, 'I think habits stick because they run on cues, not willpower');
  await expect(page.getByTestId('tutor-message').last()).toContainText('habits stick because they run on cues');
  await say(page, 'motivation fades after a week or two');
  // Retry: the partner's last reply is put another way, in the same place.
  const replies = page.getByTestId('tutor-message');
  const count = await replies.count();
  const before = await replies.last().innerText();
  await page.getByRole('button', { name: 'Retry: produce this reply again' }).click();
  await expect(replies.last()).not.toHaveText(before);
  await expect(replies.last()).toContainText('motivation fades after a week or two');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  await expect(replies).toHaveCount(count);
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('button', { name: 'End now' }).click();
  await expect(page.getByRole('heading', { name: 'Thinking about why habits stick', level: 1 })).toBeVisible();
  await expect(page.getByTestId('thought-summary')).toContainText('You thought through why habits stick');
  await screenshots(page, 'thought-summary');
});
