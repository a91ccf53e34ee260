/**
 * The HTTP API (SPEC §6): parse → validate with the shared zod schemas → call a service
 * → send. Errors become `{error:{code,message}}` with the right status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateRecallSetBody,
  CreateSessionBody,
  Credentials,
  Limits,
  LoginCredentials,
  ImportRecallSetBody,
  StepBody,
  parseClientJson,
  UpdateLearnerBody,
  UpdateRecallSetBody,
  type AuthResponse,
  type BlueprintList,
  type HealthResponse,
  type ServerEvent,
  type StepResponse,
} from '@tutorloop/shared';
import type { TokenService } from '../auth/tokens';
import type { Catalog } from '../core/assessment';
import { retryHint, type LearnerLimits } from '../core/limits/learner-limits';
import { defaultLoginThrottleOptions, LoginThrottle } from '../core/limits/login-throttle';
import { budgetRefusalMessage, type ModelBudget } from '../core/limits/model-budget';
import type { Clock } from '../core/ports';
import type { SessionRooms } from '../core/fleet/session-rooms';
import { AppError } from '../services/app-error';
import { isStorageError } from '../core/storage/storage-error';
import { parseBody } from './parse-input';
import type { LearnerService } from '../services/learners';
import type { RecallSetService } from '../services/recall-sets';
import type { ProgressService } from '../services/progress';
import type { SchedulerService } from '../services/scheduler';
import { registerOpenApiRoutes } from './openapi-routes';
import { registerProgressRoutes } from './progress-routes';
import { registerSchedulerRoutes } from './scheduler-routes';
import { registerAccountRoutes, type LearnerConnections } from './account-routes';
import { registerSetTransferRoutes } from './set-transfer-routes';
import type { SetTransferService } from '../services/set-transfer';
import type { AccountService } from '../services/account';
import type { SessionService } from '../services/sessions';
import { registerStudyPlanRoutes, type StudyPlanRouteDeps } from './study-plan-routes';
import { registerSurveyRoutes, type SurveyRouteDeps } from './survey-routes';
import { registerCodeRunRoutes, type CodeRunRouteDeps } from './code-run-routes';
import { registerDocumentRoutes, type DocumentRouteDeps } from './document-routes';

export interface RouteDeps {
  tokens: TokenService;
  account: AccountService;
  transfer: SetTransferService;
  clock: Clock;
  hub: SessionRooms;
  /** Per-learner frame and session-creation budgets. */
  limits: LearnerLimits;
  /** The per-learner budget every model operation is charged to (here: HTTP steps). */
  modelBudget: ModelBudget;
  learners: LearnerService;
  recallSets: RecallSetService;
  sessions: SessionService;
  tutor: HealthResponse['tutor'];
  version: string;
  catalog: Catalog;
  studyPlans: StudyPlanRouteDeps['studyPlans'];
  agentLogs: StudyPlanRouteDeps['agentLogs'];
  surveys: SurveyRouteDeps['surveys'];
  scheduler: SchedulerService;
  progress: ProgressService;
  /** The WebSocket server's connections, closed when a learner's tokens are revoked. */
  connections: LearnerConnections;
  /** "Run examples" on code items (issue 25). */
  codeRuns: CodeRunRouteDeps['codeRuns'];
  /** Documents proposed by the model, when there is one (issue 26), and the daily cap on them. */
  documents?: Pick<DocumentRouteDeps, 'models' | 'documentDailyTokens' | 'tokensUsedSince'>;
}

declare module 'fastify' {
  interface FastifyRequest {
    learnerId: string;
  }
}

/** "No route GET /api/…": the path without its query, cut short so a long URL is not echoed back. */
export function noRouteMessage(method: string, url: string): string {
  const path = url.split('?')[0] ?? '';
  return `No route ${method} ${path.length > 80 ? `${path.slice(0, 80)}…` : path}.`;
}

