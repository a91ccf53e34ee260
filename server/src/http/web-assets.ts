/**
 * Serves the built web app (issue 27 item 5): the brotli or gzip copy the build wrote beside
 * each file when the browser accepts it (`preCompressed`), hashed assets cached for a year as
 * immutable (their name changes with their content), and the app shell revalidated on every
 * load so a new deployment is picked up at once. Client-side routes fall back to the shell;
 * unknown /api routes stay JSON 404s.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { noRouteMessage } from './routes';

/**
 * Vite writes only content-hashed files into assets/ (`<name>-<hash>.<ext>`, and our `.br`/`.gz`
 * copies of them); what sits at the root (index.html, public files) keeps its name across builds.
 */
export function cacheControlFor(webDist: string, filePath: string): string {
  const relative = path.relative(path.resolve(webDist), filePath);
  return relative.split(path.sep)[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function registerWebAssets(app: FastifyInstance, webDist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.resolve(webDist),
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => void reply.header('cache-control', cacheControlFor(webDist, filePath)),
  });
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.status(404).send({ error: { code: 'not_found', message: noRouteMessage(request.method, request.url) } });
    }
    return reply.sendFile('index.html');
  });
}
