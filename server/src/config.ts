/**
 * Configuration from the environment (SPEC §10). A `.env` file at the repository root
 * (or the working directory) is read first; real environment variables win.
 * Invalid configuration stops the start with one clear line naming the variable.
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { DocumentLimits, ProviderSetting, type ProviderName } from '@tutorloop/shared';
import { z } from 'zod';
import { repositoryRoot, serverPaths } from './paths';

// Resolved in paths.ts, the same from the sources and from the build (server/dist).
export { repositoryRoot };

/**
 * Current model ids per role and vendor (Anthropic's are not in its SDK's deprecation table;
 * OpenAI's are non-reasoning models, which take the evaluator's temperature and `max_tokens`);
 * override with TUTOR_MODEL / EVALUATOR_MODEL / SAFETY_MODEL. The safety gate runs on the
 * evaluator's (small, fast) model unless SAFETY_MODEL names another. `defaultModels` is
 * Anthropic's, the defaults when no model provider is configured.
 */
export const providerDefaultModels = {
  anthropic: { tutor: 'claude-sonnet-4-6', evaluator: 'claude-haiku-4-5' },
  openai: { tutor: 'gpt-4.1', evaluator: 'gpt-4.1-mini' },
} as const satisfies Partial<Record<ProviderName, { tutor: string; evaluator: string }>>;
export const defaultModels = providerDefaultModels.anthropic;

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

const ConfigSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).default(path.join(repositoryRoot, 'data'))),
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ANTHROPIC_API_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  ANTHROPIC_BASE_URL: z.preprocess(emptyAsUndefined, z.url('must be a URL').optional()),
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Any OpenAI-compatible Chat Completions API root, `/v1` included (Ollama, vLLM, …). */
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  TUTOR_MODEL: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  EVALUATOR_MODEL: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  SAFETY_MODEL: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  LLM_PROVIDER: z.preprocess(emptyAsUndefined, ProviderSetting.default('auto')),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Largest WebSocket text frame processed, in bytes; larger ones get an `error` event. */
  WS_MAX_FRAME_BYTES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1024).max(1_048_576).default(65_536)),
  /** Frames a learner may send per 10 seconds, across all their sockets, before `rate_limited` errors. */
  WS_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(30)),
  /**
   * Model operations a learner may start per minute, across all sessions (SPEC §8): turns (chat
   * messages, widget answers, rabbit-hole changes, HTTP steps), retries, session openings and
   * welcomes, thought summaries — one budget (core/limits/model-budget.ts).
   */
  TURN_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(30)),
  /** Sessions a learner may create per 10 minutes (`POST /api/sessions`); over it, 429 with Retry-After. */
  SESSION_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(20)),
  /** Model tokens (input + output, from llm_calls) a learner may spend per UTC day; 0 = unlimited. */
  LEARNER_DAILY_TOKENS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000_000_000).default(2_000_000)),
  /** Model tokens a learner may spend per UTC day proposing points from documents (SPEC §4.7); 0 = unlimited. */
  DOCUMENT_DAILY_TOKENS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000_000_000).default(DocumentLimits.modelTokensPerDay)),
  /**
   * How long a turn keeps running after the last socket of its session closed, in ms; then
   * its model calls are cancelled (the learner's message stays, answered on reconnect).
   */
  SOCKET_GRACE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3_600_000).default(30_000)),
  /** Python sandbox threads (each ~160 MB once started); learner code runs in parallel up to this many. */
  SANDBOX_PYTHON_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(2)),
  /** JavaScript (QuickJS) sandbox threads. */
  SANDBOX_JAVASCRIPT_WORKERS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(2)),
  /** Code runs one learner may have queued or running at once, per language; one more waits for a place. */
  SANDBOX_MAX_QUEUED_PER_LEARNER: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).default(3)),
  /** "Run examples" runs a learner may start per minute (code items' visible examples; not answers); over it, 429 with Retry-After. */
  CODE_RUN_RATE_LIMIT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_000).default(12)),
  /** A PostgreSQL database (`postgres://user:password@host:5432/database`, SPEC §11); unset, the SQLite file in DATA_DIR. Checked in parseConfig, whose error never repeats the password. */
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Directory of the built web app to serve; empty disables static serving. */
  WEB_DIST: z.preprocess(emptyAsUndefined, z.string().default(serverPaths.webDist)),
  /**
   * Which proxies' `X-Forwarded-For` names the client (the login throttle's address, request logs): unset, none —
   * the socket's address counts, and a client cannot choose its own by sending the header. A number of proxy hops
   * in front of the server, or a comma-separated list of the proxies' addresses, CIDR ranges or the names
   * `loopback`, `linklocal`, `uniquelocal` (private networks, as in a container network).
   */
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().optional()),
});

const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One trusted proxy entry: an address, an address/prefix range, or a named range. */
function isProxyEntry(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY read: false (unset), a hop count, or the proxies' addresses and ranges. */
function readTrustProxy(value: string | undefined): { ok: true; value: TrustProxy } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value: false };
  const text = value.trim();
  if (/^\d{1,2}$/.test(text)) return { ok: true, value: Number(text) };
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isProxyEntry(entry));
  if (entries.length === 0 || wrong !== undefined) {
    return {
      ok: false,
      error: `Invalid configuration: TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal (got ${JSON.stringify(wrong ?? value)})`,
    };
  }
  return { ok: true, value: entries };
}

