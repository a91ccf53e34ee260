/**
 * The building blocks of the OpenAPI document (see `openapi.ts`): the types of a documented
 * route, the helpers that pair a schema with its example, and the shared zod schemas as named
 * components (`#/components/schemas/{name}`), with the params and queries the routes share.
 */
import { z } from 'zod';
import {
  AccountExport,
  AccountImportResult,
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
  ProposeDocumentBody,
  ProposeDocumentEvent,
  ProposeDocumentResponse,
  RecallSetDetail,
  RecallSetList,
  RunExamplesBody,
  RunExamplesResponse,
  Scorecard,
  SchedulerStatus,
  SessionDetail,
  SessionHistory,
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
  /**
   * The success response: JSON, and/or text types (an HTML page, a CSV or text file), and/or
   * `ndjson`: a stream of JSON lines, each valid against its schema, for a client that asks for it in `Accept`.
   */
  response: { status: number; description: string; json?: JsonContent; text?: ReadonlyArray<'text/html' | 'text/csv' | 'text/plain'>; ndjson?: JsonContent };
  /** Error statuses besides 400 (bad body or query), 401 (auth routes) and 500, which are added by what the route has. */
  errors?: readonly number[];
}

/** A body as the client sends it: the example is checked against the schema's input type. */
export function body<S extends z.ZodType>(schema: S, example?: z.input<S>): JsonContent {
  return example === undefined ? { schema } : { schema, example };
}

/** A response: the example is checked against the schema's output type. */
export function json<S extends z.ZodType>(schema: S, example?: z.output<S>): JsonContent {
  return example === undefined ? { schema } : { schema, example };
}

/**
 * A shared schema as a named component (`#/components/schemas/{name}`), through zod's own
 * metadata (`.meta({ id })`, which the generator reads). `.meta` returns a copy, so the shared
 * schema itself — and every JSON schema generated elsewhere from it — is left untouched.
 */
export function named<S extends z.ZodType>(schema: S, name: string): S {
  return schema.meta({ id: name }) as S;
}

/**
 * An agent log's `output` is `z.json()`, a recursive lazy schema that the generator cannot
 * expand; documented as any JSON value, the rest of the list as shared.
 */
const AgentLogListDocument = z.object({
  entries: z.array(AgentLogEntry.extend({ output: z.unknown().describe('The call\'s structured output, as JSON; null when there was none.') })),
});

export const idParams = z.object({ id: z.string().min(1).describe('The id, as returned when it was created.') });
export const itemParams = idParams.extend({ widgetId: z.string().min(1).describe('The pending code widget presenting the item (`widgetId` of its `widget` event).') });
export const cardsQuery = z.object({ recallSetId: z.string().min(1).describe('The recall set whose cards to list.') });
export const exportQuery = z.object({ format: ExportFormat.default('csv').describe('`csv` (content,context) or `anki` (Anki\'s text import format).') });
export const resultsQuery = z.object({ format: z.enum(['json', 'csv']).default('json').describe('`csv` answers a CSV file (one row per response) instead of JSON.') });

export const schemas = {
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
  AccountImportResult: named(AccountImportResult, 'AccountImportResult'),
  SurveyList: named(SurveyList, 'SurveyList'),
  SurveyDetail: named(SurveyDetail, 'SurveyDetail'),
  SurveyBody: named(SurveyBody, 'SurveyBody'),
  SurveyResults: named(SurveyResults, 'SurveyResults'),
  ImportSourceBody: named(ImportSourceBody, 'ImportSourceBody'),
  ImportPreview: named(ImportPreview, 'ImportPreview'),
  RunExamplesBody: named(RunExamplesBody, 'RunExamplesBody'),
  RunExamplesResponse: named(RunExamplesResponse, 'RunExamplesResponse'),
  ProposeDocumentBody: named(ProposeDocumentBody, 'ProposeDocumentBody'),
  ProposeDocumentResponse: named(ProposeDocumentResponse, 'ProposeDocumentResponse'),
  ProposeDocumentEvent: named(ProposeDocumentEvent, 'ProposeDocumentEvent'),
};

/** Any JSON object: the OpenAPI document itself is not described by a shared schema. */
export const openApiObject = z.record(z.string(), z.unknown());

export const exampleSessionId = '4f1c2b9e-7d3a-4c1e-9a55-2b8e6f0d1a77';

