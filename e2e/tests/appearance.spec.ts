/**
 * Issue 25, what was still open of the learner's experience:
 * - the code editor paints itself in the scheme the page is in: Settings' explicit Light or Dark
 *   wins over the device's `prefers-color-scheme`, as it does for the rest of the page;
 * - in the recall set editor, "Add point" is never under the sticky Cancel/Save bar, at 1280×800
 *   and on a 390×844 phone, however many points the set has.
 * Each is photographed at both sizes in both schemes (e2e/screenshots, gitignored) to be looked at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/auth';
import { createSetOverApi } from './support/api-sets';
import { missUntilCodeEditor, widgetPoints } from './support/widget-set';

const here = path.dirname(fileURLToPath(import.meta.url));
const screenshotDir = path.join(here, '..', 'screenshots');
const phone = { width: 390, height: 844 } as const;
const desktop = { width: 1280, height: 800 } as const;

/** Relative luminance (0 black … 1 white) of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [red, green, blue] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  return (0.2126 * (red ?? 0) + 0.7152 * (green ?? 0) + 0.0722 * (blue ?? 0)) / 255;
}

async function editorBackground(widget: Locator): Promise<number> {
  return luminance(await widget.locator('.cm-editor').evaluate((element) => getComputedStyle(element).backgroundColor));
}

async function chooseTheme(page: Page, label: 'System' | 'Light' | 'Dark'): Promise<void> {
  await page.goto('/#/settings');
  const radio = page.getByTestId('theme-switch').getByRole('radio', { name: label });
  await radio.check();
  await expect(radio).toBeChecked();
}

test('the code editor follows Light or Dark chosen in Settings, whatever the device prefers', async ({ page }) => {
  test.slow();
  await page.emulateMedia({ colorScheme: 'light' });
  await signUp(page, 'cmtheme');
  const row = await createSetOverApi(page, 'Strings', widgetPoints);

  // Dark chosen on a light device: the editor is dark like the page around it.
  await chooseTheme(page, 'Dark');
  await page.goto('/#/sets');
  await row.getByRole('button', { name: 'Start session' }).click();
  await expect(page.getByTestId('tutor-message').first()).toBeVisible();
  const sessionUrl = page.url();
  const widget = await missUntilCodeEditor(page);
  await expect(widget.locator('.code-mirror')).toHaveClass(/\bcm-theme-dark\b/);
  expect(await editorBackground(widget), 'a dark editor on a light device').toBeLessThan(0.3);
  mkdirSync(screenshotDir, { recursive: true });
  for (const size of [phone, desktop]) {
    await page.setViewportSize(size);
    await widget.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, `code-editor-${size.width}-dark.png`) });
  }

  // Light chosen on a dark device: the editor is light.
  await page.emulateMedia({ colorScheme: 'dark' });
  await chooseTheme(page, 'Light');
  await page.goto(sessionUrl);
  await expect(widget).toBeVisible();
  await expect(widget.locator('.code-mirror')).toHaveClass(/\bcm-theme-light\b/);
  expect(await editorBackground(widget), 'a light editor on a dark device').toBeGreaterThan(0.7);
  for (const size of [phone, desktop]) {
    await page.setViewportSize(size);
    await widget.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, `code-editor-${size.width}-light.png`) });
  }

  // System again: the editor follows the device, and changes with it.
  await chooseTheme(page, 'System');
  await page.goto(sessionUrl);
  await expect(widget.locator('.code-mirror')).toHaveClass(/\bcm-theme-dark\b/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(widget.locator('.code-mirror')).toHaveClass(/\bcm-theme-light\b/);
});

/** True when the middle of the element is the element itself (or inside it): nothing lies over it. */
async function isUncovered(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && element.contains(top);
  });
}

test('"Add point" is never under the sticky Save bar, at 1280×800 and on a 390×844 phone', async ({ page }) => {
  mkdirSync(screenshotDir, { recursive: true });
  await signUp(page, 'addpoint');
  for (const size of [desktop, phone]) {
    await page.setViewportSize(size);
    await page.goto('/#/sets');
    await page.getByRole('button', { name: 'New recall set' }).click();
    await expect(page.getByRole('heading', { name: 'New recall set', level: 1 })).toBeVisible();
    const addPoint = page.getByRole('button', { name: 'Add point' });
    const points = page.getByRole('textbox', { name: 'Point', exact: true });
    // From a new set's first look to a long list, without scrolling by hand.
    for (let count = 1; count <= 6; count += 1) {
      await expect(points).toHaveCount(count);
      await expect(addPoint).toBeInViewport();
      expect(await isUncovered(addPoint), `Add point uncovered with ${count} point(s) at ${size.width}`).toBe(true);
      await addPoint.click();
      // The new point takes the focus, in view and clear of the bar.
      await expect(points.nth(count)).toBeFocused();
      await expect(points.nth(count)).toBeInViewport();
      expect(await isUncovered(points.nth(count)), `the new point uncovered at ${size.width}`).toBe(true);
    }
    // Three buttons in the bar, and still nothing wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `overflow at ${size.width}`).toBeLessThanOrEqual(0);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: path.join(screenshotDir, `set-editor-${size.width}-${colorScheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
});

test('a chart shows no tooltip when the page loads; hovering shows the values, and the slider reads them out from the keyboard', async ({ page }) => {
  await signUp(page, 'tooltip');
  await createSetOverApi(page, 'Rivers', ['Rivers flow downhill to the sea', 'Deltas form where a river meets the sea']);
  await page.goto('/#/settings');
  const forecast = page.getByTestId('retention-forecast');
  await expect(forecast).toHaveAttribute('data-status', 'ready');
  await expect(forecast.locator('.recharts-line')).toBeVisible();
  const tooltip = forecast.locator('.recharts-tooltip-wrapper');
  // Loaded, nothing pointed at: no tooltip over the chart.
  await expect(tooltip.filter({ visible: true })).toHaveCount(0);

  // The pointer on the chart shows the values under it; leaving the chart hides them again.
  const surface = forecast.locator('.recharts-surface').first();
  const box = (await surface.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/^Desired retention \d+%/);
  await expect(tooltip).toContainText(/remember \d+% on an average day/);
  await page.mouse.move(1, 1);
  await expect(tooltip.filter({ visible: true })).toHaveCount(0);

  // From the keyboard the slider is the readout: each step moves the marker and the sentence.
  const summary = page.getByTestId('retention-forecast-summary');
  await expect(summary).toHaveText(/^At 90%: about [\d.]+ reviews a day over the next 90 days, and on an average day you would remember about \d+% of your 2 points\.$/);
  await page.getByRole('slider', { name: 'Desired retention' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(summary).toHaveText(/^At 91%: /);
  await expect(forecast.locator('.recharts-surface')).toContainText('91%');
  await expect(tooltip.filter({ visible: true })).toHaveCount(0);
});
