/**
 * "One import request stalled every learner for seconds" (issue 22; SPEC §8: parsers of learner
 * input are linear — no super-linear regular expression on untrusted text). Each attack is a
 * text the importer's old regular expression backtracked on quadratically (or worse), sent
 * through the real route; while it is being parsed, a bystander asks `GET /api/health`. A
 * regular expression runs synchronously, so a slow one holds the whole event loop: the
 * bystander waited as long as the parse took (each test's comment gives the slowest bystander's
 * wait on the old code, on a busy two-core machine; with the fix it was 11–105 ms). `pnpm
 * lint:regex` is the standing check for the rest.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** Longest a bystander may wait while the attack is parsed. */
const bystanderBoundMs = 1000;

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

interface Outcome {
  status: number;
  body: unknown;
  /** The slowest bystander's wait, from when it meant to ask to its answer. */
  bystanderMs: number;
}

/**
 * Sends the attack and, a few milliseconds later, bystanders' health checks. The server runs
 * in this process, so a bystander whose timer is held up by a stalled event loop asks late: its
 * wait is counted from when it meant to ask, which is what a learner on another machine sees.
 */
async function attack(route: string, body: unknown): Promise<Outcome> {
  server = await startTestServer();
  const { token } = await server.register();
  // A first request pays for warming up; the figures are the parse's.
  await server.api('GET', '/api/health');
  const payload = JSON.stringify(body);
  const url = server.url;
  const started = performance.now();
  const sent = fetch(`${url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: payload });
  const bystanders = [5, 50, 250].map(
    (delayMs) =>
      new Promise<number>((resolve, reject) => {
        setTimeout(() => {
          fetch(`${url}/api/health`)
            .then(async (response) => {
              expect(response.status).toBe(200);
              await response.text();
              resolve(performance.now() - (started + delayMs));
            })
            .catch(reject);
        }, delayMs);
      }),
  );
  const response = await sent;
  const text = await response.text();
  const waits = await Promise.all(bystanders);
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, bystanderMs: Math.max(...waits) };
}

function plainError(message: string) {
  return { error: { code: 'invalid_payload', message } };
}

const frontMatter = [
  '---',
  'title: Finding the network address',
  'topic: IPv4 subnetting',
  'audience: first-year networking students',
  'objectives:',
  '  - Find the network address of a host',
  'teachingApproach: Binary first',
  '---',
  '',
].join('\n');

describe('recall-set Markdown import (POST /api/recall-sets/import)', () => {
  it('a long run of spaces between an item and its text does not stall other learners', async () => {
    // Old: /\s+(?:—|--|::)\s+/ (the context separator) tried every space as a start: 46 s.
    const outcome = await attack('/api/recall-sets/import', { format: 'markdown', text: `- a${' '.repeat(100_000)}b` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({
      status: 400,
      body: plainError('Markdown import: line 1: point is longer than 2000 characters. Write one point per "- " list item.'),
    });
  });

  it('a long run of spaces before a line separator (U+2028) in an item does not stall other learners', async () => {
    // Old: /^(?:[-*+]|\d+[.)])\s+…(.+)$/ traded the spaces between \s+ and .+: 11 s.
    const outcome = await attack('/api/recall-sets/import', { format: 'markdown', text: `-${' '.repeat(60_000)}x\u2028y` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({
      status: 400,
      body: plainError('Markdown import: no points found. Write one point per "- " list item.'),
    });
  });
});

describe('Anki text import (POST /api/recall-sets/import/preview)', () => {
  it('a long run of "<" in an HTML field does not stall other learners', async () => {
    // Old: /<[^>]*>/g scanned to the end from every "<": 45 s.
    const outcome = await attack('/api/recall-sets/import/preview', { format: 'anki_text', text: `#html:true\nfront\t${'<'.repeat(100_000)}` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('Anki text import: no notes to import (1 rows skipped).') });
  });

  it('a field of "<a<a<a…" (HTML sniffing) does not stall other learners', async () => {
    // Old: /<\/?[a-z][^>]*>|…/i, deciding whether a file is HTML, scanned to the end from every "<a": 12.6 s.
    const outcome = await attack('/api/recall-sets/import/preview', { format: 'anki_text', text: `front\t${'<a'.repeat(40_000)}` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('Anki text import: no notes to import (1 rows skipped).') });
  });

  it('an unclosed cloze followed by a long run of ":" does not stall other learners', async () => {
    // Old: /\{\{c\d+::([\s\S]*?)(?:::[\s\S]*?)?\}\}/g tried every split of the colons: 13.9 s.
    const outcome = await attack('/api/recall-sets/import/preview', { format: 'anki_text', text: `{{c1::${':'.repeat(150_000)}\tback` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('Anki text import: no notes to import (1 rows skipped).') });
  });

  it('a field of "[sound:[sound:…" does not stall other learners', async () => {
    // Old: /\[sound:[^\]]*\]/g scanned to the end from every "[sound:": 10 s.
    const outcome = await attack('/api/recall-sets/import/preview', { format: 'anki_text', text: `#html:true\nfront\t${'[sound:'.repeat(28_000)}` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('Anki text import: no notes to import (1 rows skipped).') });
  });

  it('a field of "<style<style…" does not stall other learners', async () => {
    // Old: /<(script|style)[^>]*>[\s\S]*?<\/\1>/gi scanned to the end from every "<style": 18 s.
    const outcome = await attack('/api/recall-sets/import/preview', { format: 'anki_text', text: `#html:true\nfront\t${'<style'.repeat(30_000)}` });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('Anki text import: no notes to import (1 rows skipped).') });
  });
});

