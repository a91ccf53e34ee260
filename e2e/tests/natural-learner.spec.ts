/**
 * Issue 28 in the browser, offline tutor, no API key: a learner who talks as people do — "ok",
 * "got it", "hmm no idea", a hedged "is it …?" — reaches the end of a shipped study plan; and
 * an imported Anki deck is reviewed by short answers to its fronts, with no cue that contains
 * an answer, whole or masked.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';
import { choose, optionsOf, pendingWidget, promptOf, say } from './support/session';
import { readPlan, workedAnswer } from './support/study-plans';

const here = path.dirname(fileURLToPath(import.meta.url));
const planTitle = 'Carrying and borrowing — two-digit addition and subtraction';

test('a learner who says "ok" and "got it" follows a shipped plan to the end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, 'natural');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Study plans' }).click();
  const card = page.getByTestId('study-plan').filter({ has: page.getByRole('heading', { name: planTitle, exact: true }) });
  const studyPlanId = await card.getAttribute('data-plan-id');
  if (!studyPlanId) throw new Error('the plan card has no data-plan-id');
  const { plan } = await readPlan(page, studyPlanId);
  await card.getByRole('link', { name: planTitle, exact: true }).click();
  await page.getByRole('button', { name: 'Start learning' }).click();
  await expect(page.getByTestId('tutor-message').first()).toContainText('Welcome');

  const acknowledgements = ['ok', 'got it', 'Okay, I follow. Please go on.', 'makes sense'];
  let said = 0;
  let stuckOnce = false;
  for (const step of plan.steps) {
    await expect(page.getByTestId('learning-step')).toHaveText(`Step ${step.number} of ${plan.steps.length}`);
    if (step.type === 'explain') {
      await say(page, acknowledgements[said++ % acknowledgements.length]!);
    } else if (step.type === 'check') {
      for (const question of step.questions) {
        await expect(page.getByTestId('tutor-message').last()).toContainText(question.question);
        if (!stuckOnce) {
          stuckOnce = true;
          await say(page, 'got it, next please');
          // Not an answer: the same question, no verdict, still open.
          await expect(page.getByTestId('tutor-message').last()).toContainText(question.question);
          await expect(page.getByTestId('tutor-message').last()).not.toContainText('Not quite');
          await say(page, 'hmm no idea');
          await expect(page.getByTestId('tutor-message').last()).toContainText('hint');
          await expect(page.getByTestId('tutor-message').last()).not.toHaveText(new RegExp(`(^|[^\\d\\w])${question.expectedAnswer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\d\\w]|$)`));
        }
        await say(page, `is it ${question.expectedAnswer}?`);
      }
    } else {
      for (let item = 1; item <= step.items; item++) {
        const widget = pendingWidget(page, 'multiple_choice');
        await expect(widget).toBeVisible();
        // A wrong pick, worked out: this learner does not ace the plan, so it ends with the last step
        // rather than offering the extra challenges an aced plan gets (learning.spec.ts covers those).
        const right = workedAnswer(await promptOf(widget));
        const wrong = (await optionsOf(widget)).find((option) => option !== right);
        await choose(widget, wrong!);
      }
    }
  }
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Plan complete' })).toBeVisible();
  // Nothing the learner said was taken for off-topic.
  await expect(page.getByTestId('tutor-message').filter({ hasText: 'outside what we’re doing' })).toHaveCount(0);
});

test('an imported Anki deck is reviewed by short answers to its fronts, and no cue holds an answer', async ({ page }) => {
  await signUp(page, 'cards');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByLabel('Format').selectOption('apkg');
  await page.getByLabel('Package file').setInputFiles(path.join(here, 'fixtures', 'capitals.apkg'));
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByTestId('import-confirm').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Capitals');
  await page.getByRole('button', { name: /Start session|Review early/ }).click();

  const answers: Record<string, string> = { 'Capital of Peru?': 'Lima', 'Capital of Chile?': 'Santiago' };
  const tutor = page.getByTestId('tutor-message');
  await expect(tutor.first()).toBeVisible();
  const answered = new Set<string>();
  for (let turn = 0; turn < 6; turn++) {
    if (await page.getByTestId('completion-screen').isVisible()) break;
    const cue = (await tutor.last().innerText()).trim();
    // A cue names the card's question, never the answer of a card still to recall — whole or
    // masked to its first letter (an answer just given may be quoted back).
    for (const answer of Object.values(answers).filter((candidate) => !answered.has(candidate))) {
      expect(cue).not.toContain(answer);
      expect(cue).not.toMatch(new RegExp(`\\b${answer[0]}_`));
    }
    const front = Object.keys(answers).find((question) => cue.includes(question));
    if (front) answered.add(answers[front]!);
    await say(page, front ? `it's ${answers[front]}` : 'Quito is the capital of Ecuador');
  }
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toContainText('3 of 3');
});
