/**
 * The OpenAPI 3.1 document of the HTTP API (SPEC §6 `GET /api/openapi.json`), generated from
 * the shared zod schemas by @asteasolutions/zod-to-openapi — nothing in it is written by hand
 * but the table below: which route takes and returns which shared schema, with a summary.
 *
 * Adding a route: add its entry to `apiRoutes`. `server/test/openapi.test.ts` lists the routes
 * Fastify registered and fails for any `/api` route without an entry (and for an entry
 * without a route), and checks that every example here validates against its schema.
 */
import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  AccountExport,
  AgentLogEntry,
  ApiErrorBody,
  AuthResponse,
  BlueprintList,
  CardList,
  ChangePasswordBody,
  CreateRecallSetBody,
  CreateSessionBody,
  CreateSessionResponse,
  Credentials,
  DeleteAccountBody,
  ExportFormat,
  HealthResponse,
  ImportPreview,
  ImportRecallSetBody,
  ImportSourceBody,
  LearnerResponse,
  LoginCredentials,
  ProgressStats,
  RecallSetDetail,
  RecallSetList,
  Scorecard,
  SchedulerStatus,
  SessionDetail,
  SessionHistory,
  SessionHistoryQuery,
  SessionList,
  SessionReplay,
  SessionSummaryResponse,
  SimulateBody,
  SimulationResponse,
  StepBody,
  StepResponse,
  StudyPlanBody,
  StudyPlanDetail,
  StudyPlanImportBody,
  StudyPlanList,
  SubtopicProgress,
  SurveyBody,
  SurveyDetail,
  SurveyList,
  SurveyResults,
  UpdateLearnerBody,
  UpdateRecallSetBody,
} from '@tutorloop/shared';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON body or response: its schema and, optionally, an example that must validate against it. */
export interface JsonContent {
  schema: z.ZodType;
  example?: unknown;
}

/** One route of the HTTP API, as documented. */
export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI form: `/api/sessions/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Needs `Authorization: Bearer {jwt}`. */
  auth: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: JsonContent;
  /** The success response: JSON, and/or text types (an HTML page, a CSV or text file). */
  response: { status: number; description: string; json?: JsonContent; text?: ReadonlyArray<'text/html' | 'text/csv' | 'text/plain'> };
  /** Error statuses besides 400 (bad body or query), 401 (auth routes) and 500, which are added by what the route has. */
  errors?: readonly number[];
}

/** A body as the client sends it: the example is checked against the schema's input type. */
function body<S extends z.ZodType>(schema: S, example?: z.input<S>): JsonContent {
  return example === undefined ? { schema } : { schema, example };
}

/** A response: the example is checked against the schema's output type. */
function json<S extends z.ZodType>(schema: S, example?: z.output<S>): JsonContent {
  return example === undefined ? { schema } : { schema, example };
}

/**
 * A shared schema as a named component (`#/components/schemas/{name}`), through zod's own
 * metadata (`.meta({ id })`, which the generator reads). `.meta` returns a copy, so the shared
 * schema itself — and every JSON schema generated elsewhere from it — is left untouched.
 */
function named<S extends z.ZodType>(schema: S, name: string): S {
  return schema.meta({ id: name }) as S;
}

/**
 * An agent log's `output` is `z.json()`, a recursive lazy schema that the generator cannot
 * expand; documented as any JSON value, the rest of the list as shared.
 */
const AgentLogListDocument = z.object({
  entries: z.array(AgentLogEntry.extend({ output: z.unknown().describe('The call\'s structured output, as JSON; null when there was none.') })),
});

const idParams = z.object({ id: z.string().min(1).describe('The id, as returned when it was created.') });
const cardsQuery = z.object({ recallSetId: z.string().min(1).describe('The recall set whose cards to list.') });
const exportQuery = z.object({ format: ExportFormat.default('csv').describe('`csv` (content,context) or `anki` (Anki\'s text import format).') });
const resultsQuery = z.object({ format: z.enum(['json', 'csv']).default('json').describe('`csv` answers a CSV file (one row per response) instead of JSON.') });

