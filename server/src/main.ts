/** `npm start` entry: read configuration, start, print the URL, stop cleanly on a signal. */
import { providerLabels } from '@tutorloop/shared';
import { loadDotEnv, parseConfig } from './config';
import { startServer } from './server';

loadDotEnv();
const config = parseConfig(process.env);
if (!config.ok) {
  console.error(config.error);
  process.exit(1);
}

try {
  const server = await startServer(config.value);
  const tutor =
    server.provider.name === 'offline'
      ? 'offline tutor (no ANTHROPIC_API_KEY: a deterministic local tutor answers)'
      : `${providerLabels[server.provider.name]} tutor (${config.value.tutorModel}, evaluator ${config.value.evaluatorModel})`;
  console.log(`tutorloop is running at ${server.url} — ${tutor}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Received ${signal}, shutting down…`);
    await server.close();
    process.exit(0);
  };
  // The last resort (SPEC §8): every frame and request already runs inside a guard, so an
  // exception that still escapes is a bug in a background task. Log it loudly and keep
  // serving the other learners rather than drop every session at once.
  process.on('uncaughtException', (error, origin) => server.logger.error({ err: error, origin }, 'uncaught exception; still serving'));
  process.on('unhandledRejection', (reason) => server.logger.error({ err: reason }, 'unhandled promise rejection; still serving'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  console.error(`tutorloop could not start: ${(error as Error).message}`);
  process.exit(1);
}
