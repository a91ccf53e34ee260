/**
 * The automated accessibility scan of issue 18: axe-core in the page, WCAG 2.1 A and AA rules,
 * no serious or critical violation allowed, in the light and the dark scheme. A failure lists each
 * rule with the elements it hit, per scheme.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** One axe run over the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  return serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map((node) => `  ${node.target.join(' ')} — ${node.failureSummary?.replace(/\n/g, ' ') ?? ''}`)
        .join('\n')}`,
  );
}

/** Lets the page follow a changed colour scheme (a re-render of what listens to the media query) before a scan. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Scans the page as it is now (`label` names it in a failure) in the light and the dark colour
 * scheme (issue 25: the system's `prefers-color-scheme`, which the app follows unless the learner
 * chose Light or Dark in Settings), then puts back the scheme the page had.
 */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const wasDark = await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  const report: Record<string, string[]> = {};
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settle(page);
    report[colorScheme] = await seriousViolations(page);
  }
  await page.emulateMedia({ colorScheme: wasDark ? 'dark' : 'light' });
  await settle(page);
  expect(report, `accessibility violations on ${label}`).toEqual({ light: [], dark: [] });
}