const schemas = {
  ApiError: named(ApiErrorBody, 'ApiError'),
  HealthResponse: named(HealthResponse, 'HealthResponse'),
  Credentials: named(Credentials, 'Credentials'),
  LoginCredentials: named(LoginCredentials, 'LoginCredentials'),
  AuthResponse: named(AuthResponse, 'AuthResponse'),
  LearnerResponse: named(LearnerResponse, 'LearnerResponse'),
  UpdateLearnerBody: named(UpdateLearnerBody, 'UpdateLearnerBody'),
  RecallSetList: named(RecallSetList, 'RecallSetList'),
  RecallSetDetail: named(RecallSetDetail, 'RecallSetDetail'),
  CreateRecallSetBody: named(CreateRecallSetBody, 'CreateRecallSetBody'),
  UpdateRecallSetBody: named(UpdateRecallSetBody, 'UpdateRecallSetBody'),
  ImportRecallSetBody: named(ImportRecallSetBody, 'ImportRecallSetBody'),
  CardList: named(CardList, 'CardList'),
  StudyPlanList: named(StudyPlanList, 'StudyPlanList'),
  StudyPlanDetail: named(StudyPlanDetail, 'StudyPlanDetail'),
  StudyPlanBody: named(StudyPlanBody, 'StudyPlanBody'),
  StudyPlanImportBody: named(StudyPlanImportBody, 'StudyPlanImportBody'),
  SchedulerStatus: named(SchedulerStatus, 'SchedulerStatus'),
  SimulateBody: named(SimulateBody, 'SimulateBody'),
  SimulationResponse: named(SimulationResponse, 'SimulationResponse'),
  BlueprintList: named(BlueprintList, 'BlueprintList'),
  CreateSessionBody: named(CreateSessionBody, 'CreateSessionBody'),
  CreateSessionResponse: named(CreateSessionResponse, 'CreateSessionResponse'),
  SessionList: named(SessionList, 'SessionList'),
  SessionDetail: named(SessionDetail, 'SessionDetail'),
  SessionReplay: named(SessionReplay, 'SessionReplay'),
  SessionSummaryResponse: named(SessionSummaryResponse, 'SessionSummaryResponse'),
  StepBody: named(StepBody, 'StepBody'),
  StepResponse: named(StepResponse, 'StepResponse'),
  AgentLogList: named(AgentLogListDocument, 'AgentLogList'),
  SessionHistory: named(SessionHistory, 'SessionHistory'),
  ProgressStats: named(ProgressStats, 'ProgressStats'),
  Scorecard: named(Scorecard, 'Scorecard'),
  SubtopicProgress: named(SubtopicProgress, 'SubtopicProgress'),
  ChangePasswordBody: named(ChangePasswordBody, 'ChangePasswordBody'),
  DeleteAccountBody: named(DeleteAccountBody, 'DeleteAccountBody'),
  AccountExport: named(AccountExport, 'AccountExport'),
  SurveyList: named(SurveyList, 'SurveyList'),
  SurveyDetail: named(SurveyDetail, 'SurveyDetail'),
  SurveyBody: named(SurveyBody, 'SurveyBody'),
  SurveyResults: named(SurveyResults, 'SurveyResults'),
  ImportSourceBody: named(ImportSourceBody, 'ImportSourceBody'),
  ImportPreview: named(ImportPreview, 'ImportPreview'),
};

/** Any JSON object: the OpenAPI document itself is not described by a shared schema. */
const openApiObject = z.record(z.string(), z.unknown());

const exampleSessionId = '4f1c2b9e-7d3a-4c1e-9a55-2b8e6f0d1a77';