function idParam(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { tokens, clock, hub, limits, modelBudget, learners, recallSets, sessions, catalog } = deps;

  // JSON bodies: nesting bounded before parsing, every string made well-formed (SPEC §8).
  // JSON.parse never assigns prototypes, and bodies reach services only through zod
  // schemas, which copy known keys: a `__proto__` key is inert.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    const parsed = parseClientJson(text, Limits.bodyMaxDepth);
    if (parsed.ok) return done(null, parsed.value);
    const message = parsed.error.reason === 'too_deep' ? `Request body nests deeper than ${Limits.bodyMaxDepth} levels.` : 'Request body is not valid JSON.';
    done(new AppError(parsed.error.reason === 'too_deep' ? 'invalid_payload' : 'invalid_json', message), undefined);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterMs !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))));
      return reply.status(error.status).send({ error: { code: error.code, message: error.message } });
    }
    // Text one engine cannot store (a NUL character on PostgreSQL) is the sender's to fix, not a crash.
    if (isStorageError(error, 'unstorable_text')) {
      return reply.status(400).send({ error: { code: 'bad_request', message: error.message } });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
      return reply.status(400).send({ error: { code: 'invalid_json', message: 'Request body is not valid JSON.' } });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code = error.statusCode === 413 ? 'bad_request' : error.statusCode === 415 ? 'bad_request' : 'bad_request';
      return reply.status(error.statusCode).send({ error: { code, message: error.message } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'internal', message: 'Internal error.' } });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: { code: 'not_found', message: noRouteMessage(request.method, request.url) } });
  });

  const authenticate = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    const learnerId = await tokens.verify(token);
    if (!learnerId || !(await learners.get(learnerId))) throw new AppError('unauthorized', 'Sign in first: missing, invalid or expired token.');
    request.learnerId = learnerId;
  };

  registerOpenApiRoutes(app, { version: deps.version });

  app.get('/api/health', async (): Promise<HealthResponse> => ({ status: 'ok', tutor: deps.tutor, version: deps.version }));

  app.post('/api/auth/register', async (request, reply): Promise<AuthResponse> => {
    const learner = await learners.register(parseBody(Credentials, request.body), clock.now());
    reply.status(201);
    return { token: await tokens.issue(learner.id), learner };
  });

  // Failed sign-ins are throttled per account and per client address (core/limits/login-throttle.ts
  // holds the policy). A locked-out attempt is refused before its password is looked at, so a
  // right password then is refused too: the lockout must not tell a guesser they were right.
  const loginThrottle = new LoginThrottle(defaultLoginThrottleOptions, clock);
  app.post('/api/auth/login', async (request): Promise<AuthResponse> => {
    const credentials = parseBody(LoginCredentials, request.body);
    const gate = loginThrottle.attempt(credentials.username, request.ip);
    if (!gate.ok) throw new AppError('rate_limited', `Too many failed sign-ins for this account or from this network. ${retryHint(gate.retryAfterMs)}`, gate.retryAfterMs);
    const learner = await learners.login(credentials);
    loginThrottle.succeeded(credentials.username, request.ip);
    return { token: await tokens.issue(learner.id), learner };
  });

  app.register(async (api) => {
    api.addHook('preHandler', authenticate);

    api.get('/api/me', async (request) => ({ learner: await learners.get(request.learnerId) }));
    api.patch('/api/me', async (request) => ({ learner: await learners.update(request.learnerId, parseBody(UpdateLearnerBody, request.body)) }));

    api.get('/api/recall-sets', async (request) => ({ recallSets: await recallSets.list(request.learnerId, clock.now()) }));
    api.post('/api/recall-sets', async (request, reply) => {
      const body = parseBody(CreateRecallSetBody, request.body);
      reply.status(201);
      return recallSets.create(request.learnerId, body, clock.now());
    });
    api.post('/api/recall-sets/import', async (request, reply) => {
      const body = parseBody(ImportRecallSetBody, request.body);
      reply.status(201);
      return recallSets.import(request.learnerId, body, clock.now());
    });
    api.get('/api/recall-sets/:id', async (request) => recallSets.get(request.learnerId, idParam(request), clock.now()));
    api.put('/api/recall-sets/:id', async (request) =>
      recallSets.update(request.learnerId, idParam(request), parseBody(UpdateRecallSetBody, request.body), clock.now()),
    );
    api.delete('/api/recall-sets/:id', async (request, reply: FastifyReply) => {
      await recallSets.delete(request.learnerId, idParam(request));
      return reply.status(204).send();
    });

    registerStudyPlanRoutes(api, { studyPlans: deps.studyPlans, agentLogs: deps.agentLogs, clock });
    registerSurveyRoutes(api, { surveys: deps.surveys, clock });
    registerSchedulerRoutes(api, deps.scheduler);
    registerAccountRoutes(api, { account: deps.account, tokens, hub, clock, connections: deps.connections });
    registerSetTransferRoutes(api, { transfer: deps.transfer, clock });
    registerProgressRoutes(api, deps.progress, clock);
    registerCodeRunRoutes(api, { codeRuns: deps.codeRuns });
    registerDocumentRoutes(api, { clock, modelBudget: deps.modelBudget, ...deps.documents });

    api.get('/api/cards', async (request) => {
      const { recallSetId } = (request.query ?? {}) as { recallSetId?: string };
      if (!recallSetId) throw new AppError('invalid_payload', 'recallSetId: query parameter is required');
      return recallSets.cards(request.learnerId, recallSetId, clock.now());
    });

    api.post('/api/sessions', async (request, reply) => {
      const body = parseBody(CreateSessionBody, request.body);
      // Each session opens with a model reply: creating them is throttled per learner (SPEC §8).
      const allowed = await limits.takeSessionCreation(request.learnerId);
      if (!allowed.ok) {
        const { limit, windowMs } = limits.options.sessions;
        throw new AppError('rate_limited', `Too many new sessions: at most ${limit} per ${windowMs / 60_000} minutes. ${retryHint(allowed.retryAfterMs)}`, allowed.retryAfterMs);
      }
      const sessionId = await sessions.create(request.learnerId, body, clock.now());
      reply.status(201);
      return { sessionId };
    });
    api.get('/api/blueprints', async (): Promise<BlueprintList> => ({ blueprints: catalog.summaries() }));
    api.get('/api/sessions', async (request) => ({ sessions: await sessions.list(request.learnerId) }));
    // Reads: each type's views of a stored snapshot (core/session/session-view.ts); no room is opened.
    api.get('/api/sessions/:id', async (request) => {
      const session = await sessions.owned(request.learnerId, idParam(request));
      return { session: await sessions.toListItem(session), state: await sessions.state(session, clock.now()) };
    });
    api.get('/api/sessions/:id/replay', async (request) => {
      const session = await sessions.owned(request.learnerId, idParam(request));
      return { sessionId: session.id, messages: await sessions.history(session) };
    });
    api.get('/api/sessions/:id/summary', async (request) => {
      const session = await sessions.owned(request.learnerId, idParam(request));
      const summary = await sessions.summary(session, clock.now());
      if (!summary) throw new AppError('conflict', 'The session has not ended yet; its summary comes at the end.');
      return { summary };
    });
    api.post('/api/sessions/:id/step', async (request): Promise<StepResponse> => {
      const session = await sessions.owned(request.learnerId, idParam(request));
      const body = parseBody(StepBody, request.body);
      const budget = await modelBudget.charge(request.learnerId, 'turn');
      if (!budget.ok) throw new AppError('rate_limited', budgetRefusalMessage(budget), budget.retryAfterMs);
      const room = hub.room(session);
      const events: ServerEvent[] = [];
      const collect = (event: ServerEvent) => events.push(event);
      room.subscribe(collect);
      try {
        room.resume();
        await room.handle({ type: 'chat', payload: { message: body.message, ...(body.clientMessageId ? { clientMessageId: body.clientMessageId } : {}) } }, collect);
        await room.settled();
      } finally {
        room.detach(collect);
        hub.release(session.id);
      }
      const failure = events.find((event) => event.type === 'error');
      const assistants = events.filter((event) => event.type === 'assistant');
      const last = assistants[assistants.length - 1];
      if (failure && failure.type === 'error' && !last) throw new AppError(failure.payload.code, failure.payload.message);
      const complete = events.find((event) => event.type === 'session_complete');
      return {
        reply: last && last.type === 'assistant' ? last.payload : null,
        state: await room.state(),
        summary: complete && complete.type === 'session_complete' ? complete.payload.summary : null,
      };
    });
    api.delete('/api/sessions/:id', async (request, reply: FastifyReply) => {
      const session = await sessions.owned(request.learnerId, idParam(request));
      const room = hub.room(session);
      room.close();
      await room.settled();
      await sessions.delete(request.learnerId, session.id);
      room.terminate();
      hub.release(session.id);
      return reply.status(204).send();
    });
  });
}
