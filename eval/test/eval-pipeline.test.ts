/**
 * The evaluation pipeline end to end: the real server (offline tutor, temporary database,
 * started once for this file as a child process, the way `pnpm eval` starts one) driven
 * over HTTP + WebSocket by the programmatic entry, and the CLI itself as a process.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli';
import { runSuitesCommand, type RunCommandOptions } from '../src/commands/run-command';
import type { CommandIo } from '../src/console/console-output';
import { repositoryRoot, startLocalServer, type LocalServer } from '../src/protocol/local-server';
import { RunResult } from '../src/results/result-schema';

let server: LocalServer;
const work = mkdtempSync(path.join(tmpdir(), 'eval-pipeline-'));
const suites = path.join(repositoryRoot, 'eval', 'suites');

beforeAll(async () => {
  const started = await startLocalServer();
  if (!started.ok) throw new Error(started.error);
  server = started.value;
});
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

function recordingIo(): CommandIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (line) => out.push(line), stderr: (line) => err.push(line), interactive: false };
}

function options(overrides: Partial<RunCommandOptions>): RunCommandOptions {
  return {
    suites: [],
    url: server.url,
    // Registered by the first run, logged in by the others.
    username: 'eval-tester',
    password: 'correct horse battery',
    provider: 'offline',
    concurrency: 2,
    out: null,
    html: false,
    label: null,
    turnTimeoutSeconds: 20,
    progress: false,
    cwd: repositoryRoot,
    environment: {},
    ...overrides,
  };
}

describe('shipped suites against the offline tutor', () => {
  it('pass, and the JSON result and the Markdown + HTML reports are written', async () => {
    const io = recordingIo();
    const out = path.join(work, 'default');
    // The Python plan's code item is scored in the sandbox: on a busy machine that takes a while.
    const outcome = await runSuitesCommand(options({ out, html: true, label: 'baseline', turnTimeoutSeconds: 90 }), io);

    expect(io.err).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    const run = RunResult.parse(JSON.parse(readFileSync(path.join(out, 'result.json'), 'utf8')));
    expect(run.summary).toEqual({ cases: 20, passed: 20, failed: 0, notRun: 0 });
    expect(run.metadata).toMatchObject({ label: 'baseline', serverUrl: server.url, server: 'external', tutor: 'offline', concurrency: 2 });
    expect(run.metadata.suites.map((suite) => suite.file)).toEqual([
      'eval/suites/assessment-math.json',
      ...['carrying-and-borrowing', 'ipv4-subnetting', 'lifecycle', 'off-topic', 'python-strings', 'reply-length', 'unsafe'].map((name) => `eval/suites/learning-${name}.json`),
      'eval/suites/recall-basics.json',
      'eval/suites/widgets.json',
    ]);
    const assessment = run.cases.find((result) => result.suite === 'assessment-math-fundamentals')!;
    expect(assessment.outcome).toMatchObject({ completed: true, endReason: 'all_answered', recalledCount: 20, totalPoints: 20 });

    // Learning sessions: each shipped plan completed by a learner that answers right, with no API key.
    const learning = run.cases.filter((result) => result.sessionType === 'learning');
    expect(learning.map((result) => [result.suite, result.status, result.outcome.endReason])).toEqual([
      // Each shipped plan twice: the always-right learner and the natural one (issue 28).
      ['learning-carrying-and-borrowing', 'passed', 'plan_completed'],
      ['learning-carrying-and-borrowing', 'passed', 'plan_completed'],
      ['learning-ipv4-subnetting', 'passed', 'plan_completed'],
      ['learning-ipv4-subnetting', 'passed', 'plan_completed'],
      ['learning-lifecycle', 'passed', 'plan_completed'],
      ['learning-off-topic', 'passed', 'plan_completed'],
      ['learning-python-strings', 'passed', 'plan_completed'],
      ['learning-python-strings', 'passed', 'plan_completed'],
      ['learning-reply-length', 'passed', 'plan_completed'],
      ['learning-reply-length', 'passed', 'plan_completed'],
      ['learning-unsafe', 'passed', 'plan_completed'],
    ]);
    const ipv4 = learning.find((result) => result.suite === 'learning-ipv4-subnetting')!;
    expect(ipv4.outcome.learning?.stepsCovered).toBe(ipv4.outcome.learning?.totalSteps);
    expect(ipv4.turns.at(-1)).toMatchObject({ action: { type: 'chat', purpose: 'after_completion' }, status: 'completed', agents: { calls: ['post_completion:ok'] } });
    const quiet = learning.find((result) => result.case === 'quiet learner')!;
    expect(quiet.sessionChecks.find((check) => check.expectation === 'repliesShorterThan')).toMatchObject({ passed: true, seen: expect.stringMatching(/^\d+\.\d words here, \d+\.\d words there$/) });
    const lifecycle = learning.find((result) => result.suite === 'learning-lifecycle')!;
    expect(lifecycle.sessionChecks.find((check) => check.expectation === 'questionLifecycle')?.seen).toMatch(/^probe \(turn \d+\), hint \(turn \d+\), explain \(turn \d+\); the explanation gives/);

    const several = run.cases.find((result) => result.case === 'several points in one message')!;
    expect(several.outcome).toEqual({ learnerTurns: 2, completed: true, completedAtTurn: 2, endReason: 'all_recalled', recalledCount: 4, totalPoints: 4 });
    expect(several.turns.map((turn) => [turn.turn, turn.recalledCount, turn.newlyRecalled])).toEqual([
      [0, 0, []],
      [1, 2, ['Paris is the capital of France', 'Water boils at 100 degrees Celsius']],
      [2, 4, ['The Pacific is the largest ocean', 'Mitochondria produce ATP through oxidative phosphorylation']],
    ]);
    expect(several.turns.every((turn) => turn.totalMs !== null && turn.ttftMs !== null && turn.ttftMs <= turn.totalMs)).toBe(true);

    const choices = run.cases.find((result) => result.case === 'multiple choice after two misses')!;
    expect(choices.turns.map((turn) => [turn.action.type, turn.widgetPresented, turn.pendingWidget])).toEqual([
      ['opening', null, null],
      ['chat', null, null],
      ['chat', 'multiple_choice', 'multiple_choice'],
      ['chat', null, 'multiple_choice'],
      ['widget_answer', null, null],
    ]);

    const markdown = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(markdown).toContain('# tutorloop evaluation: baseline');
    expect(markdown).toContain('Result: 20 passed, 0 failed, 0 not run (20 cases).');
    expect(markdown).toMatch(/\| recall-basics \| several points in one message \| ✅ passed \| 4\/4 \| 2 \| 2 \| [\d.]+ m?s \| [\d.]+ m?s \| 0 \| — \|/);
    expect(markdown).toMatch(/\| widgets \| policy learner answers every widget \| ✅ passed \| 3\/3 \| 9 \| 9 \| .+ \| 0 \| multiple_choice \|/);
    expect(markdown).toContain('### widgets › free text for a long point — ✅ passed');
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('<h1>tutorloop evaluation: baseline</h1>');
    expect(io.out.at(-1)).toBe(`Reports: ${['result.json', 'report.md', 'report.html'].map((name) => path.join(out, name)).join(', ')}`);
  }, 180_000);

  it('reports a simulated learner without a key as not run, and passes', async () => {
    const io = recordingIo();
    const outcome = await runSuitesCommand(options({ suites: [path.join(suites, 'simulated')] }), io);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.result?.cases.map((result) => [result.status, result.reason])).toEqual([
      ['not_run', 'the simulated learner needs ANTHROPIC_API_KEY (and honours ANTHROPIC_BASE_URL); it is not set'],
    ]);
    expect(io.out).toContain('  - simulated-loose-phrasing › recalls with loose phrasing — not run: the simulated learner needs ANTHROPIC_API_KEY (and honours ANTHROPIC_BASE_URL); it is not set');
  });

  it('runs a simulated learner through the Messages API at ANTHROPIC_BASE_URL', async () => {
    // A stand-in for the Anthropic API on loopback: this "learner" knows everything at once.
    const fake = createServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ content: [{ type: 'text', text: 'Paris is the capital of France, water boils at 100 degrees Celsius, and the Pacific is the largest ocean.' }] }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const environment = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` };
      const outcome = await runSuitesCommand(options({ suites: [path.join(suites, 'simulated')], environment }), recordingIo());
      expect(outcome.exitCode).toBe(0);
      const [result] = outcome.result!.cases;
      expect(result).toMatchObject({ status: 'passed', learner: 'simulated (claude-haiku-4-5, at most 10 turns)' });
      expect(result?.outcome).toMatchObject({ completedAtTurn: 1, recalledCount: 3, totalPoints: 3 });
    } finally {
      await new Promise((resolve) => fake.close(resolve));
    }
  });
});

describe('a failing suite', () => {
  it('returns a failed result naming suite, case, turn, expected and seen', async () => {
    const io = recordingIo();
    const outcome = await runSuitesCommand(options({ suites: ['eval/suites/failing'], out: path.join(work, 'failing') }), io);
    expect(outcome.exitCode).toBe(1);
    const [result] = outcome.result!.cases;
    expect(result?.status).toBe('failed');
    expect(result?.failures).toEqual([
      {
        turn: 1,
        expectation: 'recalledAtLeast',
        expected: 'at least 1 recalled',
        seen: '0 of 3 recalled',
        message: 'expected-failure › a vague answer cannot recall › turn 1: recalledAtLeast — expected at least 1 recalled, saw 0 of 3 recalled',
      },
      {
        turn: null,
        expectation: 'completesWithinTurns',
        expected: 'session_complete by turn 1',
        seen: 'not completed after 1 turn',
        message: 'expected-failure › a vague answer cannot recall: completesWithinTurns — expected session_complete by turn 1, saw not completed after 1 turn',
      },
    ]);
    expect(io.out).toContain('  ✗ expected-failure › a vague answer cannot recall › turn 1: recalledAtLeast — expected at least 1 recalled, saw 0 of 3 recalled');
    expect(readFileSync(path.join(work, 'failing', 'report.md'), 'utf8')).toContain(
      '❌ recalledAtLeast: expected at least 1 recalled, saw 0 of 3 recalled',
    );
  });

  it('makes the CLI process exit non-zero with the message', async () => {
    const args = ['eval/suites/failing/expected-failure.json', '--url', server.url, '--username', 'eval-tester', '--password', 'correct horse battery', '--no-out'];
    const child = spawn(process.execPath, ['--import', 'tsx', 'eval/src/main.ts', ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, ANTHROPIC_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    expect(stdout).toContain(`Running 1 case from 1 suite against ${server.url} (concurrency 2)`);
    expect(stdout).toContain('✗ expected-failure › a vague answer cannot recall › turn 1: recalledAtLeast — expected at least 1 recalled, saw 0 of 3 recalled');
    expect(stdout).toMatch(/0 passed, 1 failed, 0 not run \(1 case\) in .+ — offline tutor at http:\/\/127\.0\.0\.1:\d+/);
  }, 60_000);
});

describe('the command line', () => {
  it('refuses an invalid suite with exit code 2, naming file and field', async () => {
    const file = path.join(work, 'broken.json');
    writeFileSync(file, JSON.stringify({ session: { type: 'assessment' }, cases: [{ name: 'x', learner: { type: 'scripted', turns: [] } }] }));
    const io = recordingIo();
    expect(await runCli([file, '--url', server.url], io, work)).toBe(2);
    expect(io.err).toEqual([
      'Invalid suites:\n  broken.json: session.blueprintId: Invalid input: expected string, received undefined\n  broken.json: cases[0].learner.turns: Too small: expected array to have >=1 items',
    ]);
  });

  it('compares two results side by side and writes compare.md', async () => {
    const io = recordingIo();
    const out = path.join(work, 'compare');
    const code = await runCli(['compare', path.join(work, 'default', 'result.json'), path.join(work, 'failing', 'result.json'), '--out', out], io, work);
    expect(code).toBe(0);
    const markdown = readFileSync(path.join(out, 'compare.md'), 'utf8');
    expect(io.out[0]).toBe(markdown);
    expect(markdown).toContain('| result file | default/result.json | failing/result.json |');
    expect(markdown).toContain('| label | baseline | — |');
    expect(markdown).toContain('| passed | 20/20 | 0/1 |');
    expect(markdown).toMatch(/\| recall-basics › one point per message \| ✅ passed \| — \| only in A \| 4 \| — \| [\d.]+ m?s \| — \| 0 \| — \|/);
    expect(markdown).toMatch(/\| expected-failure › a vague answer cannot recall \| — \| ❌ failed \| only in B \| — \| not completed \|/);
  });

  it('refuses a file that is not a result', async () => {
    const io = recordingIo();
    const suite = path.join(suites, 'widgets.json');
    expect(await runCli(['compare', suite, suite], io, repositoryRoot)).toBe(2);
    expect(io.err[0]).toBe('eval/suites/widgets.json: not an eval result (result.json): schemaVersion: Invalid input: expected 1');
  });
});