/** Every route of the HTTP API (SPEC §6). The WebSocket endpoint (§5) is not HTTP and is described in the document's text. */
export const apiRoutes: readonly ApiRoute[] = [
  // Service
  { method: 'get', path: '/api/health', tag: 'Service', summary: 'Health: status, which tutor answers, version', auth: false, response: { status: 200, description: 'The server is up.', json: json(schemas.HealthResponse) } },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Service',
    summary: 'This OpenAPI 3.1 document',
    auth: false,
    response: { status: 200, description: 'The document, generated from the shared zod schemas.', json: json(openApiObject) },
  },
  { method: 'get', path: '/api/docs', tag: 'Service', summary: 'A page that renders this document', auth: false, response: { status: 200, description: 'An HTML page (no external assets).', text: ['text/html'] } },
  // Auth
  {
    method: 'post',
    path: '/api/auth/register',
    tag: 'Auth',
    summary: 'Create an account and sign in',
    auth: false,
    body: body(schemas.Credentials, { username: 'ada_l', password: 'analytical engine' }),
    response: { status: 201, description: 'The account and a token for it.', json: json(schemas.AuthResponse) },
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/auth/login',
    tag: 'Auth',
    summary: 'Sign in',
    description: 'Any wrong username or password is 401, with the same work done for an unknown user.',
    auth: false,
    body: body(schemas.LoginCredentials, { username: 'ada_l', password: 'analytical engine' }),
    response: { status: 200, description: 'A token.', json: json(schemas.AuthResponse) },
    errors: [401],
  },
  { method: 'get', path: '/api/me', tag: 'Auth', summary: 'The signed-in learner', auth: true, response: { status: 200, description: 'The learner.', json: json(schemas.LearnerResponse) } },
  {
    method: 'patch',
    path: '/api/me',
    tag: 'Auth',
    summary: "Change the learner's settings",
    auth: true,
    body: body(schemas.UpdateLearnerBody, { desiredRetention: 0.9 }),
    response: { status: 200, description: 'The learner as now stored.', json: json(schemas.LearnerResponse) },
  },
  // Account
  {
    method: 'post',
    path: '/api/me/password',
    tag: 'Account',
    summary: 'Change your password',
    description: 'Every token issued before is refused afterwards; the answer carries a fresh one for this device.',
    auth: true,
    body: body(schemas.ChangePasswordBody, { currentPassword: 'analytical engine', newPassword: 'difference engine no. 2' }),
    response: { status: 200, description: 'A new token.', json: json(schemas.AuthResponse) },
  },
  { method: 'post', path: '/api/me/sign-out-everywhere', tag: 'Account', summary: 'Refuse every token issued so far', auth: true, response: { status: 204, description: 'Signed out everywhere.' } },
  {
    method: 'get',
    path: '/api/me/export',
    tag: 'Account',
    summary: 'Export every piece of your data',
    auth: true,
    response: { status: 200, description: 'One JSON document (sent as an attachment).', json: json(schemas.AccountExport) },
  },
  {
    method: 'delete',
    path: '/api/me',
    tag: 'Account',
    summary: 'Delete your account and everything of it',
    auth: true,
    body: body(schemas.DeleteAccountBody, { confirmUsername: 'ada_l' }),
    response: { status: 204, description: 'Deleted.' },
  },
  // Recall sets
  { method: 'get', path: '/api/recall-sets', tag: 'Recall sets', summary: 'Your recall sets with due counts', auth: true, response: { status: 200, description: 'Most recently updated first.', json: json(schemas.RecallSetList) } },
  {
    method: 'post',
    path: '/api/recall-sets',
    tag: 'Recall sets',
    summary: 'Create a recall set',
    auth: true,
    body: body(schemas.CreateRecallSetBody, {
      name: 'European capitals',
      description: 'One capital per country',
      points: [{ content: 'Paris is the capital of France' }, { content: 'Rome is the capital of Italy', context: 'Lazio' }],
    }),
    response: { status: 201, description: 'The set with its points.', json: json(schemas.RecallSetDetail) },
  },
  {
    method: 'post',
    path: '/api/recall-sets/import',
    tag: 'Recall sets',
    summary: 'Create a recall set from Markdown or CSV text',
    auth: true,
    body: body(schemas.ImportRecallSetBody, { format: 'markdown', text: '# European capitals\n\n- Paris is the capital of France\n- Rome is the capital of Italy\n' }),
    response: { status: 201, description: 'The set with its points.', json: json(schemas.RecallSetDetail) },
  },
  {
    method: 'post',
    path: '/api/recall-sets/import/preview',
    tag: 'Recall sets',
    summary: 'Preview an import: the points it would create and the rows it would skip',
    description: 'Markdown, CSV, Anki text, or an Anki `.apkg` as base64. Nothing is stored.',
    auth: true,
    body: body(schemas.ImportSourceBody, { format: 'csv', text: 'content,context\nParis is the capital of France,Europe\n' }),
    response: { status: 200, description: 'The preview.', json: json(schemas.ImportPreview) },
  },
  {
    method: 'post',
    path: '/api/recall-sets/import/file',
    tag: 'Recall sets',
    summary: 'Create a recall set from Markdown, CSV, Anki text or an Anki package',
    auth: true,
    body: body(schemas.ImportSourceBody),
    response: { status: 201, description: 'The set with its points.', json: json(schemas.RecallSetDetail) },
  },
  {
    method: 'get',
    path: '/api/recall-sets/{id}/export',
    tag: 'Recall sets',
    summary: 'Export a recall set as CSV or Anki text',
    auth: true,
    params: idParams,
    query: exportQuery,
    response: { status: 200, description: 'The file (sent as an attachment).', text: ['text/csv', 'text/plain'] },
    errors: [404],
  },
  { method: 'get', path: '/api/recall-sets/{id}', tag: 'Recall sets', summary: 'One recall set with its points', auth: true, params: idParams, response: { status: 200, description: 'The set.', json: json(schemas.RecallSetDetail) }, errors: [404] },
  {
    method: 'put',
    path: '/api/recall-sets/{id}',
    tag: 'Recall sets',
    summary: 'Update a recall set',
    description: '`points` replaces the list; points sent with their id keep their schedule.',
    auth: true,
    params: idParams,
    body: body(schemas.UpdateRecallSetBody),
    response: { status: 200, description: 'The set as now stored.', json: json(schemas.RecallSetDetail) },
    errors: [404],
  },
  { method: 'delete', path: '/api/recall-sets/{id}', tag: 'Recall sets', summary: 'Delete a recall set with its points and schedules', auth: true, params: idParams, response: { status: 204, description: 'Deleted.' }, errors: [404] },
  {
    method: 'get',
    path: '/api/cards',
    tag: 'Recall sets',
    summary: 'Your FSRS state per point of a set',
    auth: true,
    query: cardsQuery,
    response: { status: 200, description: 'One card per point; points never reviewed show as new.', json: json(schemas.CardList) },
    errors: [404],
  },
  // Study plans
  { method: 'get', path: '/api/study-plans', tag: 'Study plans', summary: 'Your plans, shared plans and built-in plans', auth: true, response: { status: 200, description: 'The plans.', json: json(schemas.StudyPlanList) } },
  { method: 'post', path: '/api/study-plans', tag: 'Study plans', summary: 'Create a study plan', auth: true, body: body(schemas.StudyPlanBody), response: { status: 201, description: 'The plan.', json: json(schemas.StudyPlanDetail) } },
  {
    method: 'post',
    path: '/api/study-plans/import',
    tag: 'Study plans',
    summary: 'Create a study plan from Markdown with front matter',
    auth: true,
    body: body(schemas.StudyPlanImportBody),
    response: { status: 201, description: 'The plan.', json: json(schemas.StudyPlanDetail) },
  },
  { method: 'get', path: '/api/study-plans/{id}', tag: 'Study plans', summary: 'One study plan', auth: true, params: idParams, response: { status: 200, description: 'The plan.', json: json(schemas.StudyPlanDetail) }, errors: [404] },
  {
    method: 'put',
    path: '/api/study-plans/{id}',
    tag: 'Study plans',
    summary: 'Replace a study plan you wrote',
    auth: true,
    params: idParams,
    body: body(schemas.StudyPlanBody),
    response: { status: 200, description: 'The plan as now stored.', json: json(schemas.StudyPlanDetail) },
    errors: [403, 404],
  },
  { method: 'delete', path: '/api/study-plans/{id}', tag: 'Study plans', summary: 'Delete a study plan you wrote', auth: true, params: idParams, response: { status: 204, description: 'Deleted.' }, errors: [403, 404] },
  // Surveys
  { method: 'get', path: '/api/surveys', tag: 'Surveys', summary: 'Your surveys, shared surveys and built-in surveys', auth: true, response: { status: 200, description: 'The surveys.', json: json(schemas.SurveyList) } },
  { method: 'post', path: '/api/surveys', tag: 'Surveys', summary: 'Create a survey', auth: true, body: body(schemas.SurveyBody), response: { status: 201, description: 'The survey.', json: json(schemas.SurveyDetail) } },
  { method: 'get', path: '/api/surveys/{id}', tag: 'Surveys', summary: 'One survey', auth: true, params: idParams, response: { status: 200, description: 'The survey.', json: json(schemas.SurveyDetail) }, errors: [404] },
  {
    method: 'put',
    path: '/api/surveys/{id}',
    tag: 'Surveys',
    summary: 'Replace a survey you wrote',
    auth: true,
    params: idParams,
    body: body(schemas.SurveyBody),
    response: { status: 200, description: 'The survey as now stored.', json: json(schemas.SurveyDetail) },
    errors: [403, 404],
  },
  { method: 'delete', path: '/api/surveys/{id}', tag: 'Surveys', summary: 'Delete a survey you wrote', auth: true, params: idParams, response: { status: 204, description: 'Deleted.' }, errors: [403, 404] },
  {
    method: 'get',
    path: '/api/surveys/{id}/results',
    tag: 'Surveys',
    summary: "A survey's results (its author only)",
    auth: true,
    params: idParams,
    query: resultsQuery,
    response: { status: 200, description: 'The results, as JSON or (`format=csv`) a CSV file.', json: json(schemas.SurveyResults), text: ['text/csv'] },
    errors: [403, 404],
  },
  // Scheduler
  { method: 'get', path: '/api/me/scheduler', tag: 'Scheduler', summary: 'Your FSRS parameters, optimiser state and runs', auth: true, response: { status: 200, description: 'The scheduler status.', json: json(schemas.SchedulerStatus) } },
  {
    method: 'post',
    path: '/api/me/scheduler/optimize',
    tag: 'Scheduler',
    summary: 'Queue an optimisation of your FSRS parameters',
    auth: true,
    response: { status: 202, description: 'Queued (or already running); the status.', json: json(schemas.SchedulerStatus) },
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/me/scheduler/simulate',
    tag: 'Scheduler',
    summary: 'Forecast reviews per day and knowledge kept per desired retention',
    auth: true,
    body: body(schemas.SimulateBody),
    response: { status: 200, description: 'The forecast.', json: json(schemas.SimulationResponse) },
  },
  // Sessions
  { method: 'get', path: '/api/blueprints', tag: 'Sessions', summary: 'Assessments you can start', auth: true, response: { status: 200, description: 'The blueprints.', json: json(schemas.BlueprintList) } },
  {
    method: 'post',
    path: '/api/sessions',
    tag: 'Sessions',
    summary: 'Start a session',
    auth: true,
    body: body(schemas.CreateSessionBody, { type: 'recall', recallSetId: '0b6f3c52-1f0e-4a8e-8d7c-3e2a9b41c5d0' }),
    response: { status: 201, description: 'The new session; talk to it over the WebSocket or `POST /api/sessions/{id}/step`.', json: json(schemas.CreateSessionResponse, { sessionId: exampleSessionId }) },
    errors: [404],
  },
  { method: 'get', path: '/api/sessions', tag: 'Sessions', summary: 'Your sessions, newest first', auth: true, response: { status: 200, description: 'The sessions.', json: json(schemas.SessionList) } },
  { method: 'get', path: '/api/sessions/{id}', tag: 'Sessions', summary: 'A session and its state', auth: true, params: idParams, response: { status: 200, description: 'The session.', json: json(schemas.SessionDetail) }, errors: [403, 404] },
  { method: 'get', path: '/api/sessions/{id}/replay', tag: 'Sessions', summary: 'The visible conversation in order', auth: true, params: idParams, response: { status: 200, description: 'The messages.', json: json(schemas.SessionReplay) }, errors: [403, 404] },
  {
    method: 'get',
    path: '/api/sessions/{id}/summary',
    tag: 'Sessions',
    summary: 'The summary of an ended session',
    auth: true,
    params: idParams,
    response: { status: 200, description: 'The summary.', json: json(schemas.SessionSummaryResponse) },
    errors: [403, 404, 409],
  },
  {
    method: 'post',
    path: '/api/sessions/{id}/step',
    tag: 'Sessions',
    summary: 'One learner turn over HTTP',
    auth: true,
    params: idParams,
    body: body(schemas.StepBody, { message: 'Paris is the capital of France', clientMessageId: 'c-0001' }),
    response: { status: 200, description: "The tutor's reply, the state and, when the session ended, its summary.", json: json(schemas.StepResponse) },
    errors: [403, 404, 409, 429, 503],
  },
  { method: 'delete', path: '/api/sessions/{id}', tag: 'Sessions', summary: 'Delete a session and everything of it', auth: true, params: idParams, response: { status: 204, description: 'Deleted.' }, errors: [403, 404] },
  {
    method: 'get',
    path: '/api/sessions/{id}/agent-logs',
    tag: 'Sessions',
    summary: "A learning session's agent logs (its owner only)",
    auth: true,
    params: idParams,
    response: { status: 200, description: 'Every model call of the session, in order.', json: json(schemas.AgentLogList) },
    errors: [403, 404],
  },
  // Progress
  {
    method: 'get',
    path: '/api/sessions/history',
    tag: 'Progress',
    summary: 'Your sessions, paginated by cursor and filterable',
    description: 'Newest first. Pass `nextCursor` as `cursor` for the next page; `from`/`to` bound the creation time (inclusive; a date alone is the whole UTC day).',
    auth: true,
    query: SessionHistoryQuery,
    response: {
      status: 200,
      description: 'One page.',
      json: json(schemas.SessionHistory, {
        sessions: [
          {
            id: exampleSessionId,
            type: 'recall',
            status: 'completed',
            mode: 'recall',
            title: 'European capitals',
            recallSetId: '0b6f3c52-1f0e-4a8e-8d7c-3e2a9b41c5d0',
            recalledCount: 2,
            totalPoints: 2,
            createdAt: '2026-11-20T09:00:00.000Z',
            endedAt: '2026-11-20T09:06:30.000Z',
            turns: 3,
            durationSeconds: 390,
          },
        ],
        nextCursor: 'MTc2MzYyOTIwMDAwMC40ZjFjMmI5ZQ',
      }),
    },
  },
  {
    method: 'get',
    path: '/api/sessions/stats',
    tag: 'Progress',
    summary: 'Sessions and minutes by type, points recalled, reviews due, true retention, streak',
    auth: true,
    response: {
      status: 200,
      description: 'The figures, as of the server time.',
      json: json(schemas.ProgressStats, {
        asOf: '2026-11-20T12:00:00.000Z',
        timeZone: 'UTC',
        sessions: {
          total: 3,
          minutes: 24.5,
          byType: [
            { type: 'recall', sessions: 2, completed: 2, minutes: 12.5 },
            { type: 'assessment', sessions: 1, completed: 1, minutes: 12 },
            { type: 'learning', sessions: 0, completed: 0, minutes: 0 },
          ],
        },
        pointsRecalled: 5,
        reviews: { done: 9, dueNow: 2, dueToday: 3, dueNext7Days: 6, newPoints: 1 },
        retention: { windowDays: 30, reviews: 4, passed: 3, rate: 0.75 },
        streak: { current: 2, longest: 4, lastReviewDay: '2026-11-20' },
      }),
    },
  },
  {
    method: 'get',
    path: '/api/sessions/scorecard',
    tag: 'Progress',
    summary: 'Per recall set, study plan and assessment: recall rate, mastery per concept, best score and abilities',
    auth: true,
    response: { status: 200, description: 'The scorecard.', json: json(schemas.Scorecard) },
  },
  {
    method: 'get',
    path: '/api/sessions/subtopic-progress',
    tag: 'Progress',
    summary: 'A light map: concept → mastery and level',
    auth: true,
    response: {
      status: 200,
      description: 'Every concept of the plans you studied.',
      json: json(schemas.SubtopicProgress, {
        asOf: '2026-11-20T12:00:00.000Z',
        concepts: {
          'place value': { mastery: 0.875, level: 'mastered', studyPlanIds: ['place-value'] },
          carrying: { mastery: null, level: 'not_started', studyPlanIds: ['place-value'] },
        },
      }),
    },
  },
];

