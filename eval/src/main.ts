/** `pnpm eval …` — the evaluation pipeline (see eval/README.md). */
import { runCli } from './cli';

// Ctrl-C: exit through 'exit' handlers, so a server eval started is killed too.
process.once('SIGINT', () => process.exit(130));
process.exitCode = await runCli(process.argv.slice(2));
