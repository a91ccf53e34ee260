/**
 * Issue 18 — focus, keyboard and the accessibility scan. Every page a learner meets passes
 * axe (WCAG 2.1 A/AA, no serious or critical violation) in the light and the dark scheme (issue
 * 25: each scan runs in both, support/axe.ts), with Dark chosen in Settings too, and the phone's
 * open menu; a recall session through every
 * widget and an assessment are answered with the keyboard alone, and after each answer the
 * focus is on the next thing to do — the next widget's first control, or the message box —
 * never lost to the top of the page. A half-written widget answer survives a reload.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { arithmeticAnswer } from './support/items';
import { createSetOverApi } from './support/api-sets';
import { optionsOf, pendingWidget } from './support/session';
import { codeAnswer, freeTextAnswer, shortPoint, widgetPoints } from './support/widget-set';

async function openFromNav(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

/** Types a chat message and sends it with Enter, then waits for the tutor's answer to it. */
async function sayByKeyboard(page: Page, message: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' });
  await expect(composer).toBeFocused();
  const sent = page.getByTestId('learner-message');
  const before = await sent.count();
  await page.keyboard.type(message);
  await page.keyboard.press('Enter');
  await expect(sent).toHaveCount(before + 1);
  await expect(page.locator('xpath=//li[@data-testid="learner-message"][last()]/following-sibling::li[@data-testid="tutor-message"]')).not.toHaveCount(0);
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
}

/** Waits until the widget with this id has gone (answered). */
async function expectAnswered(page: Page, widgetId: string | null): Promise<void> {
  await expect(page.locator(`[data-widget-id="${widgetId}"]`)).toHaveCount(0);
}

/** Picks `option` with the arrow keys (Space selects the first) and submits with Enter. */
async function chooseWithKeys(page: Page, widget: Locator, option: string): Promise<void> {
  const options = await optionsOf(widget);
  const index = options.indexOf(option);
  expect(index, `${option} among ${JSON.stringify(options)}`).toBeGreaterThanOrEqual(0);
  const radios = widget.getByRole('radio');
  await expect(radios.first()).toBeFocused();
  await page.keyboard.press('Space');
  for (let step = 1; step <= index; step++) await page.keyboard.press('ArrowDown');
  await expect(radios.nth(index)).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('button', { name: 'Submit' })).toBeFocused();
  await page.keyboard.press('Enter');
}

