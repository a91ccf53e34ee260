/**
 * Composition root: opens the database, picks the tutor provider, and serves the HTTP API,
 * the WebSocket endpoint and the built web app on one port.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyReply } from 'fastify';
import pino from 'pino';
import { createTokenService, resolveJwtSecret } from './auth/tokens';
import type { Config } from './config';
import { repositoryRoot } from './config';
import { loadCatalog, type Catalog } from './core/assessment';
import { LearnerLimits } from './core/limits/learner-limits';
import { systemClock, uuidGenerator, type Clock, type Logger } from './core/ports';
import type { TutorProvider } from './core/provider';
import { SessionHub } from './core/session/session-hub';
import { openDatabase, type Database } from './db/database';
import { llmCalls } from './db/schema';
import { providerFactories } from './llm/provider-registry';
import { SqliteAssessmentRepository } from './db/assessment-store';
import { SqliteSessionRepository } from './db/session-store';
import { registerRoutes } from './http/routes';
import { createSandbox } from './sandbox';
import { LearnerService } from './services/learners';
import { RecallSetService } from './services/recall-sets';
import { SessionService } from './services/sessions';
import { SocketServer } from './ws/socket-server';

export interface ServerOverrides {
  provider?: TutorProvider;
  clock?: Clock;
  /** Assessment blueprints; by default loaded from server/blueprints (an invalid file stops the start). */
  catalog?: Catalog;
}

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  provider: TutorProvider;
  logger: Logger;
  close(): Promise<void>;
}

const version = (JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** The tutor + evaluator provider the configuration asks for (llm/provider-registry.ts); model calls are logged to llm_calls. */
export function createProvider(config: Config, database: Database, logger: Logger): TutorProvider {
  return providerFactories[config.provider]({
    config,
    logger,
    recordCall: (record) => {
      database
        .insert(llmCalls)
        .values({
          id: crypto.randomUUID(),
          sessionId: record.sessionId,
          purpose: record.purpose,
          provider: record.provider,
          model: record.model,
          inputTokens: record.inputTokens,
          outputTokens: record.outputTokens,
          cacheReadTokens: record.cacheReadTokens,
          cacheWriteTokens: record.cacheWriteTokens,
          latencyMs: Math.round(record.latencyMs),
          outcome: record.outcome,
          error: record.error,
          createdAt: record.startedAt,
        })
        .run();
    },
  });
}

export async function startServer(config: Config, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const logger = pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'password', '*.password', 'token'], censor: '[redacted]' },
  });
  const database = openDatabase(config.databaseFile);
  const clock = overrides.clock ?? systemClock;
  const provider = overrides.provider ?? createProvider(config, database, logger as unknown as Logger);
  const tokens = createTokenService(resolveJwtSecret(config.jwtSecret, config.dataDir));
  const repository = new SqliteSessionRepository(database);
  const catalog = overrides.catalog ?? loadCatalog();
  const assessments = new SqliteAssessmentRepository(database);
  const sandbox = createSandbox(config.sandbox);
  const limits = new LearnerLimits(
    { frames: { limit: config.wsRateLimit, windowMs: 10_000 }, turns: { limit: config.turnRateLimit, windowMs: 60_000 } },
    clock,
  );

  const hub = new SessionHub({
    repository,
    provider,
    clock,
    ids: uuidGenerator,
    logger: logger as unknown as Logger,
    socketGraceMs: config.socketGraceMs,
    assessment: { assessments, catalog, codeRunner: sandbox },
  });
  const learners = new LearnerService(database);
  const recallSets = new RecallSetService(database);
  const sessions = new SessionService(database, repository, recallSets, { repository: assessments, catalog });

  // Per-request logs only when debugging; errors always reach the log.
  const requestLogLevel = config.logLevel === 'debug' || config.logLevel === 'trace' || config.logLevel === 'silent' ? config.logLevel : 'warn';
  const app = Fastify({
    loggerInstance: logger.child({}, { level: requestLogLevel }) as FastifyBaseLogger,
    bodyLimit: 1_048_576,
    // The router's own refusals answer in the API's error shape too (SPEC §6), without echoing the URL.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.status(404).send({ error: { code: 'not_found', message: 'Nothing exists under an id that long.' } });
      }
      return reply.status(400).send({ error: { code: 'bad_request', message: 'The URL is not valid (check its percent-encoding).' } });
    },
  });
  registerRoutes(app, { tokens, clock, hub, limits, learners, recallSets, sessions, tutor: provider.name, version, catalog });

  if (config.webDist && existsSync(path.join(config.webDist, 'index.html'))) {
    await app.register(fastifyStatic, { root: path.resolve(config.webDist), wildcard: false });
    // Client-side routes fall back to the app shell; unknown /api routes stay JSON 404s.
    app.get('/*', (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply.status(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` } });
      }
      return reply.sendFile('index.html');
    });
  }

  const sockets = new SocketServer({
    hub,
    repository,
    tokens,
    logger: logger as unknown as Logger,
    maxFrameBytes: config.wsMaxFrameBytes,
    limits,
  });
  app.server.on('upgrade', (request, socket, head) => {
    if (sockets.matches(request)) sockets.handleUpgrade(request, socket, head);
    else socket.destroy();
  });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    database,
    provider,
    logger: logger as unknown as Logger,
    async close() {
      sockets.close();
      await hub.close();
      await sandbox.close();
      await app.close();
      database.$client.close();
    },
  };
}
