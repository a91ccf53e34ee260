/** Recall sets through the UI: the editor for a set typed by hand, the import page for Markdown. */
import { expect, type Locator, type Page } from '@playwright/test';

/** The set's entry on `#/sets`. */
export function setRow(page: Page, name: string): Locator {
  return page.getByTestId('recall-set').filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** Creates a set in the editor (from `#/sets`) and returns its entry in the list. */
export async function createSet(page: Page, name: string, points: readonly string[]): Promise<Locator> {
  await page.getByRole('button', { name: 'New recall set' }).click();
  await expect(page.getByRole('heading', { name: 'New recall set' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  // A new set starts with one empty row; each further point needs "Add point" first.
  for (const [index, content] of points.entries()) {
    if (index > 0) await page.getByRole('button', { name: 'Add point' }).click();
    await page.getByRole('textbox', { name: 'Point', exact: true }).nth(index).fill(content);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  const row = setRow(page, name);
  await expect(row.getByTestId('point-count')).toHaveText(`${points.length} points`);
  await expect(row.getByTestId('due-count')).toHaveText(`${points.length} due`);
  return row;
}

/** Imports a set from Markdown on the import page (from `#/sets`) and returns its entry in the list. */
export async function importMarkdown(page: Page, name: string, markdown: string, pointCount: number): Promise<Locator> {
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page).toHaveURL(/#\/import$/);
  await page.getByLabel('Format').selectOption('markdown');
  await page.getByLabel('Text', { exact: true }).fill(markdown);
  // A preview first (what will be created and skipped), then the import opens the new set.
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('import-preview-point')).toHaveCount(pointCount);
  await page.getByTestId('import-confirm').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.getByRole('link', { name: 'Recall sets', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Recall sets', exact: true })).toBeVisible();
  const row = setRow(page, name);
  await expect(row.getByTestId('point-count')).toHaveText(`${pointCount} points`);
  await expect(row.getByTestId('due-count')).toHaveText(`${pointCount} due`);
  return row;
}
