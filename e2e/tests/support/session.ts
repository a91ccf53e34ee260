/**
 * A session page from the learner's side: chatting, and answering the pending widget of each
 * kind the way a person would (the CodeMirror editor, the free-text box with its counter, the
 * radio group by keyboard).
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type WidgetKind = 'multiple_choice' | 'free_text' | 'code_editor';

/** Sends a chat message and waits for the tutor's (final, not streaming) reply to it. */
export async function say(page: Page, message: string): Promise<void> {
  const sent = page.getByTestId('learner-message');
  const sentBefore = await sent.count();
  await page.getByRole('textbox', { name: 'Message' }).fill(message);
  // Send is disabled while the tutor replies; click() waits for it.
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(sent).toHaveCount(sentBefore + 1);
  await expect(sent.last()).toContainText(message);
  // The reply is the tutor message after the learner's last one: counting all tutor messages
  // would race with an opening reply that is still on its way.
  await expect(page.locator('xpath=//li[@data-testid="learner-message"][last()]/following-sibling::li[@data-testid="tutor-message"]')).not.toHaveCount(0);
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
}

/** The pending widget of one kind (only one widget is pending at a time). */
export function pendingWidget(page: Page, kind: WidgetKind): Locator {
  return page.getByTestId(`widget-${kind}`);
}

/** The pending widget whatever its kind, for flows that do not know which comes next. */
export function anyPendingWidget(page: Page): Locator {
  return pendingWidget(page, 'multiple_choice').or(pendingWidget(page, 'code_editor')).or(pendingWidget(page, 'free_text'));
}

/** The widget's prompt as shown: the element its form is labelled by. */
export async function promptOf(widget: Locator): Promise<string> {
  const id = await widget.locator('form').getAttribute('aria-labelledby');
  if (!id) throw new Error('the widget form has no aria-labelledby prompt');
  return (await widget.page().locator(`[id="${id}"]`).innerText()).trim();
}

/** Waits until this widget has left the page (answered); the next one may already be there. */
async function expectSubmitted(widget: Locator, widgetId: string | null): Promise<void> {
  if (!widgetId) throw new Error('the pending widget has no data-widget-id');
  await expect(widget.and(widget.page().locator(`[data-widget-id="${widgetId}"]`))).toHaveCount(0);
}

/** Writes `code` into the CodeMirror editor (replacing the starter code) and submits it. */
export async function submitCode(widget: Locator, code: string): Promise<void> {
  const widgetId = await widget.getAttribute('data-widget-id');
  await widget.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await widget.getByRole('button', { name: 'Submit', exact: true }).click();
  await expectSubmitted(widget, widgetId);
}

/** Writes `text` in the free-text box, checks the live character count, and submits. */
export async function submitFreeText(widget: Locator, text: string): Promise<void> {
  const widgetId = await widget.getAttribute('data-widget-id');
  const box = widget.getByRole('textbox', { name: 'Your answer' });
  await box.fill(text);
  await expect(widget.getByTestId('char-count')).toHaveText(new RegExp(`^${text.length} / \\d+$`));
  await widget.getByRole('button', { name: 'Submit' }).click();
  await expectSubmitted(widget, widgetId);
}

/** The options of a multiple-choice widget, in order. */
export async function optionsOf(widget: Locator): Promise<string[]> {
  return (await widget.getByRole('radio').evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent ?? ''))).map(
    (text) => text.trim(),
  );
}

/**
 * Picks `option` the keyboard way — focus the group's first radio, Space to select it, arrow
 * keys to move — then submits.
 */
export async function chooseByKeyboard(widget: Locator, option: string): Promise<void> {
  const widgetId = await widget.getAttribute('data-widget-id');
  const options = await optionsOf(widget);
  const index = options.indexOf(option);
  if (index < 0) throw new Error(`"${option}" is not among the options ${JSON.stringify(options)}`);
  const radios = widget.getByRole('radio');
  const keyboard = widget.page().keyboard;
  await radios.first().focus();
  await keyboard.press('Space');
  await expect(radios.first()).toBeChecked();
  for (let step = 1; step <= index; step++) {
    await keyboard.press('ArrowDown');
    await expect(radios.nth(step)).toBeChecked();
  }
  await expect(widget.getByRole('radio', { name: option, exact: true })).toBeFocused();
  await widget.getByRole('button', { name: 'Submit' }).click();
  await expectSubmitted(widget, widgetId);
}

/** Picks `option` with a click on its radio, then submits. */
export async function choose(widget: Locator, option: string): Promise<void> {
  const widgetId = await widget.getAttribute('data-widget-id');
  await widget.getByRole('radio', { name: option, exact: true }).check();
  await widget.getByRole('button', { name: 'Submit' }).click();
  await expectSubmitted(widget, widgetId);
}

/** Ends the session early through the confirmation dialog. */
export async function endSession(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'End session' }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session?' });
  await dialog.getByRole('button', { name: 'End now' }).click();
  await expect(dialog).toHaveCount(0);
}