/** Fastify's `trustProxy`: false, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** A `postgres://` URL: storage on PostgreSQL instead of `databaseFile`. */
  databaseUrl?: string | undefined;
  jwtSecret: string | undefined;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  /** Model ids per role, for the chosen provider (its defaults unless set). */
  tutorModel: string;
  evaluatorModel: string;
  safetyModel: string;
  provider: ProviderName;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  wsMaxFrameBytes: number;
  wsRateLimit: number;
  turnRateLimit: number;
  sessionRateLimit: number;
  /** 0 = unlimited. */
  learnerDailyTokens: number;
  /** Document tokens per learner per UTC day (`document_points` calls); 0 = unlimited. */
  documentDailyTokens: number;
  sandbox: { pythonWorkers: number; javascriptWorkers: number; maxQueuedPerOwner: number };
  /** "Run examples" runs per learner per minute. */
  codeRunRateLimit: number;
  socketGraceMs: number;
  webDist: string;
  /** Whose `X-Forwarded-For` is believed (TRUST_PROXY); false: the socket's own address is the client's. */
  trustProxy: TrustProxy;
}

export type ConfigResult = { ok: true; value: Config } | { ok: false; error: string };

/** DATABASE_URL checked: a URL of the postgres: or postgresql: scheme; the error never repeats the value (it may hold a password). */
function checkDatabaseUrl(value: string | undefined): { ok: true; value: string | undefined } | { ok: false; error: string } {
  if (value === undefined) return { ok: true, value };
  const expected = 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, error: `Invalid configuration: DATABASE_URL ${expected} (got a value that is not a URL)` };
  }
  // Named by its scheme only: the rest may hold a password.
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return { ok: false, error: `Invalid configuration: DATABASE_URL ${expected} (got a URL of scheme ${JSON.stringify(url.protocol.slice(0, -1))})` };
  }
  return { ok: true, value };
}

/** Validates an environment; the error names the first bad variable in one line. */
export function parseConfig(environment: Record<string, string | undefined>): ConfigResult {
  const parsed = ConfigSchema.safeParse(environment);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    return { ok: false, error: `Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(environment[name] ?? '')})` };
  }
  const env = parsed.data;
  if (env.LLM_PROVIDER === 'anthropic' && !env.ANTHROPIC_API_KEY) {
    return { ok: false, error: 'Invalid configuration: LLM_PROVIDER is "anthropic" but ANTHROPIC_API_KEY is not set' };
  }
  if (env.LLM_PROVIDER === 'openai' && !env.OPENAI_API_KEY) {
    return {
      ok: false,
      error: 'Invalid configuration: LLM_PROVIDER is "openai" but OPENAI_API_KEY is not set (any value for a server that needs none, such as Ollama)',
    };
  }
  // auto: Anthropic's key first, then OpenAI's, else the offline tutor.
  const provider: ProviderName =
    env.LLM_PROVIDER === 'auto' ? (env.ANTHROPIC_API_KEY ? 'anthropic' : env.OPENAI_API_KEY ? 'openai' : 'offline') : env.LLM_PROVIDER;
  const models = provider === 'openai' ? providerDefaultModels.openai : providerDefaultModels.anthropic;
  const evaluatorModel = env.EVALUATOR_MODEL ?? models.evaluator;
  const dataDir = path.resolve(env.DATA_DIR);
  const databaseUrl = checkDatabaseUrl(env.DATABASE_URL);
  if (!databaseUrl.ok) return databaseUrl;
  const trustProxy = readTrustProxy(env.TRUST_PROXY);
  if (!trustProxy.ok) return trustProxy;
  return {
    ok: true,
    value: {
      port: env.PORT,
      host: env.HOST,
      dataDir,
      databaseFile: path.join(dataDir, 'tutorloop.sqlite'),
      databaseUrl: databaseUrl.value,
      jwtSecret: env.JWT_SECRET,
      anthropicApiKey: env.ANTHROPIC_API_KEY,
      anthropicBaseUrl: env.ANTHROPIC_BASE_URL,
      openaiApiKey: env.OPENAI_API_KEY,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      tutorModel: env.TUTOR_MODEL ?? models.tutor,
      evaluatorModel,
      safetyModel: env.SAFETY_MODEL ?? evaluatorModel,
      provider,
      logLevel: env.LOG_LEVEL,
      wsMaxFrameBytes: env.WS_MAX_FRAME_BYTES,
      wsRateLimit: env.WS_RATE_LIMIT,
      turnRateLimit: env.TURN_RATE_LIMIT,
      sessionRateLimit: env.SESSION_RATE_LIMIT,
      learnerDailyTokens: env.LEARNER_DAILY_TOKENS,
      documentDailyTokens: env.DOCUMENT_DAILY_TOKENS,
      sandbox: {
        pythonWorkers: env.SANDBOX_PYTHON_WORKERS,
        javascriptWorkers: env.SANDBOX_JAVASCRIPT_WORKERS,
        maxQueuedPerOwner: env.SANDBOX_MAX_QUEUED_PER_LEARNER,
      },
      codeRunRateLimit: env.CODE_RUN_RATE_LIMIT,
      socketGraceMs: env.SOCKET_GRACE_MS,
      webDist: env.WEB_DIST,
      trustProxy: trustProxy.value,
    },
  };
}

/** Loads `.env` (repository root, then cwd) into process.env without overriding set variables. */
export function loadDotEnv(): void {
  for (const file of [path.join(repositoryRoot, '.env'), path.resolve('.env')]) {
    if (existsSync(file)) {
      try {
        process.loadEnvFile(file);
      } catch {
        // An unreadable .env is the user's to fix; the schema reports what is missing.
      }
    }
  }
}
