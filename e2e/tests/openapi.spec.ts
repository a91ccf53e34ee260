/**
 * The API documentation page (SPEC §6: `GET /api/openapi.json` and a page that renders it) in
 * Chromium against the real server: every operation of the document is listed under its
 * section, one opens from the keyboard and shows its schema and example, and the page passes
 * the automated accessibility scan. The page loads nothing from outside the server.
 */
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';

interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { summary?: string }>>;
}

test('the docs page renders every operation of the OpenAPI document', async ({ page, request, baseURL }) => {
  const document = (await (await request.get('/api/openapi.json')).json()) as OpenApiDocument;
  const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
  expect(operations.length).toBeGreaterThan(30);

  const outside: string[] = [];
  page.on('request', (sent) => {
    if (!sent.url().startsWith(baseURL!)) outside.push(sent.url());
  });
  await page.goto('/api/docs');

  await expect(page.getByRole('heading', { level: 1, name: document.info.title })).toBeVisible();
  await expect(page.locator('main[data-ready="true"]')).toBeVisible();
  await expect(page.getByText(`version ${document.info.version}`)).toBeVisible();
  await expect(page.getByTestId('operation')).toHaveCount(operations.length);
  await expect(page.getByRole('heading', { level: 2, name: 'Progress' })).toBeVisible();

  // Open one operation from the keyboard: its response schema and the documented example.
  const stats = page.locator('[data-testid="operation"][data-method="get"][data-path="/api/sessions/stats"]');
  await expect(stats.locator('summary')).toContainText('/api/sessions/stats');
  await expect(stats.locator('summary')).toContainText('(needs a token)');
  await stats.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(stats).toHaveAttribute('open', '');
  const body = stats.getByLabel('200 body schema');
  await expect(body).toBeVisible();
  await expect(body).toContainText('ProgressStats {');
  await expect(body).toContainText('dueNext7Days: integer');
  await expect(stats.getByLabel('200 body example')).toContainText('"dueNext7Days": 6');

  // A route with a path parameter lists it.
  const replay = page.locator('[data-testid="operation"][data-method="get"][data-path="/api/sessions/{id}/replay"]');
  await replay.locator('summary').click();
  await expect(replay.getByRole('table')).toContainText('id');

  await expectNoSeriousViolations(page, 'the API docs page');
  expect(outside).toEqual([]);
});
