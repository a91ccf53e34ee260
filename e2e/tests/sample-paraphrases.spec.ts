/**
 * Issue 28 acceptance: the sample set accepts paraphrases — the learner's own words, not the
 * points' — with the offline tutor. The three answers below were written on 2026-11-27, before
 * the evaluator was reworked, by someone looking only at the sample set's points, and are not
 * to be edited to make the test pass.
 */
import { expect, test } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { say } from './support/session';

const paraphrases = [
  'Pulling a fact out of your own head makes it stick better than rereading it.',
  'Spacing your study sessions across several days helps you remember longer than cramming them all at once.',
  'If you never go over new information again, you lose most of it within a couple of days.',
];

test('the sample set accepts three paraphrases of its points', async ({ page }) => {
  await signUpToWelcome(page, 'paraphrase');
  await page.getByRole('button', { name: 'Try a sample set' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sample: how memory works');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);
  for (const [index, paraphrase] of paraphrases.entries()) {
    await say(page, paraphrase);
    if (index < paraphrases.length - 1) await expect(page.getByTestId('progress')).toHaveText(`${index + 1} of 3 recalled`);
  }
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
});
