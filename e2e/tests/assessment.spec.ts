/**
 * Issue 5 — assessments in the browser (SPEC §4.3), no API key. Every answer is worked out in
 * the test from the stem on screen, some are deliberately wrong, and the results must agree
 * with the test's own count: the score, each domain, and the per-item review — which, like
 * every correct answer, appears only once the assessment is over.
 */
import { expect, test, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { domainRow, expectNoAnswersRevealed, scoreLabel, startAssessment, waitForItem } from './support/assessment';
import { arithmeticAnswer, arithmeticSection, bytesNotCharactersSolution, countingSolution, countingTask, pythonLenAnswer } from './support/items';
import { choose, optionsOf, submitCode } from './support/session';

interface Answered {
  position: number;
  section: string;
  given: string;
  correct: string;
  /** Share of the item's point earned, as the test expects it. */
  credit: number;
}

/** The review row of one item on the results screen. */
function reviewRow(page: Page, position: number) {
  return page.getByTestId('item-review-row').and(page.locator(`[data-position="${position}"]`));
}

test('MATH-FUNDAMENTALS-L1: twenty items answered in the browser, some wrong, scored per domain', async ({ page }) => {
  await signUp(page, 'math');
  await startAssessment(page, 'Mathematics Fundamentals — Level 1');
  await expect(page.getByTestId('assessment-countdown')).toHaveText(/^(30:00|29:\d\d)$/);
  await expect(page.getByTestId('progress')).toHaveCount(0);

  const total = 20;
  // One in each of three domains and a second in one of them: 16 / 20.
  const wrongPositions = new Set([3, 8, 9, 17]);
  const answered: Answered[] = [];
  let previousWidgetId: string | null = null;
  for (let position = 1; position <= total; position++) {
    const item = await waitForItem(page, position, total, previousWidgetId);
    expect(item.kind).toBe('multiple_choice');
    if (position === 1 || position === 10 || position === total) await expectNoAnswersRevealed(page);

    const correct = String(arithmeticAnswer(item.stem));
    expect(item.section, item.stem).toBe(arithmeticSection(item.stem));
    const options = await optionsOf(item.widget);
    expect(options, item.stem).toContain(correct);
    expect(new Set(options).size).toBe(options.length);
    const given = wrongPositions.has(position) ? options.find((option) => option !== correct)! : correct;

    previousWidgetId = await item.widget.getAttribute('data-widget-id');
    await choose(item.widget, given);
    answered.push({ position, section: item.section, given, correct, credit: given === correct ? 1 : 0 });
  }

  const results = page.getByTestId('assessment-results');
  await expect(results).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Assessment complete' })).toBeVisible();
  const score = answered.reduce((sum, item) => sum + item.credit, 0);
  expect(score).toBe(16);
  await expect(page.getByTestId('assessment-score')).toHaveText(scoreLabel(score, total));
  await expect(page.getByTestId('assessment-answered')).toHaveText('20 of 20 items answered');

  // Per domain: the chart and the table, four domains of five items, each scored as counted here.
  await expect(page.getByTestId('domain-chart')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Score per domain, as a share of the points available' })).toBeVisible();
  await expect(page.getByTestId('domain-row')).toHaveCount(4);
  for (const domain of ['Addition', 'Subtraction', 'Multiplication', 'Division']) {
    const items = answered.filter((item) => item.section === domain);
    expect(items, domain).toHaveLength(5);
    const domainScore = items.reduce((sum, item) => sum + item.credit, 0);
    const cells = domainRow(page, domain).getByRole('cell');
    await expect(cells.nth(0)).toHaveText(`${domainScore} / 5`);
    await expect(cells.nth(1)).toHaveText(`${domainScore * 20}%`);
    await expect(cells.nth(2)).toHaveText(/^[+−-]?\d+\.\d\d ± \d+\.\d\d$/u);
  }
  await expect(page.getByTestId('overall-ability')).toHaveText(/^[+−-]?\d+\.\d\d ± \d+\.\d\d$/u);

  // Per item, in order: the learner's answer, the correct one, the outcome.
  await expect(page.getByTestId('item-review-row')).toHaveCount(total);
  for (const item of answered) {
    const row = reviewRow(page, item.position);
    await expect(row).toHaveAttribute('data-outcome', item.credit === 1 ? 'correct' : 'incorrect');
    await expect(row.getByTestId('item-credit')).toContainText(item.credit === 1 ? 'Correct' : 'Incorrect');
    await expect(row.getByTestId('item-your-answer')).toHaveText(item.given);
    await expect(row.getByTestId('item-correct-answer')).toHaveText(item.correct);
  }

  // The results are the same when the finished assessment is opened again.
  await page.reload();
  await expect(page.getByTestId('assessment-score')).toHaveText(scoreLabel(score, total));
  await expect(page.getByTestId('item-review-row')).toHaveCount(total);
});

test('PYTHON-STRINGS-L1: len() questions and functions written in the code editor, one only partly right', async ({ page }) => {
  test.slow(); // the first code run starts Pyodide in the server's sandbox thread
  await signUp(page, 'python');
  await startAssessment(page, 'Python Strings — Level 1');

  const total = 6;
  const answered: Answered[] = [];
  const codeRows: Array<{ position: number; wrong: boolean }> = [];
  let previousWidgetId: string | null = null;
  for (let position = 1; position <= total; position++) {
    // Scoring code runs its tests in the sandbox before the next item comes.
    const item = await waitForItem(page, position, total, previousWidgetId, { timeout: 60_000 });
    await expectNoAnswersRevealed(page);
    previousWidgetId = await item.widget.getAttribute('data-widget-id');

    if (item.kind === 'multiple_choice') {
      const correct = String(pythonLenAnswer(item.stem));
      expect(await optionsOf(item.widget), item.stem).toContain(correct);
      await choose(item.widget, correct);
      answered.push({ position, section: item.section, given: correct, correct, credit: 1 });
      continue;
    }

    const task = countingTask(item.stem);
    await expect(item.widget.getByTestId('code-language')).toHaveText('Python');
    await expect(item.widget.getByRole('textbox', { name: 'Code', exact: true })).toContainText(`def ${task}(`);
    // The first function is written the classic wrong way (UTF-8 bytes for characters).
    const wrong = codeRows.length === 0;
    const code = wrong ? bytesNotCharactersSolution(task) : countingSolution(task);
    await submitCode(item.widget, code);
    codeRows.push({ position, wrong });
  }
  expect(answered).toHaveLength(3);
  expect(codeRows).toHaveLength(3);

  await expect(page.getByTestId('assessment-results')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('assessment-answered')).toHaveText('6 of 6 items answered');

  let codeScore = 0;
  for (const { position, wrong } of codeRows) {
    const row = reviewRow(page, position);
    const tests = (await row.getByTestId('item-tests').innerText()).match(/^(\d+) of (\d+) tests passed/u);
    expect(tests, `item ${position}`).not.toBeNull();
    const [passed, testCount] = [Number(tests![1]), Number(tests![2])];
    expect(testCount).toBeGreaterThanOrEqual(5);
    if (wrong) {
      // Right on the empty string and ASCII, wrong on accents and emoji.
      expect(passed).toBeGreaterThan(0);
      expect(passed).toBeLessThan(testCount);
      await expect(row).toHaveAttribute('data-outcome', 'partial');
      await expect(row.getByTestId('item-credit')).toContainText(`Partial credit — ${Math.round((passed / testCount) * 100)}%`);
    } else {
      expect(passed).toBe(testCount);
      await expect(row).toHaveAttribute('data-outcome', 'correct');
      await expect(row.getByTestId('item-credit')).toContainText('Correct');
    }
    await expect(row.getByTestId('item-your-answer').locator('pre')).toContainText('def ');
    codeScore += passed / testCount;
  }
  for (const item of answered) {
    const row = reviewRow(page, item.position);
    await expect(row).toHaveAttribute('data-outcome', 'correct');
    await expect(row.getByTestId('item-correct-answer')).toHaveText(item.correct);
  }

  await expect(page.getByTestId('assessment-score')).toHaveText(scoreLabel(3 + codeScore, total));
  await expect(page.getByTestId('domain-row')).toHaveCount(2);
  await expect(domainRow(page, 'Reading code').getByRole('cell').first()).toHaveText('3 / 3');
  await expect(domainRow(page, 'Writing code').getByRole('cell').first()).toHaveText(`${Math.round(codeScore * 10) / 10} / 3`);
});

test('ended early: the results count the answered items out of all the assessment’s items', async ({ page }) => {
  await signUp(page, 'early');
  await startAssessment(page, 'Mathematics Fundamentals — Level 1');
  const item = await waitForItem(page, 1, 20, null);
  await choose(item.widget, String(arithmeticAnswer(item.stem)));
  await expect(page.getByTestId('assessment-item-counter')).toHaveText('Item 2 of 20');
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('assessment-score')).toHaveText(scoreLabel(1, 20));
  await expect(page.getByTestId('assessment-results')).toContainText('You ended this assessment early');
  // Rendered with the score in one go: read once, so the expected failure costs no timeout.
  expect(await page.getByTestId('assessment-answered').innerText()).toBe('1 of 20 items answered');
});
