import { describe, expect, it } from 'vitest';
import { fixtureCase, fixtureFailedCase, fixtureRun } from '../results/test-fixtures';
import { compareReport } from './compare-report';
import { renderMarkdown } from './document';

describe('compare report', () => {
  it('puts the runs side by side and calls out regressions', () => {
    const a = fixtureRun([fixtureCase(), fixtureCase({ case: 'only in A' })], 'prompt v1');
    const b = fixtureRun([fixtureFailedCase(), fixtureCase({ case: 'only in B' })], 'prompt v2');
    const markdown = renderMarkdown(compareReport({ name: 'a/result.json', run: a }, { name: 'b/result.json', run: b }));
    expect(markdown).toContain('| result file | a/result.json | b/result.json |');
    expect(markdown).toContain('| label | prompt v1 | prompt v2 |');
    expect(markdown).toContain('| passed | 2/2 | 1/2 |');
    expect(markdown).toContain('| mean TTFT | 30 ms | 40 ms |');
    expect(markdown).toContain('| leaks | 0 | 1 |');
    expect(markdown).toContain('1 regression, 0 fixed, 3 cases compared.');
    expect(markdown).toContain('| basics › one at a time | ✅ passed | ❌ failed | ⬇ regression | 2 | not completed | 30 ms | 50 ms | 0 | 1 |');
    expect(markdown).toContain('| basics › only in A | ✅ passed | — | only in A | 2 | — | 30 ms | — | 0 | — |');
    expect(markdown).toContain('| basics › only in B | — | ✅ passed | only in B | — | 2 | — | 30 ms | — | 0 |');
    expect(markdown).toContain('## Regressions\n\n- basics › one at a time: basics › one at a time › turn 2: recalledExactly');
  });
});
