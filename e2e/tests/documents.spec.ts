/**
 * A recall set from a document in a real Chromium (issue 26, SPEC §4.7), at 1280×800 and
 * 390×844: a wrong file type is refused in plain words without losing the typed notes; a Markdown
 * file (chosen with the file input) and a Chromium-printed PDF are read by the real server, whose
 * proposals the learner edits, merges and drops before saving; the new set holds exactly the
 * edited points. A 300-page PDF shows the pages read ("Reading page 37 of 300") and is cancelled;
 * a damaged PDF gets the server's refusal. The PDF's points, two edited and one dropped, are saved
 * into the EXISTING Markdown set (a point it already holds is skipped and named), after leaving
 * with unsaved points asked first (a link in the app, and reloading the tab); then the set is
 * reviewed. Screenshots go to /tmp/pw-docs-shots/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { expectNoSeriousViolations } from './support/axe';

const here = path.dirname(fileURLToPath(import.meta.url));
const markdownFile = path.join(here, 'fixtures', 'volcano-notes.md');
const documentFixtures = path.join(here, '..', '..', 'server', 'test', 'fixtures', 'documents');
const pdfFile = path.join(documentFixtures, 'article.pdf');
const longPdfFile = path.join(documentFixtures, 'long-300-pages.pdf');
const brokenPdfFile = path.join(documentFixtures, 'broken.pdf');
const shotDir = '/tmp/pw-docs-shots';

/**
 * The first reading loads the server's document worker (PDF.js and the reader): seconds on an idle
 * machine, far longer on a busy shared one. A limit on waiting, not a timed assertion.
 */
const readingTimeoutMs = 150_000;

const viewports = [
  { label: '1280', size: { width: 1280, height: 800 } },
  { label: '390', size: { width: 390, height: 844 } },
] as const;

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: path.join(shotDir, `${name}.png`) });
}

async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${label}: page ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

/** The text of every proposal as it stands in its "To recall" box. */
async function proposalTexts(page: Page): Promise<string[]> {
  const boxes = page.getByTestId('proposal').getByLabel('To recall');
  const count = await boxes.count();
  const texts: string[] = [];
  for (let index = 0; index < count; index += 1) texts.push(await boxes.nth(index).inputValue());
  return texts;
}

function proposal(page: Page, index: number): Locator {
  return page.getByTestId('proposal').nth(index);
}

/** The saved set's page: its name, and its points as the schedule lists them. */
async function expectSavedSet(page: Page, name: string, points: string[]): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByTestId('schedule-row')).toHaveCount(points.length);
  const shown = await page.getByTestId('schedule-row').locator('th').allTextContents();
  expect(shown.map((text) => text.trim()).sort()).toEqual([...points].sort());
}

async function openFromDocument(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'From a document' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recall points from a document');
}