test('every page of the journey passes the accessibility scan', async ({ page }) => {
  // Each page is scanned twice (light and dark): longer than test.slow() allows on a busy machine.
  test.setTimeout(600_000);
  await signUp(page, 'axe');
  await expectNoSeriousViolations(page, 'recall sets (empty)');
  await page.getByRole('button', { name: 'New recall set' }).click();
  await expect(page.getByRole('heading', { name: 'New recall set' })).toBeVisible();
  await expectNoSeriousViolations(page, 'new recall set');
  await page.getByRole('button', { name: 'Cancel' }).click();
  const row = await createSetOverApi(page, 'Scan set', widgetPoints);
  await expectNoSeriousViolations(page, 'recall sets');
  await page.goto('/#/import');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Import a recall set');
  await expectNoSeriousViolations(page, 'import');
  await page.goto('/#/sets');
  await row.getByRole('link', { name: 'Scan set' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scan set');
  await expect(page.getByTestId('schedule-row')).toHaveCount(3);
  await expectNoSeriousViolations(page, 'set schedule');
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit recall set' })).toBeVisible();
  await expectNoSeriousViolations(page, 'edit recall set');

  await openFromNav(page, 'Study plans', 'Study plans');
  await expect(page.getByTestId('study-plan').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'study plans');
  await page.getByTestId('study-plan').first().getByRole('link', { name: 'Steps' }).click();
  await expect(page.getByTestId('study-plan-detail')).toBeVisible();
  await expectNoSeriousViolations(page, 'study plan');
  await page.goto('/#/study-plans/new');
  await expect(page.getByRole('heading', { name: 'New study plan' })).toBeVisible();
  await expectNoSeriousViolations(page, 'new study plan');

  await openFromNav(page, 'Assessments', 'Assessments');
  await expect(page.getByTestId('assessment').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'assessments');
  await openFromNav(page, 'Settings', 'Settings');
  await expect(page.getByTestId('retention-forecast')).toHaveAttribute('data-status', /ready|error/);
  await expectNoSeriousViolations(page, 'settings');
  // Dark chosen in Settings on a light device, then back to following the system.
  await page.getByTestId('theme-switch').getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoSeriousViolations(page, 'settings, Dark chosen');
  await page.getByTestId('theme-switch').getByRole('radio', { name: 'System' }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  // The phone's header menu, open.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expectNoSeriousViolations(page, 'phone menu');
  await page.keyboard.press('Escape');
  if (viewport) await page.setViewportSize(viewport);

  // A learning session and its rail.
  await openFromNav(page, 'Study plans', 'Study plans');
  await page.getByTestId('study-plan').first().getByRole('button', { name: 'Start learning' }).click();
  await expect(page.getByTestId('learning-step')).toBeVisible();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'learning session');

  // An assessment ended at once, and its results.
  await openFromNav(page, 'Assessments', 'Assessments');
  await page.getByTestId('assessment').first().getByRole('button', { name: 'Start assessment' }).click();
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(/^Item 1 of \d+$/);
  await expectNoSeriousViolations(page, 'assessment session');
  await page.getByRole('button', { name: 'End session' }).click();
  await expectNoSeriousViolations(page, 'end-session dialog');
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('assessment-results')).toBeVisible();
  await expectNoSeriousViolations(page, 'assessment results');

  await page.goto('/#/nowhere');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectNoSeriousViolations(page, 'not found');
});

test('a recall session through every widget with the keyboard alone; focus follows each answer', async ({ page }) => {
  test.slow();
  await signUp(page, 'keys');
  const row = await createSetOverApi(page, 'Keyboard set', widgetPoints);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  // From the page's heading, Tab walks to the message box.
  const composer = page.getByRole('textbox', { name: 'Message' });
  for (let presses = 0; presses < 10 && !(await composer.evaluate((element) => element === document.activeElement)); presses++) {
    await page.keyboard.press('Tab');
  }
  await expect(composer).toBeFocused();

  // A miss brings the code editor, which takes the focus (the composer was empty).
  await sayByKeyboard(page, 'no idea');
  const code = pendingWidget(page, 'code_editor');
  const editor = code.getByRole('textbox', { name: 'Code', exact: true });
  await expect(editor).toBeFocused();
  await expectNoSeriousViolations(page, 'code editor widget');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(codeAnswer);
  // Esc then Tab leaves the editor for the button; Ctrl+Enter inside it submits.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(code.getByRole('button', { name: 'Submit', exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(editor).toBeFocused();
  const codeId = await code.getAttribute('data-widget-id');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectAnswered(page, codeId);
  await expect(page.getByTestId('learner-message').last()).toContainText('print(len(word))');
  // Answered: the focus waits in the message box, not at the top of the page.
  await expect(composer).toBeFocused();
  await expect(page.getByTestId('progress')).toHaveText('1 of 3 recalled');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);

  // The free-text box takes the focus; a half-written answer survives a reload.
  await sayByKeyboard(page, 'no idea');
  const written = pendingWidget(page, 'free_text');
  const box = written.getByRole('textbox', { name: 'Your answer' });
  await expect(box).toBeFocused();
  await page.keyboard.type('Chloroplasts use chlorophyll');
  await page.reload();
  await expect(box).toHaveValue('Chloroplasts use chlorophyll');
  await expect(box).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(freeTextAnswer);
  const writtenId = await written.getAttribute('data-widget-id');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectAnswered(page, writtenId);
  await expect(composer).toBeFocused();
  await expect(page.getByTestId('progress')).toHaveText('2 of 3 recalled');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);

  // Two misses bring multiple choice: its first option has the focus.
  await sayByKeyboard(page, 'no idea');
  await sayByKeyboard(page, 'still nothing');
  const choices = pendingWidget(page, 'multiple_choice');
  await expect(choices.getByRole('radio').first()).toBeFocused();
  await expectNoSeriousViolations(page, 'multiple-choice widget');
  await chooseWithKeys(page, choices, shortPoint);
  await expect(page.getByRole('heading', { name: 'Session complete' })).toBeFocused();
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
});

test('an assessment answered with the keyboard alone; each next item has the focus', async ({ page }) => {
  test.slow();
  await signUp(page, 'keyquiz');
  await openFromNav(page, 'Assessments', 'Assessments');
  const card = page.getByTestId('assessment').filter({ hasText: 'Mathematics Fundamentals — Level 1' });
  await card.getByRole('button', { name: 'Start assessment' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('assessment-item-counter')).toHaveText('Item 1 of 20');

  const total = 20;
  let previous: string | null = null;
  for (let position = 1; position <= total; position++) {
    await expect(page.getByTestId('assessment-item-counter')).toHaveText(`Item ${position} of ${total}`);
    const widget = pendingWidget(page, 'multiple_choice').and(
      previous ? page.locator(`[data-widget-id]:not([data-widget-id="${previous}"])`) : page.locator('[data-widget-id]'),
    );
    await expect(widget).toBeVisible();
    if (position === 1) {
      // The first item: Tab from the page reaches its first option.
      for (let presses = 0; presses < 15 && !(await widget.getByRole('radio').first().evaluate((element) => element === document.activeElement)); presses++) {
        await page.keyboard.press('Tab');
      }
    }
    // After every answer the next item's first option has the focus.
    await expect(widget.getByRole('radio').first()).toBeFocused();
    const stem = (await widget.locator('.widget-prompt').innerText()).trim();
    previous = await widget.getAttribute('data-widget-id');
    await chooseWithKeys(page, widget, String(arithmeticAnswer(stem)));
    await expectAnswered(page, previous);
  }
  await expect(page.getByRole('heading', { name: 'Assessment complete' })).toBeFocused();
  await expect(page.getByTestId('assessment-score')).toHaveText('20 / 20 — 100%');
});
