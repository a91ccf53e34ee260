/**
 * Starts the real server (HTTP + ws + SQLite file, or a real PostgreSQL with `engine:
 * 'postgres'`) on a free loopback port with a temporary data folder, and offers small typed
 * clients for REST and WebSocket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { parseServerEvent, type AuthResponse, type ClientMessage, type RecallSetDetail, type ServerEvent } from '@tutorloop/shared';
import { parseConfig } from '../../src/config';
import type { Clock } from '../../src/core/ports';
import type { TutorProvider } from '../../src/core/provider';
import { sessionTypeCatalog } from '../../src/core/session-type-states';
import { openPostgresStorage } from '../../src/db/postgres/postgres-storage';
import { startServer, type RunningServer, type ServerOverrides } from '../../src/server';
import { startPostgresServer, type PostgresServer } from './postgres-server';

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

/** The storage engines the session, progress and scheduler suites run on (SPEC §11): the embedded default and PostgreSQL. */
export const testEngines = ['sqlite', 'postgres'] as const;
export type TestEngine = (typeof testEngines)[number];

/** The test file's PostgreSQL cluster (vitest runs each file in its own module scope) and its migrated template database. */
let postgres: { cluster: PostgresServer; template: string; databases: number } | undefined;

/**
 * Starts the test file's throwaway PostgreSQL, once (`beforeAll(startTestPostgres, 120_000)`;
 * `afterAll(stopTestPostgres)`): one cluster per file keeps the CPU cost sane. The migrations
 * are applied once to a template, so each server start copies a migrated database instead
 * of migrating a fresh one.
 */
export async function startTestPostgres(): Promise<void> {
  if (postgres) return;
  const cluster = await startPostgresServer();
  try {
    const url = await cluster.createDatabase('migrated');
    await (await openPostgresStorage(url, sessionTypeCatalog, { poolSize: 1 })).close();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  postgres = { cluster, template: 'migrated', databases: 0 };
}

/** Stops the file's PostgreSQL (its servers closed first). */
export async function stopTestPostgres(): Promise<void> {
  const running = postgres;
  postgres = undefined;
  await running?.cluster.stop();
}

/** A fresh, migrated database on the file's cluster, for one server start. */
async function freshPostgresDatabase(): Promise<string> {
  if (!postgres) throw new Error("engine 'postgres' needs the file's cluster: beforeAll(startTestPostgres, 120_000) and afterAll(stopTestPostgres)");
  postgres.databases += 1;
  return postgres.cluster.createDatabase(`server${postgres.databases}`, postgres.template);
}

export async function startTestServer(
  options: {
    provider?: TutorProvider;
    clock?: Clock;
    env?: Record<string, string>;
    dataDir?: string;
    sessionDeps?: ServerOverrides['sessionDeps'];
    /** `postgres`: a fresh database on the file's cluster (startTestPostgres) instead of a SQLite file. */
    engine?: TestEngine;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tutorloop-test-'));
  const engineEnv = options.engine === 'postgres' ? { DATABASE_URL: await freshPostgresDatabase() } : {};
  const config = parseConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', LLM_PROVIDER: 'offline', WEB_DIST: '', ...engineEnv, ...options.env });
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
