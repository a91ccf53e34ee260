/**
 * Issue 5 — assessments in the browser (SPEC §4.3), no API key. Every answer is worked out in
 * the test from the stem on screen, some are deliberately wrong, and the results must agree
 * with the test's own count: the score, each domain, and the per-item review — which, like
 * every correct answer, appears only once the assessment is over.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';
import { domainRow, expectNoAnswersRevealed, scoreLabel, startAssessment, waitForItem } from './support/assessment';
import { arithmeticAnswer, arithmeticSection, bytesNotCharactersSolution, countingSolution, countingTask, pythonLenAnswer } from './support/items';
import { choose, optionsOf, submitCode } from './support/session';

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');
const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** `name-1280.png` and `name-390.png` in e2e/screenshots/, `target` scrolled into view at each size. */
async function screenshots(page: Page, name: string, target: Locator): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(viewports[size]);
    await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${viewports[size].width}.png`) });
  }
  await page.setViewportSize(viewports.desktop);
}

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

// Issue 25 item 2: code items like an IDE's — run the visible examples first, then every test in the results.
test('PYTHON-STRINGS-L1: a code item’s examples run before it is submitted, and the results show every test of it', async ({ page }) => {
  test.slow(); // the first code run starts Pyodide in the server's sandbox thread
  await page.setViewportSize(viewports.desktop);
  await signUp(page, 'runner');
  await startAssessment(page, 'Python Strings — Level 1');

  const total = 6;
  let previousWidgetId: string | null = null;
  let item = await waitForItem(page, 1, total, null);
  while (item.kind === 'multiple_choice') {
    previousWidgetId = await item.widget.getAttribute('data-widget-id');
    await choose(item.widget, String(pythonLenAnswer(item.stem)));
    item = await waitForItem(page, item.position + 1, total, previousWidgetId, { timeout: 60_000 });
  }
  const firstCode = item;
  const task = countingTask(firstCode.stem);
  const widget = firstCode.widget;

  // The visible examples are listed with the task: the call and what it returns.
  const examples = widget.getByTestId('code-examples').getByRole('listitem');
  await expect(examples).toHaveCount(2);
  const exampleTexts = await examples.allInnerTexts();
  for (const text of exampleTexts) expect(text).toMatch(new RegExp(`^${task}\\(.*\\) returns \\d+$`, 'u'));

  // A first draft, run on the examples. The answer is held back 1.5 s, as a cold interpreter
  // would: meanwhile the button says it is running and counts the seconds.
  await page.route('**/run-examples', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const editor = widget.getByRole('textbox', { name: 'Code', exact: true });
  const parameters = task === 'count_char' ? 's: str, ch: str' : 's: str';
  await editor.fill(`def ${task}(${parameters}) -> int:\n    return -1\n`);
  const runButton = widget.getByRole('button', { name: 'Run examples' });
  await runButton.click();
  const running = widget.getByTestId('run-examples');
  await expect(running).toHaveAttribute('aria-busy', 'true');
  await expect(running).toContainText(/^Running… \d+\.\d s$/u);
  await expect(widget.getByTestId('run-summary')).toHaveText('Running your code on the examples…');
  await expect(widget.getByTestId('run-summary')).toContainText('0 of 2 examples pass.', { timeout: 30_000 });
  await expect(running).toHaveText('Run examples');
  const runRows = widget.getByTestId('run-results').getByTestId('test-case');
  await expect(runRows).toHaveCount(2);
  for (const [index, row] of (await runRows.all()).entries()) {
    await expect(row).toHaveAttribute('data-passed', 'false');
    await expect(row.getByTestId('test-case-actual')).toHaveText('-1');
    const [call, expected] = exampleTexts[index]!.split(' returns ');
    await expect(row).toContainText(call!);
    await expect(row.getByTestId('test-case-expected')).toHaveText(expected!);
  }
  await expect(widget.getByTestId('run-summary')).toContainText(/Not submitted · took \d+\.\d s$/u);
  await expectNoSeriousViolations(page, 'code item after a run of its examples');
  await screenshots(page, 'code-run-examples', widget.getByTestId('run-results'));
  await page.unroute('**/run-examples');

  // Not an answer: the same item is still pending, nothing moved on.
  await expect(page.getByTestId('assessment-item-counter')).toHaveText(`Item ${firstCode.position} of ${total}`);
  await expectNoAnswersRevealed(page);

  // The classic mistake of counting UTF-8 bytes passes the ASCII examples…
  await editor.fill(bytesNotCharactersSolution(task));
  await expect(widget.getByText('You changed your code since this run.')).toBeVisible();
  await runButton.click();
  await expect(widget.getByTestId('run-summary')).toContainText('2 of 2 examples pass.', { timeout: 30_000 });
  await expect(widget.getByTestId('run-results').getByTestId('test-case')).toHaveCount(2);
  await expect(widget.getByTestId('run-results').locator('[data-passed="true"]')).toHaveCount(2);
  // …and is submitted as it is; the others are written right.
  previousWidgetId = await widget.getAttribute('data-widget-id');
  await submitCode(widget, bytesNotCharactersSolution(task));
  for (let position = firstCode.position + 1; position <= total; position++) {
    const next = await waitForItem(page, position, total, previousWidgetId, { timeout: 60_000 });
    previousWidgetId = await next.widget.getAttribute('data-widget-id');
    await submitCode(next.widget, countingSolution(countingTask(next.stem)));
  }

  // The results: every test of the scored item, hidden ones included, with input, expected and actual.
  await expect(page.getByTestId('assessment-results')).toBeVisible({ timeout: 60_000 });
  const row = reviewRow(page, firstCode.position);
  const label = (await row.getByTestId('item-tests').innerText()).match(/^(\d+) of (\d+) tests passed/u);
  expect(label).not.toBeNull();
  const [passed, testCount] = [Number(label![1]), Number(label![2])];
  expect(passed).toBeGreaterThan(0);
  expect(passed).toBeLessThan(testCount);
  const cases = row.getByTestId('item-test-case');
  await expect(cases).toHaveCount(testCount);
  await expect(row.locator('[data-testid="item-test-case"][data-passed="true"]')).toHaveCount(passed);
  // The examples run before come first, tagged; the rest were hidden until now.
  await expect(row.getByTestId('item-test-cases').getByText('example', { exact: true })).toHaveCount(2);
  for (const [index, text] of exampleTexts.entries()) await expect(cases.nth(index)).toContainText(text.split(' returns ')[0]!);
  for (const testCase of await cases.all()) {
    await expect(testCase).toContainText(`${task}(`);
    const expected = Number(await testCase.getByTestId('test-case-expected').innerText());
    const actual = Number(await testCase.getByTestId('test-case-actual').innerText());
    expect(Number.isInteger(expected) && Number.isInteger(actual)).toBe(true);
    // Bytes: never fewer than characters, more exactly where something is not ASCII.
    await expect(testCase).toHaveAttribute('data-passed', String(actual === expected));
    expect(actual).toBeGreaterThanOrEqual(expected);
  }
  await expectNoSeriousViolations(page, 'results with every test of a code item');
  await screenshots(page, 'code-test-results', row.getByTestId('item-test-cases'));
});
