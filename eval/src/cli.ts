/**
 * The `pnpm eval` command line (commander): running suites (the program's own action),
 * `compare` and `validate`. `runCli` returns the exit code instead of exiting, so tests can call it.
 */
import { providerSettings } from '@tutorloop/shared';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { compareCommand } from './commands/compare-command';
import { labelledCommand } from './commands/labelled-command';
import { defaultOutFolder, defaultSuitesFolder, ExitCodes, runSuitesCommand } from './commands/run-command';
import { processIo, type CommandIo } from './console/console-output';
import { ApiClient, describeApiFailure } from './protocol/api-client';
import type { TutorProvider } from './protocol/local-server';
import { plural } from './reports/format';
import { loadSuites } from './suites/load-suites';

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a whole number ≥ 1');
  return parsed;
}

interface RunFlags {
  url?: string;
  username?: string;
  password?: string;
  provider: TutorProvider;
  concurrency: number;
  out: string | false;
  html?: boolean;
  label?: string;
  turnTimeout: number;
  case?: string;
  progress: boolean;
}

/** Null when the server at `url` reports `provider` in `GET /api/health`, else why not. */
async function checkServerProvider(url: string, provider: TutorProvider): Promise<string | null> {
  const health = await new ApiClient(url, null, 10_000).health();
  if (!health.ok) return `the server at ${url} is not answering: ${describeApiFailure(health.error)}`;
  if (health.value.tutor !== provider) return `--provider ${provider}: the server at ${url} runs the ${health.value.tutor} provider (GET /api/health)`;
  return null;
}

