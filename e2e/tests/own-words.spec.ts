/**
 * Issue 28 — the offline tutor understands answers it has never seen. A new learner tries the
 * sample set and says each point in their own words, the way people do: other verbs, other
 * nouns, the clauses turned round. The three answers below were written on 2026-11-27 from the
 * sample set's wording alone, before this round's matcher changes were run against them, and
 * are not to be edited to make them pass: if one fails, the matcher is wrong, not the answer.
 */
import { expect, test } from '@playwright/test';
import { signUpToWelcome } from './support/auth';
import { say } from './support/session';

const inOwnWords = [
  'Pulling a fact out of your head makes the memory stronger than just rereading your notes.',
  'If you space your reviews across several days you remember for longer than if you cram them all at once.',
  'Most new things you learn are gone after a couple of days unless you go over them again.',
];

// Known to fail (issue 28 is open): on 2026-11-27 the offline evaluator recalled the second and the
// third answer but not the first ("pulling a fact out of your head" for "recalling something from
// memory"). `test.fail` keeps the test running, and turns it red the day all three are recalled,
// when the annotation is to go.
test('the sample set is recalled in the learner’s own words, one point per answer', async ({ page }) => {
  test.fail();
  test.slow();
  await signUpToWelcome(page, 'words');
  await page.getByRole('button', { name: 'Try a sample set' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sample: how memory works');
  await expect(page.getByTestId('progress')).toHaveText('0 of 3 recalled');
  await expect(page.getByTestId('typing-indicator')).toHaveCount(0);

  const progress: string[] = [];
  for (const answer of inOwnWords) {
    await say(page, answer);
    if (await page.getByTestId('completion-screen').isVisible()) break;
    progress.push(await page.getByTestId('progress').innerText());
  }
  test.info().annotations.push({ type: 'progress after each answer', description: progress.join(' → ') });
  await expect(page.getByTestId('completion-screen')).toBeVisible();
  await expect(page.getByTestId('completion-recalled')).toHaveText('You recalled 3 of 3 points');
});
