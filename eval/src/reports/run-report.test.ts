import { describe, expect, it } from 'vitest';
import { fixtureCase, fixtureFailedCase, fixtureRun } from '../results/test-fixtures';
import { renderHtml, renderMarkdown } from './document';
import { runReport } from './run-report';

describe('run report', () => {
  it('renders metadata, the summary table, failures and per-turn rows as Markdown', () => {
    const notRun = fixtureCase({ case: 'simulated', status: 'not_run', reason: 'needs ANTHROPIC_API_KEY', turns: [], sessionChecks: [], sessionId: null });
    const markdown = renderMarkdown(runReport(fixtureRun([fixtureCase(), fixtureFailedCase(), notRun], 'prompt v2')));
    expect(markdown).toContain('# tutorloop evaluation: prompt v2');
    expect(markdown).toContain('| server | http://127.0.0.1:3000 (started by eval on a temporary database) |');
    expect(markdown).toContain('| tutor | offline (server 0.1.0) |');
    expect(markdown).toContain('Result: 1 passed, 1 failed, 1 not run (3 cases).');
    expect(markdown).toContain(
      '| suite | case | result | recalled | completed at turn | turns | mean TTFT | mean total | leaks | widgets |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n| basics | one at a time | ✅ passed | 2/2 | 2 | 2 | 30 ms | 100 ms | 0 | — |\n| basics | one at a time | ❌ failed | 1/2 | — | 2 | 50 ms | 110 ms | 1 | — |',
    );
    expect(markdown).toContain('## Failures\n\n- basics › one at a time › turn 2: recalledExactly — expected exactly 2 recalled, saw 1 of 2 recalled');
    expect(markdown).toContain('## Not run\n\n- basics › simulated: needs ANTHROPIC_API_KEY');
    // Pipes in text are escaped so the table keeps its columns; several lines become <br>.
    expect(markdown).toContain('| 0 | (opening) | Welcome! \\| Here is a keyword: “Paris”. | 0/2 | 20 ms | 80 ms | — | — | — |');
    expect(markdown).toContain(
      '| 2 | “Water boils at 100 degrees Celsius” | That is everything. | 2/2<br>+ “Water boils at 100 degrees Celsius” | 40 ms | 120 ms | — | — | ✅ recalledExactly: expected exactly 2 recalled, saw 2 of 2 recalled |',
    );
    expect(markdown).toContain('- Session: ✅ completesWithinTurns: expected session_complete by turn 2, saw completed at turn 2');
  });

  it('renders the same document as escaped HTML', () => {
    const html = renderHtml(runReport(fixtureRun([fixtureCase({ case: '<script>' })])), 'report');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<td>&lt;script&gt;</td>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<td>2/2<br>+ “Water boils at 100 degrees Celsius”</td>');
  });
});