for (const { label, size } of viewports) {
  test(`${label} wide: a Markdown file and a PDF become sets after edits, a merge and drops`, async ({ page }) => {
    test.setTimeout(readingTimeoutMs * 3);
    await page.setViewportSize(size);
    await signUp(page, `docs${label}`);
    await openFromDocument(page);

    // A page copied from a website is pasted as its text; its HTML is what the server will read.
    const notes = page.getByLabel('Notes', { exact: true });
    await notes.evaluate((textarea) => {
      const clipboard = new DataTransfer();
      clipboard.setData('text/html', '<h2>Rain</h2><p>Rain is water that falls from clouds.</p>');
      clipboard.setData('text/plain', 'Rain\nRain is water that falls from clouds.');
      textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
    });
    await expect(notes).toHaveValue('Rain\nRain is water that falls from clouds.');
    await expect(page.getByText('Pasted from a web page: its headings are kept')).toBeVisible();

    // A wrong type, picked or dropped: refused in plain words, the notes already typed are kept.
    await notes.fill('My own notes, typed before choosing a file.');
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['not a document'], 'report.docx'));
      return transfer;
    });
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await expect(page.getByTestId('document-problem')).toHaveText('“report.docx” is not a document this page reads. Choose a PDF, a Markdown (.md), text (.txt) or HTML file.');
    await page.getByLabel('Choose a file, or drop it here').setInputFiles({ name: 'slides.pptx', mimeType: 'application/vnd.ms-powerpoint', buffer: Buffer.from('not a document') });
    await expect(page.getByTestId('document-problem')).toHaveText('“slides.pptx” is not a document this page reads. Choose a PDF, a Markdown (.md), text (.txt) or HTML file.');
    await expect(notes).toHaveValue('My own notes, typed before choosing a file.');
    await expectNoHorizontalOverflow(page, 'wrong type');
    await shoot(page, `choose-error-${label}`);
    await expectNoSeriousViolations(page, `document import, wrong type, ${label}`);

    // Markdown by the file input.
    await page.getByLabel('Choose a file, or drop it here').setInputFiles(markdownFile);
    await expect(page.getByRole('heading', { name: 'Proposed points' })).toBeVisible({ timeout: readingTimeoutMs });
    await expect(page.getByTestId('document-summary')).toContainText('proposed from “volcano-notes.md”');
    await expect(page.getByLabel('Name of the set')).toHaveValue('volcano notes');
    const markdownProposals = await proposalTexts(page);
    expect(markdownProposals.length, `proposals: ${JSON.stringify(markdownProposals)}`).toBeGreaterThanOrEqual(4);
    // Each proposal quotes its passage under the heading it came from.
    await expect(proposal(page, 0).getByTestId('proposal-source')).toContainText(/Volcanoes|Magma and lava|Eruptions|Kinds of volcano/);
    await expectNoHorizontalOverflow(page, 'markdown proposals');
    await shoot(page, `review-markdown-${label}`);

    // Edit the first, merge the second with the third, drop the last; then save.
    const edited = 'A volcano is an opening in the crust where molten rock escapes.';
    await proposal(page, 0).getByLabel('To recall').fill(edited);
    await proposal(page, 1).getByRole('button', { name: 'Merge with next' }).click();
    const last = markdownProposals.length - 2;
    await proposal(page, last).getByRole('button', { name: 'Drop', exact: true }).click();
    await expect(page.getByTestId('undo-bar')).toBeVisible();
    await expect(page.getByTestId('proposal')).toHaveCount(markdownProposals.length - 2);
    const markdownSaved = [edited, `${markdownProposals[1]} ${markdownProposals[2]}`, ...markdownProposals.slice(3, -1)];
    expect(await proposalTexts(page)).toEqual(markdownSaved);
    await page.getByLabel('Name of the set').fill(`Volcanoes ${label}`);
    await expectNoSeriousViolations(page, `document import, proposals, ${label}`);
    await page.getByRole('button', { name: /^Save set/ }).click();
    await expectSavedSet(page, `Volcanoes ${label}`, markdownSaved);

    // A 300-page PDF: the pages read as the server reads them, then cancelled.
    await page.goto('/#/sets');
    await openFromDocument(page);
    await page.getByLabel('Choose a file, or drop it here').setInputFiles(longPdfFile);
    await expect(page.getByRole('heading', { name: 'Reading “long-300-pages.pdf”' })).toBeVisible();
    await expect(page.getByTestId('document-status')).toHaveText('Reading “long-300-pages.pdf”…');
    // Pages go by fast; choosing the points after them takes longer: either shows how far the reading is.
    await expect(page.getByTestId('document-pages')).toHaveText(/^(Reading page \d+ of 300|All 300 pages read; choosing the points)$/u, { timeout: readingTimeoutMs });
    await expect(page.getByTestId('document-progress')).toHaveAttribute('max', '300');
    await expectNoHorizontalOverflow(page, 'reading');
    await shoot(page, `reading-${label}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, `reading-dark-${label}`);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('document-status')).toHaveText('Reading cancelled. Nothing was saved.');
    await expect(page.getByLabel('Choose a file, or drop it here')).toBeFocused();

    // A damaged PDF: the server's refusal, in its words, and the page ready for another file.
    await page.getByLabel('Choose a file, or drop it here').setInputFiles(brokenPdfFile);
    await expect(page.getByTestId('document-problem')).toContainText('Could not read “broken.pdf”. This file', { timeout: readingTimeoutMs });

    await page.getByLabel('Choose a file, or drop it here').setInputFiles(pdfFile);
    await expect(page.getByRole('heading', { name: 'Proposed points' })).toBeVisible({ timeout: readingTimeoutMs });
    await expect(page.getByTestId('document-summary')).toContainText('(3 pages read)');
    const pdfProposals = await proposalTexts(page);
    expect(pdfProposals.length, `proposals: ${JSON.stringify(pdfProposals)}`).toBeGreaterThanOrEqual(5);
    await expect(proposal(page, 0).getByTestId('proposal-source')).toContainText('Page 1');
    await shoot(page, `review-pdf-${label}`);

    // Two edits, one drop, and one point the set already holds.
    await proposal(page, 0).getByLabel('To recall').fill('The water cycle moves water between oceans, air and land.');
    await proposal(page, 2).getByLabel('To recall').fill('Evaporation turns liquid water into vapour.');
    await proposal(page, 1).getByRole('button', { name: 'Drop', exact: true }).click();
    await page.getByRole('button', { name: 'Add a point' }).click();
    await page.getByTestId('proposal').last().getByLabel('To recall').fill(edited);
    const pdfSaved = ['The water cycle moves water between oceans, air and land.', 'Evaporation turns liquid water into vapour.', ...pdfProposals.slice(3)];
    expect(await proposalTexts(page)).toEqual([...pdfSaved, edited]);

    // Leaving with unsaved points asks first: a link in the app (stay), then reloading the tab (stay).
    await page.getByRole('link', { name: 'tutorloop: home' }).click();
    const leaveDialog = page.getByRole('dialog', { name: 'Leave without saving these points?' });
    await expect(leaveDialog).toBeVisible();
    await shoot(page, `leave-asks-${label}`);
    await leaveDialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await expect(page).toHaveURL(/#\/sets\/from-document$/u);
    const unloadDialog = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    void page.evaluate(() => window.location.reload()).catch(() => {});
    expect(await unloadDialog).toBe('beforeunload');
    expect(await proposalTexts(page)).toEqual([...pdfSaved, edited]);

    // Into the existing set.
    await page.getByRole('radio', { name: 'One of my sets' }).check();
    await page.getByLabel('Set to add the points to').selectOption({ label: `Volcanoes ${label} (${markdownSaved.length} points)` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoHorizontalOverflow(page, 'proposals with the undo bar');
    await shoot(page, `review-pdf-dark-${label}`);
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(page, `review-pdf-existing-${label}`);
    await expectNoSeriousViolations(page, `document import, into an existing set, ${label}`);
    await page.getByRole('button', { name: /^Save into set/ }).click();
    await expect(page.getByRole('heading', { name: `${pdfSaved.length} points added to “Volcanoes ${label}”` })).toBeVisible();
    await expect(page.getByTestId('document-saved-summary')).toHaveText(`The set now holds ${markdownSaved.length + pdfSaved.length} points. One point was already in it and skipped:`);
    await expect(page.getByTestId('document-skipped')).toHaveText(edited);
    await shoot(page, `saved-into-existing-${label}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, `saved-into-existing-dark-${label}`);
    await page.emulateMedia({ colorScheme: 'light' });
    await expectNoSeriousViolations(page, `document import, saved, ${label}`);
    // Saved: nothing left to lose, so leaving asks nothing.
    await page.getByRole('button', { name: 'Open the set' }).click();
    await expectSavedSet(page, `Volcanoes ${label}`, [...markdownSaved, ...pdfSaved]);
    await shoot(page, `saved-${label}`);

    // Review the set.
    await page.getByRole('button', { name: /^(Start session|Review early)$/u }).click();
    await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  });
}
