import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../protocol/local-server';
import { loadSuites, parseSuite } from './load-suites';

const session = { type: 'recall', recallSet: { name: 'Set', points: [{ content: 'Paris is the capital of France' }] } };
const valid = { name: 'ok', session, cases: [{ name: 'one', learner: { type: 'scripted', turns: [{ say: 'Paris' }] } }] };

function errorsOf(suite: unknown): string[] {
  const parsed = parseSuite('eval/suites/bad.json', JSON.stringify(suite));
  return parsed.ok ? [] : parsed.errors;
}

describe('suite validation', () => {
  it('accepts a valid suite and gives every case its session', () => {
    const parsed = parseSuite('eval/suites/ok.json', JSON.stringify(valid));
    expect(parsed.ok && parsed.value).toEqual({ name: 'ok', file: 'eval/suites/ok.json', cases: [{ ...valid.cases[0], session }] });
  });

  it('names the file and the field of each problem', () => {
    expect(errorsOf({ ...valid, cases: [{ name: 'one', learner: { type: 'scripted', turns: [{ say: 5, expect: { recalledAtleast: 1 } }] } }] })).toEqual([
      'eval/suites/bad.json: cases[0].learner.turns[0].say: Invalid input: expected string, received number',
      'eval/suites/bad.json: cases[0].learner.turns[0].expect: Unrecognized key: "recalledAtleast"',
    ]);
    expect(errorsOf({ ...valid, cases: [{ name: 'one', learner: { type: 'robot' } }] })).toEqual([
      "eval/suites/bad.json: cases[0].learner.type: Invalid discriminator value. Expected 'scripted' | 'policy' | 'simulated' | 'learning'",
    ]);
    expect(errorsOf({ ...valid, cases: [{ name: 'one', learner: { type: 'policy', say: ['hm'], widgets: [{ answer: 'guess' }], maxTurns: 0 } }] })).toEqual([
      "eval/suites/bad.json: cases[0].learner.widgets[0].answer: Invalid discriminator value. Expected 'first' | 'index' | 'match' | 'text' | 'code' | 'skip'",
      'eval/suites/bad.json: cases[0].learner.maxTurns: Too small: expected number to be >=1',
    ]);
  });

  it('explains the rules zod cannot express as types', () => {
    expect(errorsOf({ cases: [{ name: 'a', learner: { type: 'scripted', turns: [{ say: 'x', widget: { answer: 'first' } }] } }, { name: 'a', session, learner: valid.cases[0]!.learner }] })).toEqual([
      'eval/suites/bad.json: cases[0].learner.turns[0]: a turn needs exactly one of "say" (a chat message) or "widget" (a widget answer rule)',
      'eval/suites/bad.json: cases[0].session: no session: give the suite or this case a "session"',
      'eval/suites/bad.json: cases[1].name: duplicate case name "a"',
    ]);
    expect(errorsOf({ ...valid, session: { type: 'recall' } })).toEqual(['eval/suites/bad.json: session: a recall session needs exactly one of "recallSet" or "import"']);
  });

  it('reports invalid JSON with the file name', () => {
    const parsed = parseSuite('eval/suites/bad.json', '{ "name": ');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]).toMatch(/^eval\/suites\/bad\.json: not valid JSON: /);
  });
});

describe('loading suite files', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'eval-suites-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads the *.json files directly in a folder, not its subfolders', () => {
    writeFileSync(path.join(folder, 'b.json'), JSON.stringify({ ...valid, name: 'b' }));
    writeFileSync(path.join(folder, 'a.json'), JSON.stringify({ ...valid, name: undefined }));
    mkdirSync(path.join(folder, 'failing'));
    writeFileSync(path.join(folder, 'failing', 'c.json'), '{}');
    const loaded = loadSuites([folder], folder);
    expect(loaded.ok && loaded.value.map((suite) => [suite.name, suite.file])).toEqual([
      ['a', 'a.json'],
      ['b', 'b.json'],
    ]);
  });

  it('refuses a missing path and a suite name used twice', () => {
    expect(loadSuites(['nope.json'], folder)).toEqual({ ok: false, errors: ['nope.json: no such file or folder'] });
    writeFileSync(path.join(folder, 'twin.json'), JSON.stringify({ ...valid, name: 'b' }));
    expect(loadSuites(['b.json', 'twin.json'], folder)).toEqual({ ok: false, errors: ['twin.json: name: suite name "b" is also used by b.json'] });
  });

  it('every shipped suite is valid, and the default set leaves out failing/', () => {
    const suites = path.join(repositoryRoot, 'eval', 'suites');
    const all = loadSuites([suites, ...['failing', 'simulated'].map((name) => path.join(suites, name))], repositoryRoot);
    expect(all.ok).toBe(true);
    const defaults = loadSuites([suites], repositoryRoot);
    expect(defaults.ok && defaults.value.map((suite) => suite.name)).toEqual([
      'assessment-math-fundamentals',
      'learning-carrying-and-borrowing',
      'learning-ipv4-subnetting',
      'learning-lifecycle',
      'learning-off-topic',
      'learning-python-strings',
      'learning-reply-length',
      'learning-unsafe',
      'recall-basics',
      'widgets',
    ]);
  });
});
