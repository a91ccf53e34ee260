/**
 * Issue 22 / SPEC §8: every response of the real server carries the Content-Security-Policy
 * and the other security headers — JSON answers, errors the router or a route gives, the
 * static web app (shell, assets, client-route fallback, 304s), and the API docs page, whose
 * inline script and style are allowed by their hashes on that page only.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../src/http/security-headers';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
let webDist: string;
let host: string;

beforeAll(async () => {
  // A built web app in miniature: the shell and one asset, served by @fastify/static.
  webDist = mkdtempSync(path.join(tmpdir(), 'tutorloop-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>tutorloop</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log("app");');
  server = await startTestServer({ env: { WEB_DIST: webDist } });
  host = new URL(server.url).host;
});
afterAll(async () => {
  await server.close();
  rmSync(webDist, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (fetch may not set Host, nor send a malformed path). */
function send(method: string, route: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url);
    const request = httpRequest({ host: url.hostname, port: url.port, method, path: route, headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const security = (answer: Answer) => ({
  status: answer.status,
  'content-security-policy': answer.headers['content-security-policy'],
  'x-content-type-options': answer.headers['x-content-type-options'],
  'referrer-policy': answer.headers['referrer-policy'],
  'x-frame-options': answer.headers['x-frame-options'],
});

const expected = (status: number, policy = contentSecurityPolicy({ host })) => ({
  status,
  'content-security-policy': policy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
});

describe('security headers on every kind of response', () => {
  it('has the policy the issue asks for, the socket origin named', () => {
    expect(contentSecurityPolicy({ host })).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self' 'unsafe-inline'; style-src-attr 'none'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws://${host} wss://${host}; ` +
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('API answers: success, bad body, no token, unknown route, unreadable URL, oversized body, HEAD', async () => {
    const token = (await server.register()).token;
    const answers = {
      health: await send('GET', '/api/health'),
      mine: await send('GET', '/api/recall-sets', { headers: { authorization: `Bearer ${token}` } }),
      badBody: await send('POST', '/api/auth/register', { headers: { 'content-type': 'application/json' }, body: '{"username":' }),
      noToken: await send('GET', '/api/recall-sets'),
      unknown: await send('GET', '/api/no-such-route'),
      badUrl: await send('GET', '/api/sessions/%E0%A4%A'),
      tooLarge: await send('POST', '/api/auth/login', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'x'.repeat(1_100_000), password: 'y' }) }),
      head: await send('HEAD', '/api/health'),
      openapi: await send('GET', '/api/openapi.json'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, security(answer)]))).toEqual({
      health: expected(200),
      mine: expected(200),
      badBody: expected(400),
      noToken: expected(401),
      unknown: expected(404),
      badUrl: expected(400),
      tooLarge: expected(413),
      head: expected(200),
      openapi: expected(200),
    });
  });

  it('the web app: its shell, an asset, a client route, a missing file, a 304', async () => {
    const shell = await send('GET', '/');
    expect(shell.body).toContain('<title>tutorloop</title>');
    const asset = await send('GET', '/assets/app.js');
    expect(asset.body).toBe('console.log("app");');
    const etag = String(asset.headers.etag);
    const answers = {
      shell,
      asset,
      clientRoute: await send('GET', '/sessions/abc'),
      missing: await send('GET', '/assets/missing.js'),
      notModified: await send('GET', '/assets/app.js', { headers: { 'if-none-match': etag } }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, security(answer)]))).toEqual({
      shell: expected(200),
      asset: expected(200),
      clientRoute: expected(200),
      missing: expected(200),
      notModified: expected(304),
    });
  });

  it('the API docs page: its one inline script and one style allowed by hash, there only', async () => {
    const docs = await send('GET', '/api/docs');
    const inline = (tag: string) => {
      const start = docs.body.indexOf(`<${tag}>`) + tag.length + 2;
      return `'sha256-${createHash('sha256').update(docs.body.slice(start, docs.body.indexOf(`</${tag}>`, start))).digest('base64')}'`;
    };
    expect(security(docs)).toEqual(expected(200, contentSecurityPolicy({ host, scriptHashes: [inline('script')], styleHashes: [inline('style')] })));
    expect(docs.headers['content-security-policy']).toContain(`script-src 'self' ${inline('script')};`);
    expect(docs.headers['content-security-policy']).toContain(`style-src 'self' ${inline('style')}; style-src-elem 'self' ${inline('style')}; style-src-attr 'none';`);
  });

  it('names the socket origin only from a plain Host header, so a Host cannot add directives', async () => {
    const named = await send('GET', '/api/health', { headers: { host: 'tutor.example:8443' } });
    expect(named.headers['content-security-policy']).toContain("connect-src 'self' ws://tutor.example:8443 wss://tutor.example:8443;");
    const hostile = await send('GET', '/api/health', { headers: { host: "evil.example; script-src 'unsafe-inline' *" } });
    expect(security(hostile)).toEqual(expected(hostile.status, contentSecurityPolicy({})));
    expect(hostile.headers['content-security-policy']).toContain("connect-src 'self'; object-src");
  });
});
