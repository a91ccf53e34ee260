/**
 * The automated accessibility scan of issue 18: axe-core in the page, WCAG 2.1 A and AA rules,
 * no serious or critical violation allowed. A failure lists each rule with the elements it hit.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Scans the page as it is now (`label` names it in a failure). */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map((node) => `  ${node.target.join(' ')} — ${node.failureSummary?.replace(/\n/g, ' ') ?? ''}`)
        .join('\n')}`,
  );
  expect(report, `accessibility violations on ${label}`).toEqual([]);
}
