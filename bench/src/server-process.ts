/**
 * The parent's handle on a server child (`server-child.ts`): compiles it once per bench run
 * (`build-child.mjs`: esbuild, as `npm start`'s server is compiled; skipped when unchanged),
 * starts it with plain `node` and an IPC channel in a fresh temp DATA_DIR, sends typed requests,
 * reads its RSS from /proc, and stops it — always removing the folder, also on Ctrl-C.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildOptions, ChildReady, ChildReplies, ChildReply, ChildRequest, ChildRequestType } from './child-protocol';
import { registerCleanup } from './cleanup';
import { epochNow } from './clock';

const sourceDirectory = path.dirname(fileURLToPath(import.meta.url));
const childEntry = path.resolve(sourceDirectory, '../../server/dist-bench/server-child.js');
let built = false;

/** Compiles the child unless its build stamp matches the sources (once per bench process). */
function ensureChildBuild(): void {
  if (built) return;
  // The build's one line goes to stderr: stdout carries only the bench's table.
  const result = spawnSync(process.execPath, [path.join(sourceDirectory, 'build-child.mjs')], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`compiling the bench's server child failed (exit code ${result.status})`);
  built = true;
}

const startTimeoutMs = 60_000;
const requestTimeoutMs = 60_000;

type RequestParameters<Type extends ChildRequestType> = Omit<Extract<ChildRequest, { type: Type }>, 'id' | 'type'>;

export class ServerProcess {
  /** Extra V8/Node flags for every child (`--server-node-flags`, e.g. `--max-semi-space-size=2`). */
  static nodeFlags: readonly string[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly logLines: string[] = [];
  private exited = false;
  private readonly unregister: () => void;

  private constructor(
    private readonly child: ChildProcess,
    readonly dataDirectory: string,
    readonly kind: ChildOptions['kind'],
  ) {
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        this.logLines.push(line);
        if (this.logLines.length > 40) this.logLines.shift();
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('message', (raw) => {
      const reply = raw as ChildReply;
      const waiter = typeof reply.id === 'number' ? this.pending.get(reply.id) : undefined;
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(new Error(`server child: ${reply.error}`));
    });
    child.on('exit', () => {
      this.exited = true;
      for (const waiter of this.pending.values()) waiter.reject(new Error(`server child exited\n${this.logTail()}`));
      this.pending.clear();
    });
    this.unregister = registerCleanup(() => this.kill());
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Starts a child and waits until it listens; returns it with the base URL. */
  static async start(options: Omit<ChildOptions, 'dataDirectory'>): Promise<{ server: ServerProcess; url: string }> {
    ensureChildBuild();
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'tutorloop-bench-'));
    const child = fork(childEntry, [JSON.stringify({ ...options, dataDirectory } satisfies ChildOptions)], {
      // Plain node, as `npm start` runs server/dist/main.js. --expose-gc only lets the bench ask
      // for a full GC before reading memory; it changes no GC behaviour.
      execArgv: ['--expose-gc', ...ServerProcess.nodeFlags],
      // As `npm start` runs the server (scripts/start.mjs): few malloc arenas, so the memory
      // scrypt's hashing threads touch goes back instead of staying per thread.
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const server = new ServerProcess(child, dataDirectory, options.kind);
    try {
      const ready = await new Promise<ChildReady>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server child did not start in ${startTimeoutMs / 1000} s\n${server.logTail()}`)), startTimeoutMs);
        child.on('message', (message: { type?: string }) => {
          if (message.type !== 'ready') return;
          clearTimeout(timer);
          resolve(message as ChildReady);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server child exited with ${code} before it was ready\n${server.logTail()}`));
        });
      });
      return { server, url: ready.url };
    } catch (error) {
      server.kill();
      throw error;
    }
  }

  request<Type extends ChildRequestType>(type: Type, parameters: RequestParameters<Type>): Promise<ChildReplies[Type]> {
    if (this.exited) return Promise.reject(new Error(`server child has exited\n${this.logTail()}`));
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`server child did not answer ${type} in ${requestTimeoutMs / 1000} s`));
      }, requestTimeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as ChildReplies[Type]);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.send({ id, type, ...parameters });
    });
  }

  /**
   * The child's clock minus ours, in ms: the child's `now` against the midpoint of the
   * fastest of a few round trips (its error is at most half that round trip).
   */
  async clockOffset(): Promise<number> {
    let best = { roundTrip: Number.POSITIVE_INFINITY, offset: 0 };
    for (let attempt = 0; attempt < 15; attempt += 1) {
      const sentAt = epochNow();
      const { now } = await this.request('clock', {});
      const receivedAt = epochNow();
      if (receivedAt - sentAt < best.roundTrip) best = { roundTrip: receivedAt - sentAt, offset: now - (sentAt + receivedAt) / 2 };
    }
    return best.offset;
  }

  /** The child's resident set size as the kernel reports it (/proc/<pid>/status VmRSS). */
  residentBytes(): number | null {
    try {
      const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  logTail(): string {
    return this.logLines.length ? this.logLines.map((line) => `  | ${line}`).join('\n') : '  (no output)';
  }

  /** Asks the child to close its server and exit; kills it if it does not within 10 s. */
  async stop(): Promise<void> {
    if (!this.exited) {
      const exited = new Promise<void>((resolve) => (this.exited ? resolve() : this.child.once('exit', () => resolve())));
      try {
        await this.request('stop', {});
      } catch {
        // It may already be gone; the kill below makes sure.
      }
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    this.kill();
  }

  /** Immediate cleanup: the child (only this pid) and its data folder. */
  private kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
    rmSync(this.dataDirectory, { recursive: true, force: true });
    this.unregister();
  }
}
