/**
 * A recall set made over the REST API with the signed-in learner's own token — for specs
 * whose subject is not the set editor or the import page (those have their own specs).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { setRow } from './recall-sets';

/** Creates the set, reopens `#/sets` and returns its entry there. */
export async function createSetOverApi(page: Page, name: string, points: readonly string[]): Promise<Locator> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('tutorloop.auth') ?? '{}') as { token?: string }).token);
  const response = await page.request.post('/api/recall-sets', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, points: points.map((content) => ({ content })) },
  });
  expect(response.status()).toBe(201);
  await page.goto('/#/sets');
  // Already on #/sets, goto changes no document: reload so the list is fetched again.
  await page.reload();
  const row = setRow(page, name);
  await expect(row.getByTestId('point-count')).toHaveText(`${points.length} points`);
  return row;
}
