/**
 * The OpenAPI 3.1 document of the HTTP API (SPEC §6 `GET /api/openapi.json`), generated from
 * the shared zod schemas by @asteasolutions/zod-to-openapi — nothing in it is written by hand
 * but the route table (`openapi-table.ts`): which route takes and returns which shared schema,
 * with a summary. The named components and route types are in `openapi-schemas.ts`.
 *
 * Adding a route: add its entry to `apiRoutes`. `server/test/openapi.test.ts` lists the routes
 * Fastify registered and fails for any `/api` route without an entry (and for an entry
 * without a route), and checks that every example here validates against its schema.
 */
import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ApiErrorBody } from '@tutorloop/shared';
import { schemas, type ApiRoute } from './openapi-schemas';
import { apiRoutes } from './openapi-table';

export type { ApiRoute, HttpMethod, JsonContent } from './openapi-schemas';
export { apiRoutes } from './openapi-table';

const errorDescriptions: Record<number, string> = {
  400: 'The body or query is invalid: the message names each field (`field: message`).',
  401: 'Missing, invalid or expired token (or, for login, a wrong username or password).',
  403: "Another learner's.",
  404: 'No such resource (another learner’s recall set answers as absent).',
  409: 'Conflicts with the current state (a taken username, a session not ended yet, a turn in progress).',
  429: 'Too many requests (turns, new sessions, or failed sign-ins), or the day’s model tokens are spent; `Retry-After` says when to try again.',
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
      ...(route.response.json || route.response.text || route.response.ndjson
        ? {
            content: {
              ...(route.response.json
                ? { 'application/json': { schema: route.response.json.schema, ...(route.response.json.example !== undefined ? { example: route.response.json.example } : {}) } }
                : {}),
              ...Object.fromEntries((route.response.text ?? []).map((type) => [type, { schema: { type: 'string' as const } }])),
              // One schema per line: OpenAPI 3.1 has no type for a stream, so the description says it is one.
              ...(route.response.ndjson
                ? { 'application/x-ndjson': { schema: route.response.ndjson.schema, ...(route.response.ndjson.example !== undefined ? { example: route.response.ndjson.example } : {}) } }
                : {}),
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
