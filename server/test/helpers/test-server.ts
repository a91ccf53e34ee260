/**
 * Starts the real server (HTTP + ws + SQLite file) on a free loopback port with a
 * temporary data folder, and offers small typed clients for REST and WebSocket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { parseServerEvent, type AuthResponse, type ClientMessage, type RecallSetDetail, type ServerEvent } from '@tutorloop/shared';
import { parseConfig } from '../../src/config';
import type { Clock } from '../../src/core/ports';
import type { TutorProvider } from '../../src/core/provider';
import { startServer, type RunningServer, type ServerOverrides } from '../../src/server';

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  api<T = unknown>(method: string, route: string, options?: { token?: string; body?: unknown; raw?: string }): Promise<{ status: number; body: T }>;
  register(username?: string): Promise<AuthResponse>;
  createSet(token: string, points: string[], name?: string): Promise<RecallSetDetail>;
  createSession(token: string, recallSetId: string): Promise<string>;
  connect(sessionId: string, token: string | null): Promise<SocketClient>;
  close(): Promise<void>;
}

let userCounter = 0;

export async function startTestServer(
  options: { provider?: TutorProvider; clock?: Clock; env?: Record<string, string>; dataDir?: string; sessionDeps?: ServerOverrides['sessionDeps'] } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tutorloop-test-'));
  const config = parseConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', LLM_PROVIDER: 'offline', WEB_DIST: '', ...options.env });
  if (!config.ok) throw new Error(config.error);
  const server = await startServer(config.value, {
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sessionDeps ? { sessionDeps: options.sessionDeps } : {}),
  });
  const url = server.url;

  const api: TestServer['api'] = async (method, route, request = {}) => {
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    let body: string | undefined;
    if (request.raw !== undefined) {
      body = request.raw;
      headers['content-type'] = 'application/json';
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${url}${route}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as never };
  };

  const testServer: TestServer = {
    server,
    url,
    dataDir,
    api,
    async register(username) {
      userCounter += 1;
      const response = await api<AuthResponse>('POST', '/api/auth/register', {
        body: { username: username ?? `learner${process.pid}x${userCounter}`, password: 'correct horse battery' },
      });
      if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async createSet(token, points, name = 'Test set') {
      const response = await api<RecallSetDetail>('POST', '/api/recall-sets', {
        token,
        body: { name, points: points.map((content) => ({ content })) },
      });
      if (response.status !== 201) throw new Error(`createSet failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async createSession(token, recallSetId) {
      const response = await api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'recall', recallSetId } });
      if (response.status !== 201) throw new Error(`createSession failed: ${JSON.stringify(response.body)}`);
      return response.body.sessionId;
    },
    connect(sessionId, token) {
      const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
      return SocketClient.open(`${url.replace('http', 'ws')}/sessions/ws/${sessionId}${query}`);
    },
    async close() {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testServer;
}

/** A ws client that records every event and lets a test wait for one. */
export class SocketClient {
  readonly events: ServerEvent[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const event = parseServerEvent(data.toString());
      if (event) this.events.push(event);
      this.notify();
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      this.notify();
    });
  }

  static open(url: string): Promise<SocketClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const client = new SocketClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  send(message: ClientMessage): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): void {
    this.socket.send(data, { binary: options.binary ?? false });
  }

  /** Waits until `predicate` holds over the events (from index `from`), or fails after `timeoutMs`. */
  async waitFor<T extends ServerEvent['type']>(
    type: T,
    options: { from?: number; where?: (event: Extract<ServerEvent, { type: T }>) => boolean; timeoutMs?: number } = {},
  ): Promise<Extract<ServerEvent, { type: T }>> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      const found = this.events
        .slice(options.from ?? 0)
        .find((event): event is Extract<ServerEvent, { type: T }> => event.type === type && (!options.where || options.where(event as never)));
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`timed out waiting for ${type}; got ${JSON.stringify(this.events.map((event) => event.type))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async waitForClose(timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > deadline) throw new Error('timed out waiting for close');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closeCode;
  }

  close(): void {
    this.socket.close();
  }
}
