import { describe, expect, it } from 'vitest';
import { createHttpClient } from './http-client';

interface Call {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
}

function fakeFetch(respond: (call: Call) => Response) {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const call: Call = {
      url: String(input),
      method: init?.method,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return respond(call);
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('http client', () => {
  it('sends the bearer token and JSON body, and returns the parsed value', async () => {
    const { fetch, calls } = fakeFetch(() => json(201, { sessionId: 'sess_9' }));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    const result = await http.createSession({ type: 'recall', recallSetId: 'rs_1' });
    expect(result).toEqual({ ok: true, value: { sessionId: 'sess_9' } });
    expect(calls).toEqual([
      {
        url: '/api/sessions',
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer tok' },
        body: { type: 'recall', recallSetId: 'rs_1' },
      },
    ]);
  });

  it('surfaces the server’s error message', async () => {
    const { fetch } = fakeFetch(() =>
      json(400, { error: { code: 'bad_request', message: 'password must be at least 8 characters' } }),
    );
    const http = createHttpClient({ getToken: () => null, fetch });
    expect(await http.register({ username: 'ada', password: 'short' })).toEqual({
      ok: false,
      error: { status: 400, code: 'bad_request', message: 'password must be at least 8 characters' },
    });
  });

  it('keeps the message of an error code this client does not know', async () => {
    const { fetch } = fakeFetch(() => json(422, { error: { code: 'too_many_points', message: 'At most 500 points.' } }));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    const result = await http.createRecallSet({ name: 'x', points: [] });
    expect(result).toEqual({ ok: false, error: { status: 422, code: 'too_many_points', message: 'At most 500 points.' } });
  });

  it('signs out on a 401 to an authenticated request, but not on a failed login', async () => {
    let signedOut = 0;
    const { fetch, calls } = fakeFetch(() => json(401, { error: { code: 'unauthorized', message: 'Wrong username or password.' } }));
    const http = createHttpClient({ getToken: () => 'stale', fetch, onUnauthorized: () => (signedOut += 1) });
    const login = await http.login({ username: 'ada', password: 'wrong-password' });
    expect(login.ok).toBe(false);
    expect(calls[0]?.headers.Authorization).toBeUndefined();
    expect(signedOut).toBe(0);
    await http.listRecallSets();
    expect(signedOut).toBe(1);
  });

  it('handles 204, non-JSON errors and network failures', async () => {
    const responses = [
      new Response(null, { status: 204 }),
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    ];
    const { fetch, calls } = fakeFetch(() => responses.shift() ?? json(200, {}));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    expect(await http.deleteRecallSet('rs 1')).toEqual({ ok: true, value: undefined });
    expect(calls[0]?.url).toBe('/api/recall-sets/rs%201');
    expect(await http.getRecallSet('rs_1')).toEqual({
      ok: false,
      error: { status: 502, code: 'http_error', message: 'The server answered 502 Bad Gateway.' },
    });
    const offline = createHttpClient({
      getToken: () => 'tok',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await offline.health()).toEqual({
      ok: false,
      error: { status: 0, code: 'network', message: 'Could not reach the server. Check your connection and try again.' },
    });
  });

  it('saves settings with PATCH /api/me and reads the learner from its { learner } answer', async () => {
    const learner = { id: 'l1', username: 'ada', createdAt: '2025-01-01T00:00:00.000Z', desiredRetention: 0.85 };
    const responses = [json(200, { learner }), json(200, { learner }), json(200, learner)];
    const { fetch, calls } = fakeFetch(() => responses.shift() ?? json(200, {}));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    expect(await http.updateMe({ desiredRetention: 0.85 })).toEqual({ ok: true, value: learner });
    expect(calls[0]).toEqual({
      url: '/api/me',
      method: 'PATCH',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer tok' },
      body: { desiredRetention: 0.85 },
    });
    expect(await http.updateMe({ desiredRetention: 0.85 })).toEqual({ ok: true, value: learner });
    expect(await http.updateMe({ desiredRetention: 0.85 })).toEqual({
      ok: false,
      error: { status: 200, code: 'http_error', message: 'The server sent an unexpected answer.' },
    });
  });

  it('asks for the cards of one set and for the blueprints', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { cards: [] }));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    await http.listCards('rs 1&x');
    await http.listBlueprints();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/cards?recallSetId=rs%201%26x',
      'GET /api/blueprints',
    ]);
  });

  it('reads the scheduler with the shared schemas: optimise, simulate, and an answer of another shape refused', async () => {
    const scheduler = {
      desiredRetention: 0.9,
      parameters: { weights: [0.2], source: 'default', run: null },
      reviewCount: 12,
      thresholds: { automatic: 400, manual: 100 },
      optimization: { state: 'queued', progress: null, error: null },
      runs: [],
    };
    const simulation = { days: 30, cardCount: 2, points: [{ retention: 0.9, reviewsPerDay: 0.5, totalReviews: 15, knowledgeRetained: 1.8, retainedShare: 0.9 }] };
    const answers = [json(202, { ...scheduler, newerField: true }), json(200, simulation), json(200, { parameters: 'no' })];
    const { fetch, calls } = fakeFetch(() => answers.shift()!);
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    expect(await http.optimizeScheduler()).toEqual({ ok: true, value: scheduler });
    expect(await http.simulateScheduler({ retentions: [0.9], days: 30 })).toEqual({ ok: true, value: simulation });
    expect(await http.getScheduler()).toEqual({
      ok: false,
      error: { status: 200, code: 'http_error', message: 'The server sent an unexpected answer.' },
    });
    expect(calls.map((call) => [`${call.method} ${call.url}`, call.body])).toEqual([
      ['POST /api/me/scheduler/optimize', undefined],
      ['POST /api/me/scheduler/simulate', { retentions: [0.9], days: 30 }],
      ['GET /api/me/scheduler', undefined],
    ]);
  });

  it('proposes points of a document, and a cancelled request ends as `aborted`, not as a lost connection', async () => {
    const answer = { proposals: [{ content: 'Rain is water falling from clouds.', source: { page: 2, quote: 'Rain is water falling from clouds.' } }], pages: 3, warnings: [] };
    const { fetch, calls } = fakeFetch(() => json(200, answer));
    const http = createHttpClient({ getToken: () => 'tok', fetch });
    expect(await http.proposeDocument({ format: 'markdown', text: '# Rain' })).toEqual({ ok: true, value: answer });
    expect(calls.map((call) => [`${call.method} ${call.url}`, call.body])).toEqual([['POST /api/documents/propose', { format: 'markdown', text: '# Rain' }]]);

    const controller = new AbortController();
    // A fetch that fails the way the browser's does once its signal is aborted.
    const abortable: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const cancelled = createHttpClient({ getToken: () => 'tok', fetch: abortable }).proposeDocument({ format: 'text', text: 'notes' }, controller.signal);
    controller.abort();
    expect(await cancelled).toEqual({ ok: false, error: { status: 0, code: 'aborted', message: 'Cancelled.' } });
  });
});
