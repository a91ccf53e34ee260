/**
 * Issue 4 — widgets in the browser (SPEC §4.2, §5), offline tutor, no API key: one recall
 * session meets the code editor (CodeMirror), the free-text box and multiple choice (picked by
 * keyboard); a tangent opens and closes; a reload while a widget is pending restores that same
 * widget, answering it carries the session on to completion, and answered widgets stay
 * readable in the transcript after reloads.
 */
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { createSet } from './support/recall-sets';
import { chooseByKeyboard, optionsOf, pendingWidget, say, submitCode, submitFreeText } from './support/session';
import {
  codeAnswer,
  freeTextAnswer,
  missUntilChoices,
  missUntilCodeEditor,
  missUntilFreeText,
  progress,
  shortPoint,
  widgetPoints,
} from './support/widget-set';

test('a learner answers a code editor, a free-text box and multiple choice, with a reload while a widget is pending', async ({ page }) => {
  await signUp(page, 'widgets');
  await expect(page.getByTestId('offline-badge')).toHaveText('Offline tutor');
  const row = await createSet(page, 'Mixed bag', widgetPoints);
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mixed bag');
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  await expect(progress(page)).toHaveText('0 of 3 recalled');
  const transcript = page.getByRole('log', { name: 'Conversation' });

  // 1. Code editor: CodeMirror, Python, answered with code that uses len().
  const editor = await missUntilCodeEditor(page);
  await expect(editor.getByTestId('code-editor')).toBeVisible();
  // Once its lazy chunk is in, the "Code" textbox is CodeMirror's contenteditable, not the fallback textarea.
  await expect(editor.getByRole('textbox', { name: 'Code', exact: true })).toHaveAttribute('contenteditable', 'true');
  await submitCode(editor, codeAnswer);
  await expect(progress(page)).toHaveText('1 of 3 recalled');
  await expect(transcript.getByTestId('widget-history-code_editor')).toBeVisible();
  await expect(transcript.getByTestId('learner-message').filter({ hasText: 'print(len(word))' })).toBeVisible();

  // A tangent opened by the learner, followed and then closed.
  await say(page, 'By the way, how do cacti photosynthesize at night?');
  await expect(page.getByTestId('rabbithole')).toContainText('Tangent: how do cacti photosynthesize at night');
  await say(page, "OK, let's get back to the review");
  await expect(page.getByTestId('rabbithole')).toHaveCount(0);

  // 2. Free text, then a reload while it is pending: the same widget comes back.
  const freeText = await missUntilFreeText(page);
  await expect(freeText.getByTestId('char-count')).toHaveText(/^0 \/ \d+$/);
  const freeTextId = await freeText.getAttribute('data-widget-id');
  expect(freeTextId).toBeTruthy();

  await page.reload();
  const restored = pendingWidget(page, 'free_text');
  await expect(restored).toHaveAttribute('data-widget-id', freeTextId!);
  await expect(progress(page)).toHaveText('1 of 3 recalled');
  // The answered code editor is still readable, with the learner's code.
  await expect(transcript.getByTestId('widget-history-code_editor')).toBeVisible();
  await expect(transcript.getByTestId('learner-message').filter({ hasText: 'print(len(word))' })).toBeVisible();

  await submitFreeText(restored, freeTextAnswer);
  await expect(progress(page)).toHaveText('2 of 3 recalled');
  await expect(transcript.getByTestId('widget-history-free_text')).toBeVisible();
  await expect(transcript.getByTestId('learner-message').filter({ hasText: freeTextAnswer })).toBeVisible();

  // 3. Multiple choice, picked with the keyboard; the right pick completes the session.
  const choices = await missUntilChoices(page);
  expect(await optionsOf(choices)).toContain(shortPoint);
  await chooseByKeyboard(choices, shortPoint);
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
  await expect(page.getByTestId('completion-point').and(page.locator('[data-recalled="true"]'))).toHaveCount(3);

  // After another reload the finished session's conversation keeps every widget, read-only.
  await page.reload();
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await page.getByText('Show the conversation').click();
  const history = page.getByRole('log', { name: 'Conversation' });
  await expect(history.getByTestId('widget-history-code_editor')).toBeVisible();
  await expect(history.getByTestId('widget-history-free_text')).toBeVisible();
  await expect(history.getByTestId('widget-history-multiple_choice')).toContainText(`${shortPoint} — your answer`);
  await expect(history.getByTestId('learner-message').filter({ hasText: 'print(len(word))' })).toBeVisible();
  await expect(history.getByTestId('learner-message').filter({ hasText: freeTextAnswer })).toBeVisible();
  await expect(history.getByTestId('learner-message').filter({ hasText: shortPoint })).toBeVisible();
  // Nothing is pending any more.
  await expect(page.locator('[data-widget-id]')).toHaveCount(0);
});
