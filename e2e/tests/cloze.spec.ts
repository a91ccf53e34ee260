/**
 * Cloze drills (SPEC §4.6, issue 23 item 6) in a real Chromium, offline: a learner starts a drill
 * from the recall set page, answers one point right, one right at the second try and misses one,
 * reads the completion screen, and finds the three reviews in the set's schedule. The blanked
 * term is read from the learner's own points (the test made them), never from the app's code.
 * At 1280×800 and 390×844, with screenshots (CLOZE_SHOTS_DIR, default /tmp/pw-cloze-shots/) and
 * the accessibility scan in both colour schemes.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createSetOverApi } from './support/api-sets';
import { signUp } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { pendingWidget, promptOf, submitFreeText } from './support/session';

const shotsDir = process.env.CLOZE_SHOTS_DIR ?? '/tmp/pw-cloze-shots';
const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

const setName = 'Rivers and cells';
const points = [
  'The Danube flows through ten European countries',
  'Photosynthesis turns sunlight into chemical energy',
  'Mitochondria release energy stored in glucose',
];
// Nothing in the points above, nor a synonym of any of their words.
const wrongAnswers = ['banana', 'trumpet'];

async function shoot(page: Page, name: string, width: number): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The term a prompt blanked, found by matching the prompt against the set's own points: each
 * blank stands for one word (a point may lose the term more than once).
 */
function blankedTerm(prompt: string): { point: string; term: string } {
  const pattern = new RegExp(`^${prompt.split('_____').map(escapeRegExp).join('([\\p{L}\\p{N}-]+)')}$`, 'u');
  for (const point of points) {
    const match = pattern.exec(point);
    if (match?.[1]) return { point, term: match[1] };
  }
  throw new Error(`no point of the set reads as the prompt ${JSON.stringify(prompt)}`);
}

/** The free-text widget showing `context` ("Point 2 of 3", "Second try — point 2 of 3"), with the focus in its answer box. */
async function widgetAt(page: Page, context: string): Promise<Locator> {
  const widget = pendingWidget(page, 'free_text');
  await expect(widget.locator('.widget-context')).toHaveText(context);
  // Each new point (and its second try) takes the focus, so the learner can type at once.
  await expect(widget.getByRole('textbox', { name: 'Your answer' })).toBeFocused();
  return widget;
}

