/**
 * Serves the OpenAPI document (`GET /api/openapi.json`, SPEC §6) and the page that renders it
 * (`GET /api/docs`: plain HTML and script, no external assets), both without a token; and
 * records the routes Fastify registers, so a test can hold the document to them.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { buildOpenApiDocument } from './openapi';

/** A route as Fastify registered it: upper-case method, URL pattern in Fastify's form (`/api/sessions/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Records every route registered on `app` from now on (an `onRoute` hook, which encapsulated
 * scopes inherit). Call it before registering routes. HEAD routes Fastify adds for GET are left out.
 */
export function recordRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url });
    }
  });
  return routes;
}

const docsPage = readFileSync(new URL('./openapi-docs.html', import.meta.url), 'utf8');

export function registerOpenApiRoutes(app: FastifyInstance, options: { version: string }): void {
  // Built on first request, then kept: it depends only on the code and the version. Its
  // generator (zod-to-openapi) and route table are imported then too, so a server nobody asks
  // for the document never holds them (issue 27).
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get('/api/openapi.json', async () => {
    document ??= (await import('./openapi')).buildOpenApiDocument(options.version);
    return document;
  });
  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage));
}
