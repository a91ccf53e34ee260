/**
 * Starts the tutorloop server as a child process (`node --import tsx src/main.ts` in
 * `server/`) on a free loopback port with a temporary data folder, and stops it again.
 * The evaluation only talks to it over the network, like to any other server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProviderSetting } from '@tutorloop/shared';

/** The repository root (eval/src/protocol → ../../..). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A value of `LLM_PROVIDER` (shared/src/providers.ts): `auto` or a provider's name. */
export type TutorProvider = ProviderSetting;

export interface LocalServerOptions {
  /**
   * `LLM_PROVIDER` of the server; `offline` (the default) needs no key and no network. The
   * others read their settings from this process's environment, which the server inherits
   * (`ANTHROPIC_API_KEY`; `OPENAI_API_KEY` and `OPENAI_BASE_URL` for any OpenAI-compatible
   * server; `TUTOR_MODEL`, `EVALUATOR_MODEL`, `SAFETY_MODEL`).
   */
  provider?: TutorProvider;
  /** Longest wait for the "running at" line. */
  startTimeoutMs?: number;
  /** Extra environment for the server (e.g. TUTOR_MODEL for an A/B run). */
  env?: Record<string, string>;
}

export interface LocalServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export type StartResult = { ok: true; value: LocalServer } | { ok: false; error: string };

const readyLine = /running at (https?:\/\/\S+)/;

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function startLocalServer(options: LocalServerOptions = {}): Promise<StartResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-eval-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(repositoryRoot, 'server'),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LLM_PROVIDER: options.provider ?? 'offline',
      LOG_LEVEL: 'warn',
      // The API is all the evaluation needs; a fast scripted learner must not be throttled.
      WEB_DIST: '',
      WS_RATE_LIMIT: '10000',
      TURN_RATE_LIMIT: '100000',
      // One learner opens a session per case or labelled turn (a thousand in `eval labelled`).
      SESSION_RATE_LIMIT: '100000',
      LEARNER_DAILY_TOKENS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 5000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 2000);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: StartResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const fail = (reason: string) => {
      void stop().then(() => finish({ ok: false, error: `could not start the tutorloop server: ${reason}${output.trim() ? `\n${output.trim().slice(-2000)}` : ''}` }));
    };
    const timer = setTimeout(() => fail(`no "running at" line within ${Math.round((options.startTimeoutMs ?? 60_000) / 1000)} s`), options.startTimeoutMs ?? 60_000);
    // Only the tail is kept (for an error message); the pipes are drained for the server's whole life.
    child.stdout?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      const match = readyLine.exec(output);
      if (match) finish({ ok: true, value: { url: match[1]!, dataDir, stop } });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
    });
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => {
      if (!settled) fail(`it exited (${signal ?? `code ${code}`})`);
    });
  });
}