export function buildProgram(io: CommandIo, cwd: string, setExitCode: (code: number) => void): Command {
  const program = new Command('pnpm eval')
    .description(
      'Run evaluation suites (default: eval/suites/*.json): drive whole tutorloop sessions with scripted, policy or simulated learners, check expectations, write result.json + report.md.',
    )
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text.trimEnd()), writeErr: (text) => io.stderr(text.trimEnd()) })
    .showHelpAfterError('(run with --help for usage)');

  // Running suites is the program's own action; `compare` and `validate` are subcommands.
  // Positional options keep `compare … --out` from being taken for the run's `--out`.
  program
    .enablePositionalOptions()
    .argument('[suites...]', 'suite files or folders (a folder means the *.json files directly in it)')
    .option('--url <url>', 'use this running server instead of starting one on a temporary database')
    .option('--username <name>', 'learner to sign in as with --url (registered if login fails); default: a fresh learner')
    .option('--password <password>', 'password of --username')
    .addOption(
      new Option('--provider <provider>', 'LLM_PROVIDER of the server eval starts; with --url, the provider that server must report in /api/health')
        .choices(providerSettings)
        .default('offline'),
    )
    .option('--concurrency <n>', 'cases run in parallel', positiveInteger, 2)
    .addOption(new Option('--out <dir>', 'folder for result.json and report.md').default(defaultOutFolder, 'reports/eval at the repository root'))
    .option('--no-out', 'write no report files')
    .option('--html', 'also write report.html')
    .option('--label <text>', 'name this run in reports and comparisons (e.g. "prompt v2")')
    .option('--turn-timeout <seconds>', 'longest wait for one tutor reply', positiveInteger, 60)
    .option('--case <text>', 'only cases whose "suite › case" (or "suite/case") contains this text')
    .option('--no-progress', 'no progress bar (it is only drawn on a terminal anyway)')
    .addHelpText(
      'after',
      `
Exit codes: 0 every case that ran passed · 1 an expectation failed · 2 the run could not happen.
Simulated learners need ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL is honoured); without it they are reported as not run.
A server eval starts reads its provider's settings from this environment (e.g. OPENAI_API_KEY, OPENAI_BASE_URL, TUTOR_MODEL).

Examples:
  pnpm eval
  pnpm eval eval/suites/widgets.json --html --out reports/eval/widgets
  pnpm eval --url http://127.0.0.1:3000 --username evaluator --password 'a long password'
  pnpm eval --provider openai --url http://127.0.0.1:3000
  OPENAI_API_KEY=ollama OPENAI_BASE_URL=http://127.0.0.1:11434/v1 TUTOR_MODEL=qwen2.5:14b EVALUATOR_MODEL=qwen2.5:7b pnpm eval --provider openai
  pnpm eval compare reports/a/result.json reports/b/result.json --out reports/compare`,
    )
    .action(async (suites: string[], flags: RunFlags) => {
      // With --url, an explicit --provider names the provider the running server must use.
      if (flags.url && program.getOptionValueSource('provider') === 'cli' && flags.provider !== 'auto') {
        const mismatch = await checkServerProvider(flags.url, flags.provider);
        if (mismatch) {
          io.stderr(mismatch);
          return setExitCode(ExitCodes.unusable);
        }
      }
      const outcome = await runSuitesCommand(
        {
          suites,
          ...(flags.url ? { url: flags.url } : {}),
          ...(flags.username !== undefined ? { username: flags.username } : {}),
          ...(flags.password !== undefined ? { password: flags.password } : {}),
          provider: flags.provider,
          concurrency: flags.concurrency,
          out: flags.out === false ? null : flags.out,
          html: flags.html ?? false,
          label: flags.label ?? null,
          turnTimeoutSeconds: flags.turnTimeout,
          ...(flags.case ? { filter: flags.case } : {}),
          progress: flags.progress,
          cwd,
          environment: process.env,
        },
        io,
      );
      setExitCode(outcome.exitCode);
    });

  program
    .command('compare')
    .description('compare two result.json files side by side (A/B of prompts or models)')
    .argument('<a>', 'result.json of run A')
    .argument('<b>', 'result.json of run B')
    .option('--out <dir>', 'also write compare.md into this folder')
    .action((a: string, b: string, flags: { out?: string }) => {
      setExitCode(compareCommand({ a, b, out: flags.out ?? null, cwd }, io).exitCode);
    });

  program
    .command('labelled')
    .description("measure the evaluator on labelled turns (default: eval/suites/labelled): precision, recall, F1 per kind, confusions")
    .argument('[suites...]', 'labelled suite files or folders')
    .option('--url <url>', 'use this running server')
    .addOption(new Option('--provider <provider>', 'LLM_PROVIDER of the server eval starts').choices(providerSettings).default('offline'))
    .option('--concurrency <n>', 'turns played in parallel', positiveInteger, 2)
    .addOption(new Option('--out <dir>', 'folder for result.json and report.md').default('reports/eval/labelled'))
    .option('--no-out', 'write no report files')
    .option('--label <text>', 'name this run in reports and comparisons')
    .option('--turn-timeout <seconds>', 'longest wait for one tutor reply', positiveInteger, 60)
    .action(async (suites: string[], flags: { url?: string; provider: TutorProvider; concurrency: number; out: string | false; label?: string; turnTimeout: number }) => {
      const outcome = await labelledCommand(
        {
          suites,
          ...(flags.url ? { url: flags.url } : {}),
          provider: flags.provider,
          concurrency: flags.concurrency,
          out: flags.out === false ? null : flags.out,
          label: flags.label ?? null,
          turnTimeoutSeconds: flags.turnTimeout,
          cwd,
        },
        io,
      );
      setExitCode(outcome.exitCode);
    });

  program
    .command('validate')
    .description('check suite files without running them')
    .argument('[suites...]', 'suite files or folders (default: eval/suites)')
    .action((suites: string[]) => {
      const loaded = loadSuites(suites.length > 0 ? suites : [defaultSuitesFolder], cwd);
      if (!loaded.ok) {
        io.stderr(`Invalid suites:\n${loaded.errors.map((error) => `  ${error}`).join('\n')}`);
        return setExitCode(ExitCodes.unusable);
      }
      for (const suite of loaded.value) io.stdout(`✓ ${suite.file}: ${suite.name} (${plural(suite.cases.length, 'case', 'cases')})`);
      setExitCode(ExitCodes.passed);
    });

  return program;
}

/** Parses `argv` (user arguments only) and runs the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo = processIo, cwd: string = process.cwd()): Promise<number> {
  let exitCode: number = ExitCodes.passed;
  const program = buildProgram(io, cwd, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : ExitCodes.unusable;
    throw error;
  }
  return exitCode;
}