/** The schedule of the set page, by point: the card's state and when it is next due (ISO). */
async function scheduleOf(page: Page): Promise<Record<string, { state: string; due: string; shown: string }>> {
  const rows = page.getByTestId('schedule-row');
  await expect(rows).toHaveCount(points.length);
  const schedule: Record<string, { state: string; due: string; shown: string }> = {};
  for (const row of await rows.all()) {
    const content = (await row.getByRole('rowheader').innerText()).trim();
    const due = row.locator('.due-cell time');
    schedule[content] = {
      state: (await row.getAttribute('data-state')) ?? '',
      due: (await due.getAttribute('datetime')) ?? '',
      shown: (await due.innerText()).trim(),
    };
  }
  return schedule;
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('a learner drills a set from its page: right, right at the second try, missed; the schedule shows the reviews', async ({ page }) => {
      // Four pages scanned in two colour schemes: more than the default budget on a busy machine.
      test.slow();
      await signUp(page, 'cloze');
      const row = await createSetOverApi(page, setName, points);
      await row.getByRole('link', { name: setName }).first().click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(setName);
      const before = await scheduleOf(page);
      for (const point of points) expect(before[point]?.state, point).toBe('new');

      // The drill's button sits beside recall's own.
      const start = page.getByRole('button', { name: 'Cloze drill' });
      await expect(page.getByRole('button', { name: 'Start session' })).toBeVisible();
      await expect(start).toBeEnabled();
      await shoot(page, 'set-page', viewport.width);
      await expectNoSeriousViolations(page, 'recall set page');
      await start.click();

      await expect(page).toHaveURL(/#\/sessions\//);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(setName);
      const tutor = page.getByTestId('tutor-message');
      await expect(tutor.first()).toBeVisible();

      // Point 1: right at the first try.
      let widget = await widgetAt(page, 'Point 1 of 3');
      await expect(page.getByTestId('progress')).toHaveText('0 of 3');
      const first = blankedTerm(await promptOf(widget));
      await shoot(page, 'drill-first-point', viewport.width);
      await expectNoSeriousViolations(page, 'cloze drill, first point');
      await submitFreeText(widget, first.term);

      // Point 2: wrong, a hint, then right.
      widget = await widgetAt(page, 'Point 2 of 3');
      await expect(page.getByTestId('progress')).toHaveText('1 of 3');
      await expect(tutor.filter({ hasText: first.term })).not.toHaveCount(0);
      const second = blankedTerm(await promptOf(widget));
      await submitFreeText(widget, wrongAnswers[0]!);
      widget = await widgetAt(page, 'Second try — point 2 of 3');
      await expect(page.getByTestId('progress')).toHaveText('1 of 3 · second try');
      await expect(tutor.filter({ hasText: /one more try/i })).toHaveCount(1);
      // The hint gives the term's first letter and length, never the term itself.
      await expect(tutor.filter({ hasText: second.term })).toHaveCount(0);
      await shoot(page, 'drill-second-try', viewport.width);
      await submitFreeText(widget, second.term);

      // Point 3: wrong twice; the answer is then shown.
      widget = await widgetAt(page, 'Point 3 of 3');
      await expect(page.getByTestId('progress')).toHaveText('2 of 3');
      const third = blankedTerm(await promptOf(widget));
      await submitFreeText(widget, wrongAnswers[0]!);
      widget = await widgetAt(page, 'Second try — point 3 of 3');
      await expect(tutor.filter({ hasText: third.term })).toHaveCount(0);
      await submitFreeText(widget, wrongAnswers[1]!);

      // The completion screen: each point with its blank filled, the tries and the rating in words.
      const completion = page.getByTestId('completion-screen');
      await expect(completion).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Drill complete' })).toBeFocused();
      await expect(page.getByTestId('cloze-score')).toHaveText('2 of 3 points right');
      const results = page.getByTestId('cloze-result');
      await expect(results).toHaveCount(3);
      const expected = [
        { asked: first, rating: 'good', words: 'Good · right first time', given: `“${first.term}”` },
        { asked: second, rating: 'hard', words: 'Hard · right at the second try', given: `“${wrongAnswers[0]}”, then “${second.term}”` },
        { asked: third, rating: 'again', words: 'Again · missed', given: `“${wrongAnswers[0]}”, then “${wrongAnswers[1]}”` },
      ];
      for (const [index, { asked, rating, words, given }] of expected.entries()) {
        const result = results.nth(index);
        await expect(result).toHaveAttribute('data-rating', rating);
        await expect(result.locator('.cloze-sentence')).toHaveText(asked.point);
        await expect(result.getByTestId('cloze-term').first()).toHaveText(asked.term);
        await expect(result.getByTestId('cloze-given')).toHaveText(given);
        await expect(result.getByTestId('cloze-rating')).toContainText(words);
      }
      await shoot(page, 'completion', viewport.width);
      await expectNoSeriousViolations(page, 'cloze completion');

      // Back on the set page, each point was reviewed once: none is new, each has a new due date.
      await page.getByRole('button', { name: 'Back to the set' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(setName);
      const after = await scheduleOf(page);
      for (const point of points) {
        expect(after[point]?.state, point).not.toBe('new');
        expect(after[point]?.due, point).not.toBe(before[point]?.due);
      }
      // A point known at the first try is not due again at once.
      expect(after[first.point]?.shown).not.toBe('due now');
      await shoot(page, 'set-page-after', viewport.width);

      // The home page offers a drill too, under its first row.
      await page.goto('/#/');
      const card = page.getByTestId('cloze-card');
      await expect(card).toBeVisible();
      await expect(card.getByRole('button', { name: 'Start a drill' })).toBeEnabled();
      const cardBox = await card.boundingBox();
      for (const testId of ['due-today', 'streak', 'retention']) {
        const other = await page.getByTestId(testId).boundingBox();
        expect(other && cardBox && other.y + other.height <= cardBox.y, `${testId} is above the drill card`).toBe(true);
      }
      await shoot(page, 'home', viewport.width);
      await expectNoSeriousViolations(page, 'home with the drill card');
    });
  });
}
