/**
 * Composition root: opens the database, picks the tutor provider, and serves the HTTP API,
 * the WebSocket endpoint and the built web app on one port.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyReply } from 'fastify';
import pino from 'pino';
import { createTokenService, resolveJwtSecret } from './auth/tokens';
import { AccountService } from './services/account';
import { readApkg } from './db/apkg-reader';
import { SetTransferService } from './services/set-transfer';
import type { Config } from './config';
import { repositoryRoot } from './config';
import { loadCatalog, type Catalog } from './core/assessment';
import { LearnerLimits } from './core/limits/learner-limits';
import { LearnerModelBudget } from './core/limits/learner-model-budget';
import type { ModelBudget } from './core/limits/model-budget';
import { systemClock, uuidGenerator, type Clock, type Logger } from './core/ports';
import type { TutorProvider } from './core/provider';
import { SessionHub } from './core/session/session-hub';
import type { SessionRooms } from './core/fleet/session-rooms';
import { createSessionModules, type SessionModulesDeps } from './core/session-modules';
import { sessionTypeCatalog } from './core/session-type-states';
import type { Storage } from './core/storage/storage';
import { openReadOnlyDatabase, type Database } from './db/database';
import { openSqliteStorage } from './db/sqlite-storage';
import { providerFactories } from './llm/provider-registry';
import { registerRoutes } from './http/routes';
import { registerWebAssets } from './http/web-assets';
import { recordRoutes, type RegisteredRoute } from './http/openapi-routes';
import { registerSecurityHeaders } from './http/security-headers';
import { createSandbox } from './sandbox';
import { LearnerService } from './services/learners';
import { RecallSetService } from './services/recall-sets';
import { SessionService } from './services/sessions';
import { AgentLogService } from './services/agent-logs';
import { skillBlueprintIds, StudyPlanService } from './services/study-plans';
import { loadBuiltInPlans } from './core/study-plans/built-in-plans';
import { loadBuiltInSurveys } from './core/survey/built-in-surveys';
import { SurveyService } from './services/surveys';
import { CodeRunService } from './services/code-runs';
import { SocketServer } from './ws/socket-server';
import { rejectUpgrade } from './ws/upgrade';
import { SchedulerService } from './services/scheduler';
import { ProgressService } from './services/progress';
import { createBindingOptimizer } from './scheduler/binding-optimizer';
import { createWorkerSimulator } from './scheduler/worker-simulator';

export interface ServerOverrides {
  provider?: TutorProvider;
  clock?: Clock;
  /** Assessment blueprints; by default loaded from server/blueprints (an invalid file stops the start). */
  catalog?: Catalog;
  /**
   * Deps for the session types' modules in place of the server's own — for tests, e.g. a scripted
   * fake of a type's model port (`learningTutor`) instead of the one the registry builds from the provider.
   */
  sessionDeps?: Partial<SessionModulesDeps>;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The storage port the server runs on. */
  storage: Storage;
  /**
   * A read-only connection to the server's SQLite file, opened on first use: for tests and
   * tools that inspect what was stored. The server itself reaches data only through `storage`.
   */
  readonly database: Database;
  provider: TutorProvider;
  logger: Logger;
  /** Every route the HTTP server registered (method and URL pattern): the OpenAPI test checks each is documented. */
  routes: readonly RegisteredRoute[];
  close(): Promise<void>;
}

const version = (JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The tutor + evaluator provider the configuration asks for (llm/provider-registry.ts); model calls are recorded in
 * llm_calls through the storage port, with their session's learner, and reported to `budget` (the daily token count).
 */
export async function createProvider(config: Config, storage: Storage, logger: Logger, budget?: Pick<ModelBudget, 'noteUsage'>): Promise<TutorProvider> {
  return providerFactories[config.provider]({
    config,
    logger,
    recordCall: (record) => {
      // Recording never holds up or fails a turn: the write is queued behind the units in progress.
      storage
        .transaction(async (tx) => {
          // The learner is stored with the call, so deleting the session does not give its tokens back.
          const learnerId = record.learnerId ?? (record.sessionId ? ((await tx.sessions.get(record.sessionId))?.learnerId ?? null) : null);
          await tx.llmCalls.add({
            id: crypto.randomUUID(),
            sessionId: record.sessionId,
            learnerId,
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
          });
          return learnerId;
        })
        .then((learnerId) => {
          if (learnerId) budget?.noteUsage(learnerId, record.inputTokens + record.outputTokens, record.startedAt);
        })
        .catch((error: unknown) => logger.warn({ err: error, sessionId: record.sessionId }, 'could not record a model call'));
    },
  });
}

/**
 * The PostgreSQL adapter and the fleet (SPEC §11), imported only when DATABASE_URL asks for them:
 * a server on SQLite never loads `pg` or drizzle's PostgreSQL dialect (issue 27 item 2).
 */
async function loadPostgresParts() {
  const [storage, link, learners, fleet] = await Promise.all([
    import('./db/postgres/postgres-storage'),
    import('./db/postgres/fleet/fleet-link'),
    import('./db/postgres/fleet-learners/fleet-learners'),
    import('./db/postgres/fleet/open-fleet'),
  ]);
  return { openPostgresStorage: storage.openPostgresStorage, openFleetLink: link.openFleetLink, openFleetLearners: learners.openFleetLearners, openFleetHub: fleet.openFleetHub };
}

/**
 * Starts the server. A start that fails part way (a taken port, an unreachable database, an invalid built-in plan)
 * closes what it had opened before it rethrows: no pool, LISTEN connection, thread or timer is left behind to hold
 * the process (or a test worker) open.
 */
export async function startServer(config: Config, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const opened: Closer[] = [];
  try {
    return await assembleServer(config, overrides, opened);
  } catch (error) {
    // Last opened, first closed; a closer that fails does not keep the others from running.
    for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => undefined);
    throw error;
  }
}