describe('study-plan Markdown import (POST /api/study-plans/import)', () => {
  it('a long run of spaces inside a hint line does not stall other learners', async () => {
    // Old: /\s+$/ (trailing spaces of a hint line) tried every space as a start: 22 s.
    const text = `${frontMatter}## 1. explain: binary octets\n\na${' '.repeat(100_000)}b\n`;
    const outcome = await attack('/api/study-plans/import', { format: 'markdown', text });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError('steps.0.contentHint: is longer than 4000 characters (line 11)') });
  });

  it('a long run of spaces after "##" before a line separator (U+2028) does not stall other learners', async () => {
    // Old: /^##(?!#)\s*(.*)$/ (a step heading) traded the spaces between \s* and .*: 9.9 s.
    const text = `${frontMatter}##${' '.repeat(60_000)}x\u2028y\n## 1. explain: binary octets\n\nThe hint.\n`;
    const outcome = await attack('/api/study-plans/import', { format: 'markdown', text });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({
      status: 400,
      body: plainError('steps: text before the first step; a step starts with "## N. explain|check|practice: concept" (line 9)'),
    });
  });

  // Not a regular expression but the YAML parser: deep nesting in the front matter took 5 s
  // ("[" × 100,000) or ended the process out of memory ("- " × 20,000). Refused before parsing.
  it.each([
    ['flow brackets', '['.repeat(10_000), 'front matter: nests brackets more than 12 deep — a plan’s fields never do (line 2)'],
    ['compact list dashes', '- '.repeat(20_000), 'front matter: is longer than 16,384 characters — a plan’s fields are short; the explanations go in the steps below it (line 2)'],
    ['compact list dashes within the size limit', '- '.repeat(5_000), 'front matter: nests lists more than 12 deep — a plan’s fields never do (line 2)'],
  ])('front matter of deeply nested %s neither stalls nor ends the server', async (_name, front, message) => {
    const text = `---\n${front}\n---\n## 1. explain: binary octets\n\nThe hint.\n`;
    const outcome = await attack('/api/study-plans/import', { format: 'markdown', text });
    expect(outcome.bystanderMs).toBeLessThan(bystanderBoundMs);
    expect({ status: outcome.status, body: outcome.body }).toEqual({ status: 400, body: plainError(message) });
  });
});
