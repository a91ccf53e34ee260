/**
 * Reading a long document (SPEC §4.7, issue 26): the pages read are reported while a PDF is read
 * (`Accept: application/x-ndjson`), and a reading the learner cancels stops — the worker is free
 * for the next document at once, nothing is stored and the server logs no error. Real parts: the
 * worker with PDF.js, Chromium-printed fixtures, the real server on a loopback port.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProposeDocumentEvent, ProposeDocumentResponse } from '@tutorloop/shared';
import { cancelledMessage, createDocumentReader } from '../src/documents/document-reader';
import { captureLogs, type LogCapture } from './helpers/log-capture';
import { startTestServer, type TestServer } from './helpers/test-server';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/documents/${name}`, import.meta.url));

/** Loading a worker and reading a PDF on a busy shared machine: a limit on waiting, not a timed assertion. */
const pdfTestTimeoutMs = 240_000;

let logs: LogCapture;
let server: TestServer;
beforeAll(async () => {
  logs = captureLogs();
  server = await startTestServer({ env: { LOG_LEVEL: 'info' } });
});
afterAll(async () => {
  await server.close();
  logs.stop();
});

/** Posts a document asking for progress lines; `onEvent` sees each line as it arrives and may stop reading. */
async function proposeStreamed(token: string, body: unknown, onEvent: (event: ProposeDocumentEvent) => 'go on' | 'stop' = () => 'go on', signal?: AbortSignal) {
  const response = await fetch(`${server.url}/api/documents/propose`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });
  const events: ProposeDocumentEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const event = ProposeDocumentEvent.parse(JSON.parse(line));
      events.push(event);
      if (onEvent(event) === 'stop') return { status: response.status, type: response.headers.get('content-type'), events };
    }
  }
  return { status: response.status, type: response.headers.get('content-type'), events };
}

describe('progress while a PDF is read (issue 26)', () => {
  it('reports each page read, then the same answer a JSON client gets', async () => {
    const { token } = await server.register();
    const body = { format: 'pdf', data: fixture('article.pdf').toString('base64') };
    const streamed = await proposeStreamed(token, body);
    expect(streamed.status).toBe(200);
    expect(streamed.type).toBe('application/x-ndjson; charset=utf-8');
    expect(streamed.events.slice(0, -1)).toEqual([0, 1, 2, 3].map((pagesDone) => ({ type: 'progress', pagesDone, pages: 3 })));
    const last = streamed.events.at(-1);
    expect(last?.type).toBe('result');
    const plain = await server.api<ProposeDocumentResponse>('POST', '/api/documents/propose', { token, body });
    expect(plain.status).toBe(200);
    expect(last).toEqual({ type: 'result', result: plain.body });
  }, pdfTestTimeoutMs);

  it('ends a streamed reading of a broken file with an error line; pasted text has no progress lines', async () => {
    const { token } = await server.register();
    const broken = await proposeStreamed(token, { format: 'pdf', data: fixture('broken.pdf').toString('base64') });
    expect(broken.status).toBe(200);
    expect(broken.events).toEqual([{ type: 'error', error: { code: 'invalid_payload', message: expect.stringMatching(/^This file could not be read as a PDF/u) } }]);
    const pasted = await proposeStreamed(token, { format: 'text', text: 'Basalt is a dark volcanic rock.' });
    expect(pasted.events).toEqual([{ type: 'result', result: { proposals: [{ content: 'Basalt is a dark volcanic rock.', source: { quote: 'Basalt is a dark volcanic rock.' } }], pages: null, warnings: [] } }]);
    // A refusal before reading starts is still a plain JSON error with its status.
    const empty = await fetch(`${server.url}/api/documents/propose`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify({ format: 'text', text: '' }),
    });
    expect({ status: empty.status, body: await empty.json() }).toEqual({ status: 400, body: { error: { code: 'invalid_payload', message: 'text: text is empty' } } });
  }, pdfTestTimeoutMs);
});

describe('a cancelled reading (issue 26)', () => {
  it('stops the worker between pages and frees it: the next document is read at once', async () => {
    // One worker, nobody may wait: a second document is refused as busy unless the first let go.
    const reader = createDocumentReader({ concurrency: 1, maxWaiting: 0 });
    const controller = new AbortController();
    const seen: number[] = [];
    const cancelled = await reader.extract(
      { format: 'pdf', bytes: new Uint8Array(fixture('long-300-pages.pdf')) },
      {
        signal: controller.signal,
        onProgress: (pagesDone) => {
          seen.push(pagesDone);
          if (pagesDone === 5) controller.abort();
        },
      },
    );
    expect(cancelled).toEqual({ ok: false, error: cancelledMessage });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    const next = await reader.extract({ format: 'pdf', bytes: new Uint8Array(fixture('article.pdf')) });
    expect(next.ok && next.value.pages).toBe(3);
  }, pdfTestTimeoutMs);

  it('over HTTP: the learner leaves mid-reading, the server stores nothing, logs no error and reads the next document', async () => {
    const { token } = await server.register();
    const controller = new AbortController();
    const long = { format: 'pdf', data: fixture('long-300-pages.pdf').toString('base64') };
    const left = await proposeStreamed(token, long, (event) => (event.type === 'progress' && event.pagesDone >= 3 ? 'stop' : 'go on'), controller.signal);
    controller.abort();
    expect(left.events.at(-1)).toEqual({ type: 'progress', pagesDone: expect.any(Number), pages: 300 });

    // A JSON client that gives up while the long PDF is read.
    const plainController = new AbortController();
    const plain = fetch(`${server.url}/api/documents/propose`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(long),
      signal: plainController.signal,
    }).catch((error: unknown) => error);
    // Leaving after a moment: whether the server is still taking the body in or already reading, it is no error.
    await new Promise((resolve) => setTimeout(resolve, 300));
    plainController.abort();
    expect(await plain).toBeInstanceOf(Error);

    const next = await proposeStreamed(token, { format: 'pdf', data: fixture('article.pdf').toString('base64') });
    expect(next.events.at(-1)?.type).toBe('result');
    const sets = await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token });
    expect(sets.body.recallSets).toEqual([]);
    expect(logs.errors()).toEqual([]);
  }, pdfTestTimeoutMs);
});
