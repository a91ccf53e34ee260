import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../protocol/api-client';
import { openSession } from './open-session';

/** A stand-in server that knows no blueprints route, or one blueprint. */
function blueprintServer(route: 'missing' | 'one'): Server {
  return createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (route === 'missing') {
      response.writeHead(404).end(JSON.stringify({ error: { code: 'not_found', message: `No route ${request.method} ${request.url}.` } }));
      return;
    }
    const blueprint = { id: 'NET-L1', title: 'Networking', description: '', domains: ['net'], sections: [{ id: 's', title: 'S', domain: 'net', itemCount: 5 }], totalItems: 5, timeLimitSeconds: 600, selection: 'fixed', itemKinds: ['multiple_choice'] };
    response.writeHead(200).end(JSON.stringify({ blueprints: [blueprint] }));
  });
}

describe('opening an assessment session', () => {
  const servers: Server[] = [];
  const start = async (route: 'missing' | 'one') => {
    const server = blueprintServer(route);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'token');
  };
  afterAll(async () => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('fails clearly on a server without assessment support', async () => {
    expect(await openSession(await start('missing'), { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1' })).toEqual({
      ok: false,
      error: 'this server does not support assessment sessions (GET /api/blueprints → 404 not_found: No route GET /api/blueprints.)',
    });
  });

  it('fails clearly on a server without study plans (learning sessions)', async () => {
    expect(await openSession(await start('missing'), { type: 'learning', studyPlanId: 'ipv4-subnetting' })).toEqual({
      ok: false,
      error: 'this server does not support learning sessions (GET /api/study-plans → 404 not_found: No route GET /api/study-plans.)',
    });
  });

  it('names the blueprints a server has when the one asked for is missing', async () => {
    expect(await openSession(await start('one'), { type: 'assessment', blueprintId: 'MATH-FUNDAMENTALS-L1' })).toEqual({
      ok: false,
      error: 'this server has no blueprint "MATH-FUNDAMENTALS-L1" (available: NET-L1)',
    });
  });
});
