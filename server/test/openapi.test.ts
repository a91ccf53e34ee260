/**
 * `GET /api/openapi.json` (SPEC §6) on the real server: every route Fastify registered under
 * /api is in the document and nothing else is, the documented examples validate against the
 * shared schemas (and the server accepts the example bodies), and `/api/docs` serves the page.
 * A route added later without an entry in server/src/http/openapi.ts fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '@tutorloop/shared';
import { apiRoutes } from '../src/http/openapi';
import { startTestServer, type TestServer } from './helpers/test-server';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { example?: unknown; schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; schema?: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

let server: TestServer;
let document: Document;
beforeAll(async () => {
  server = await startTestServer();
  const response = await server.api<Document>('GET', '/api/openapi.json');
  expect(response.status).toBe(200);
  document = response.body;
});
afterAll(async () => {
  await server.close();
});

/** Fastify's `/api/sessions/:id` as OpenAPI writes it. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const methods = ['get', 'post', 'put', 'patch', 'delete'];

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the whole API, served without a token', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'tutorloop API', version: '0.1.0' });
    expect(document.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const name of ['ApiError', 'SessionHistory', 'ProgressStats', 'Scorecard', 'SubtopicProgress', 'CreateSessionBody']) {
      expect(Object.keys(document.components.schemas)).toContain(name);
    }
  });

  it('lists every route the server registered under /api, and only those', () => {
    const registered = server.server.routes
      .filter((route) => route.url.startsWith('/api/'))
      .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`);
    expect(registered.length).toBeGreaterThan(30);
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => methods.includes(key)).map((method) => `${method} ${path}`));
    const undocumented = registered.filter((route) => !documented.includes(route));
    expect(undocumented, 'routes without an entry in server/src/http/openapi.ts').toEqual([]);
    const unregistered = documented.filter((route) => !registered.includes(route));
    expect(unregistered, 'documented routes the server does not have').toEqual([]);
  });

  it('documents each operation completely: a unique id, its path parameters, auth and the error body', () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.operationId).toEqual(expect.any(String));
        expect(ids.has(operation.operationId!)).toBe(false);
        ids.add(operation.operationId!);
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])) {
          expect(operation.parameters, `${method} ${path}`).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
        }
        const route = apiRoutes.find((entry) => entry.method === method && entry.path === path)!;
        expect(operation.security).toEqual(route.auth ? [{ bearerAuth: [] }] : []);
        if (route.auth) expect(operation.responses['401']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ApiError' });
        expect(operation.responses.default?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ApiError' });
      }
    }
    // The history query comes from the shared schema: every parameter, none required.
    expect(document.paths['/api/sessions/history']!.get!.parameters!.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['cursor', 'query', false],
      ['limit', 'query', false],
      ['type', 'query', false],
      ['status', 'query', false],
      ['from', 'query', false],
      ['to', 'query', false],
    ]);
  });

  it('carries examples that validate against their shared schemas', () => {
    const examples = apiRoutes.flatMap((route) => [
      ...(route.body?.example !== undefined ? [{ where: `${route.method} ${route.path} body`, schema: route.body.schema, example: route.body.example, inDocument: document.paths[route.path]![route.method]!.requestBody!.content['application/json']!.example }] : []),
      ...(route.response.json?.example !== undefined
        ? [{ where: `${route.method} ${route.path} ${route.response.status}`, schema: route.response.json.schema, example: route.response.json.example, inDocument: document.paths[route.path]![route.method]!.responses[String(route.response.status)]!.content!['application/json']!.example }]
        : []),
    ]);
    expect(examples.length).toBeGreaterThanOrEqual(8);
    for (const { where, schema, example, inDocument } of examples) {
      const parsed = schema.safeParse(example);
      expect(parsed.success, `${where}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
      expect(inDocument, where).toEqual(example);
    }
    const errorExample = document.paths['/api/recall-sets']!.post!.responses['400']!.content!['application/json']!.example;
    expect(ApiErrorBody.safeParse(errorExample).success).toBe(true);
  });

  it('documents request bodies the server accepts as they are', async () => {
    const example = (method: string, path: string) => document.paths[path]![method]!.requestBody!.content['application/json']!.example;
    const registered = await server.api<{ token: string }>('POST', '/api/auth/register', { body: example('post', '/api/auth/register') });
    expect(registered.status).toBe(201);
    expect((await server.api('POST', '/api/auth/login', { body: example('post', '/api/auth/login') })).status).toBe(200);
    const token = registered.body.token;
    expect((await server.api('POST', '/api/recall-sets', { token, body: example('post', '/api/recall-sets') })).status).toBe(201);
    expect((await server.api('POST', '/api/recall-sets/import', { token, body: example('post', '/api/recall-sets/import') })).status).toBe(201);
    expect((await server.api('POST', '/api/recall-sets/import/preview', { token, body: example('post', '/api/recall-sets/import/preview') })).status).toBe(200);
    expect((await server.api('PATCH', '/api/me', { token, body: example('patch', '/api/me') })).status).toBe(200);
    const changed = await server.api<{ token: string }>('POST', '/api/me/password', { token, body: example('post', '/api/me/password') });
    expect(changed.status).toBe(200);
    expect((await server.api('DELETE', '/api/me', { token: changed.body.token, body: example('delete', '/api/me') })).status).toBe(204);
  });
});

describe('GET /api/docs', () => {
  it('serves the page that renders the document, with no external asset', async () => {
    const response = await fetch(`${server.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<main id="operations"');
    expect(html).toContain("fetch('./openapi.json'");
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
  });
});
