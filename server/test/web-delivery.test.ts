/**
 * The built web app goes out compressed and cached the way a browser needs (issue 27 item 5):
 * the build's brotli or gzip copy by the request's Accept-Encoding, hashed assets immutable for a
 * year, the app shell revalidated on every load.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web delivery', () => {
  const webDist = mkdtempSync(path.join(tmpdir(), 'tutorloop-web-dist-'));
  const script = `console.log(${JSON.stringify('a learner reviews '.repeat(400))});\n`;
  const shell = `<!doctype html><html><head><title>tutorloop</title><script type="module" src="/assets/index-Ab3_x-9Z.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`;
  let server: TestServer;

  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), shell);
    const asset = path.join(webDist, 'assets', 'index-Ab3_x-9Z.js');
    writeFileSync(asset, script);
    writeFileSync(`${asset}.br`, brotliCompressSync(script));
    writeFileSync(`${asset}.gz`, gzipSync(script));
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const response = await get(`${server.url}/assets/index-Ab3_x-9Z.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.body).toString()).toBe(script);
    expect(response.body.length).toBeLessThan(script.length / 4);
  });

  it('falls back to gzip, then to the file itself', async () => {
    const gzip = await get(`${server.url}/assets/index-Ab3_x-9Z.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(script);
    const plain = await get(`${server.url}/assets/index-Ab3_x-9Z.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates the app shell on every load, at / and at a client-side route', async () => {
    for (const route of ['/', '/index.html', '/sets/123']) {
      const response = await get(`${server.url}${route}`, { 'accept-encoding': 'br' });
      expect(response.status, route).toBe(200);
      expect(response.headers['cache-control'], route).toBe('no-cache');
      expect(response.body.toString(), route).toContain('<div id="root">');
    }
  });

  it('keeps unknown API routes as JSON 404s', async () => {
    const response = await get(`${server.url}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString())).toMatchObject({ error: { code: 'not_found' } });
  });
});