type Closer = () => unknown;

/** Trusts the first `hops` proxies from the socket's side (TRUST_PROXY=n). */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

async function assembleServer(config: Config, overrides: ServerOverrides, opened: Closer[]): Promise<RunningServer> {
  const logger = pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'password', '*.password', 'token'], censor: '[redacted]' },
  });
  // DATABASE_URL: PostgreSQL (migrated at start, SPEC §11); unset: the SQLite file in the data folder.
  const pg = config.databaseUrl ? await loadPostgresParts() : null;
  const postgres = pg && config.databaseUrl ? await pg.openPostgresStorage(config.databaseUrl, sessionTypeCatalog) : null;
  const storage: Storage = postgres ?? openSqliteStorage(config.databaseFile, sessionTypeCatalog);
  opened.push(() => storage.close());
  const clock = overrides.clock ?? systemClock;
  // On PostgreSQL, budgets and the optimiser's claims are shared by every instance (SPEC §11); else in this process.
  // One fleet pool and one LISTEN connection per instance, shared by the rooms and the per-learner state; closed last.
  const fleetLink = pg && config.databaseUrl ? await pg.openFleetLink(config.databaseUrl, logger as unknown as Logger) : null;
  // The link closes after the storage, as in close() below.
  if (fleetLink) opened.unshift(() => fleetLink.close());
  const fleetLearners = pg && fleetLink ? pg.openFleetLearners(fleetLink, { clock, logger: logger as unknown as Logger }) : null;
  if (fleetLearners) opened.push(() => fleetLearners.close());
  // One budget per learner for every operation that calls a model, plus the day's tokens read from llm_calls (SPEC §8).
  const modelBudget = new LearnerModelBudget(
    { operations: { limit: config.turnRateLimit, windowMs: 60_000 }, dailyTokens: config.learnerDailyTokens },
    { clock, tokensUsedSince: (learnerId, since) => storage.read((reader) => reader.llmCalls.tokensUsedSince(learnerId, since)), ...(fleetLearners ? { buckets: fleetLearners.buckets } : {}) },
  );
  const provider = overrides.provider ?? (await createProvider(config, storage, logger as unknown as Logger, modelBudget));
  // Tokens are checked against the learner's token version (revoked by "sign out everywhere").
  const tokens = createTokenService(resolveJwtSecret(config.jwtSecret, config.dataDir), async (learnerId) => (await storage.read((reader) => reader.learners.get(learnerId)))?.tokenVersion ?? null);
  const catalog = overrides.catalog ?? loadCatalog();
  const sandbox = createSandbox(config.sandbox);
  opened.push(() => sandbox.close());
  const limits = new LearnerLimits(
    { frames: { limit: config.wsRateLimit, windowMs: 10_000 }, sessions: { limit: config.sessionRateLimit, windowMs: 600_000 } },
    clock,
    fleetLearners?.buckets,
  );

  const modules = createSessionModules({
    storage,
    provider,
    catalog,
    codeRunner: sandbox,
    clock,
    ids: uuidGenerator,
    logger: logger as unknown as Logger,
    socketGraceMs: config.socketGraceMs,
    modelBudget,
    ...overrides.sessionDeps,
  });
  // On PostgreSQL any number of instances serve the same sessions (a lease per session, events through the database).
  const hub: SessionRooms = pg && postgres && fleetLink ? await pg.openFleetHub(fleetLink, { modules, storage: postgres, logger: logger as unknown as Logger }) : new SessionHub(modules);
  opened.push(() => hub.close());
  const learners = new LearnerService(storage);
  const recallSets = new RecallSetService(storage);
  const sessions = new SessionService(storage, modules);
  // The plans shipped in server/study-plans/, validated against the catalog (an invalid file stops the start).
  const studyPlans = new StudyPlanService(storage, catalog);
  await studyPlans.installBuiltIns(loadBuiltInPlans(skillBlueprintIds(catalog)), clock.now());
  const agentLogs = new AgentLogService(storage);
  // The surveys shipped in server/surveys/ (an invalid file stops the start).
  const surveys = new SurveyService(storage);
  await surveys.installBuiltIns(loadBuiltInSurveys(), clock.now());
  // FSRS parameter optimisation, off the request path (a queue and a worker thread).
  const scheduler = new SchedulerService({ storage, optimizer: createBindingOptimizer(), simulator: createWorkerSimulator(), clock, ids: uuidGenerator, logger: logger as unknown as Logger, ...(fleetLearners ? { claims: fleetLearners.claims } : {}) });
  scheduler.start();
  opened.push(() => scheduler.close());
  const progress = new ProgressService({ storage, listItem: (session) => sessions.toListItem(session), maxScoreOf: (blueprintId) => catalog.getAssessment(blueprintId)?.totalItems ?? null });

  // Per-request logs only when debugging; errors always reach the log.
  const requestLogLevel = config.logLevel === 'debug' || config.logLevel === 'trace' || config.logLevel === 'silent' ? config.logLevel : 'warn';
  const app = Fastify({
    loggerInstance: logger.child({}, { level: requestLogLevel }) as FastifyBaseLogger,
    bodyLimit: 1_048_576,
    // Behind a proxy (TRUST_PROXY), request.ip is the client X-Forwarded-For names, as that proxy saw it.
    // A hop count as the trust function proxy-addr makes of one (fastify's types leave numbers out).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // The router's own refusals answer in the API's error shape too (SPEC §6), without echoing the URL.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.status(404).send({ error: { code: 'not_found', message: 'Nothing exists under an id that long.' } });
      }
      return reply.status(400).send({ error: { code: 'bad_request', message: 'The URL is not valid (check its percent-encoding).' } });
    },
  });
  opened.push(() => app.close());
  const sockets = new SocketServer({
    hub,
    storage,
    tokens,
    logger: logger as unknown as Logger,
    maxFrameBytes: config.wsMaxFrameBytes,
    limits,
    modelBudget,
  });
  opened.push(() => sockets.close());
  // A revocation on any instance closes the learner's sockets on every one (SPEC §11).
  const connections = fleetLearners ? fleetLearners.revocations(sockets) : sockets;
  registerSecurityHeaders(app);
  const routes = recordRoutes(app);
  const transfer = new SetTransferService(storage, recallSets, readApkg);
  // "Run examples" on code items: the sandbox's per-learner queue plus a per-learner budget of runs.
  const codeRuns = new CodeRunService({ storage, runner: sandbox, clock, budget: { limit: config.codeRunRateLimit, windowMs: 60_000 } });
  // With a model, documents are proposed by it, under a daily cap counted from llm_calls (SPEC §4.7).
  const documents = {
    ...(provider.models ? { models: provider.models } : {}),
    documentDailyTokens: config.documentDailyTokens,
    tokensUsedSince: (learnerId: string, since: Date, purpose: string) => storage.read((reader) => reader.llmCalls.tokensUsedSince(learnerId, since, purpose)),
  };
  registerRoutes(app, { tokens, account: new AccountService(storage), transfer, clock, hub, limits, modelBudget, learners, recallSets, sessions, tutor: provider.name, version, catalog, studyPlans, agentLogs, scheduler, progress, surveys, connections, codeRuns, documents });

  if (config.webDist && existsSync(path.join(config.webDist, 'index.html'))) {
    await registerWebAssets(app, config.webDist);
  }

  // Every upgrade gets an answer and no socket stays open: a session's path is upgraded (or
  // refused with a 400 when its URL cannot be read), any other path gets a 404 (issue 22).
  app.server.on('upgrade', (request, socket, head) => {
    try {
      if (sockets.matches(request)) sockets.handleUpgrade(request, socket, head);
      else rejectUpgrade(socket, 404, 'not_found', 'No WebSocket endpoint here; a session socket is at /sessions/ws/{sessionId}.');
    } catch (error) {
      logger.error({ err: error }, 'upgrade failed');
      socket.destroy();
    }
  });

  let inspection: Database | undefined;
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    storage,
    get database() {
      if (config.databaseUrl) throw new Error('server.database inspects the SQLite file; this server stores on PostgreSQL (DATABASE_URL)');
      inspection ??= openReadOnlyDatabase(config.databaseFile);
      return inspection;
    },
    provider,
    logger: logger as unknown as Logger,
    routes,
    async close() {
      sockets.close();
      await scheduler.close();
      await hub.close();
      await sandbox.close();
      await app.close();
      await storage.close();
      fleetLearners?.close();
      // After the hub left the fleet and the storage is closed: nothing uses the link any more.
      await fleetLink?.close();
      inspection?.$client.close();
    },
  };
}