const errorDescriptions: Record<number, string> = {
  400: 'The body or query is invalid: the message names each field (`field: message`).',
  401: 'Missing, invalid or expired token (or, for login, a wrong username or password).',
  403: "Another learner's.",
  404: 'No such resource (another learner’s recall set answers as absent).',
  409: 'Conflicts with the current state (a taken username, a session not ended yet, a turn in progress).',
  429: 'Too many turns; `Retry-After` says when to try again.',
  503: 'The model provider is unavailable.',
};

/** The error statuses a route can answer with, from what it has. */
export function errorStatuses(route: ApiRoute): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.body || route.query) statuses.add(400);
  if (route.auth) statuses.add(401);
  return [...statuses].sort((a, b) => a - b);
}

const errorExample = { error: { code: 'invalid_payload', message: 'name: name is empty' } } satisfies z.input<typeof ApiErrorBody>;

function toRouteConfig(route: ApiRoute): RouteConfig {
  const errorContent = { 'application/json': { schema: schemas.ApiError } };
  const responses: RouteConfig['responses'] = {
    [route.response.status]: {
      description: route.response.description,
      ...(route.response.json || route.response.text
        ? {
            content: {
              ...(route.response.json
                ? { 'application/json': { schema: route.response.json.schema, ...(route.response.json.example !== undefined ? { example: route.response.json.example } : {}) } }
                : {}),
              ...Object.fromEntries((route.response.text ?? []).map((type) => [type, { schema: { type: 'string' as const } }])),
            },
          }
        : {}),
    },
  };
  for (const status of errorStatuses(route)) {
    responses[status] = { description: errorDescriptions[status] ?? 'Error.', content: status === 400 ? { 'application/json': { schema: schemas.ApiError, example: errorExample } } : errorContent };
  }
  responses.default = { description: 'Unexpected error (`internal`).', content: errorContent };
  return {
    method: route.method,
    path: route.path,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    operationId: operationId(route),
    ...(route.auth ? { security: [{ bearerAuth: [] }] } : { security: [] }),
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.body
        ? { body: { required: true, content: { 'application/json': { schema: route.body.schema, ...(route.body.example !== undefined ? { example: route.body.example } : {}) } } } }
        : {}),
    },
    responses,
  };
}

/** `get /api/sessions/{id}/replay` → `getSessionsIdReplay`: stable, unique per route. */
export function operationId(route: Pick<ApiRoute, 'method' | 'path'>): string {
  const words = route.path
    .replace(/^\/api\//, '')
    .split(/[/.{}-]+/)
    .filter(Boolean);
  return route.method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** The whole document (built once per server: it depends only on the code and the version). */
export function buildOpenApiDocument(version: string): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from `POST /api/auth/register` or `/api/auth/login`.' });
  for (const route of apiRoutes) registry.registerPath(toRouteConfig(route));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'tutorloop API',
      version,
      description: [
        'The HTTP API of tutorloop (JSON under `/api`). Every route but health, auth and these docs needs `Authorization: Bearer {jwt}`.',
        'Errors are `{error:{code,message}}` with the status that fits.',
        'Sessions are also driven over the WebSocket `/sessions/ws/{sessionId}?token={jwt}`, whose frames are specified separately (SPEC §5).',
      ].join('\n\n'),
    },
    security: [{ bearerAuth: [] }],
    tags: [...new Set(apiRoutes.map((route) => route.tag))].map((name) => ({ name })),
  });
}
