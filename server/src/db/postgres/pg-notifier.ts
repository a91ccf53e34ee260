/**
 * LISTEN/NOTIFY for a fleet of server instances on one PostgreSQL (SPEC §11). A notification is
 * a wake-up only — the data lives in tables — so payloads stay tiny (a session id, a learner id).
 *
 * One dedicated `pg.Client`, not a pooled one: LISTEN belongs to a connection, and a pool would
 * hand the connection to someone else (the same reason PgBouncer in transaction mode breaks it).
 * A connection can die silently (a proxy drops it, the server restarts, an operator terminates
 * it), so a `SELECT 1` ping runs every few seconds; on any failure the client is replaced with
 * backoff, every LISTEN is issued again, and then the reconnect handlers run — notifications sent
 * while nobody listened are lost, so they re-read what they may have missed (a catch-up read).
 */
import pg from 'pg';
import type { Logger } from '../../core/ports';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
const maxPayloadBytes = 7_999;
/** LISTEN takes an identifier: channels are plain lower-case names, so no quoting question arises. */
const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PgNotifierOptions {
  /** How often the connection is checked (default 5 s). */
  pingMs?: number;
  /** The first reconnect delay, doubled up to `maxBackoffMs` (defaults 100 ms and 5 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Sends NOTIFY through this pool instead of the listening connection (which may be reconnecting). */
  pool?: pg.Pool;
  /** Shown in pg_stat_activity (default `tutorloop-notifier`), so an operator can tell the connection apart. */
  applicationName?: string;
}

export class PgNotifier {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private backoff: number;
  private closed = false;
  private reconnecting = false;
  /** Statements on the listening connection, one at a time (pg 9 will refuse overlapping ones). */
  private queued: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly options: PgNotifierOptions,
  ) {
    this.backoff = options.backoffMs ?? 100;
  }

  /** Connects; rejects when the first connection fails (later failures are retried). */
  static async open(url: string, logger: Logger, options: PgNotifierOptions = {}): Promise<PgNotifier> {
    const notifier = new PgNotifier(url, logger, options);
    notifier.client = await notifier.connect();
    notifier.pingTimer = setInterval(() => void notifier.ping(), options.pingMs ?? 5_000);
    notifier.pingTimer.unref?.();
    return notifier;
  }

  /** Calls `handler` with each payload sent on `channel`; returns the unsubscribe. */
  listen(channel: string, handler: (payload: string) => void): () => void {
    checkChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      const client = this.client;
      if (client && !this.reconnecting) {
        // A failure here means the connection is going: the reconnect issues every LISTEN again.
        this.onClient(client, `LISTEN ${channel}`).catch((error: unknown) => this.logger.warn({ err: error, channel }, 'LISTEN failed; the reconnect will issue it again'));
      }
    }
    set.add(handler);
    return () => {
      const current = this.handlers.get(channel);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(channel);
      if (this.client && !this.reconnecting && !this.closed) this.onClient(this.client, `UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /** Sends `payload` on `channel` (delivered to listeners when the sender's transaction, if any, commits). */
  async notify(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    if (Buffer.byteLength(payload, 'utf8') > maxPayloadBytes) {
      throw new Error(`a notification payload must stay under 8,000 bytes (this one has ${Buffer.byteLength(payload, 'utf8')}): put the data in a table and notify its key`);
    }
    if (this.closed) throw new Error('the notifier is closed');
    if (this.options.pool) {
      await this.options.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
      return;
    }
    if (!this.client) throw new Error('the notifier is reconnecting');
    await this.onClient(this.client, 'SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /** Runs `handler` after each reconnect (every LISTEN is in place again by then); returns the unsubscribe. */
  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: this.options.applicationName ?? 'tutorloop-notifier' });
    // Without an error listener, a dropped connection would crash the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', (message) => {
      for (const handler of [...(this.handlers.get(message.channel) ?? [])]) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          this.logger.error({ err: error, channel: message.channel }, 'a notification handler threw');
        }
      }
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private onClient(client: pg.Client, statement: string, values?: unknown[]): Promise<unknown> {
    const run = this.queued.then(() => client.query(statement, values));
    this.queued = run.catch(() => undefined);
    return run;
  }

  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || this.reconnecting || this.closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the ping got no answer')), this.options.pingMs ?? 5_000);
    });
    try {
      await Promise.race([this.onClient(client, 'SELECT 1'), timeout]);
    } catch (error) {
      this.lost(client, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection `client` is gone (or unusable): replace it, once. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.closed || client !== this.client || this.reconnecting) return;
    this.reconnecting = true;
    this.client = undefined;
    this.logger.warn({ err: error }, 'the notification connection was lost; reconnecting');
    client.end().catch(() => undefined);
    this.scheduleReconnect(0);
  }

  private scheduleReconnect(delay: number): void {
    this.retryTimer = setTimeout(() => void this.reconnect(), delay);
    this.retryTimer.unref?.();
  }

  private async reconnect(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client;
    try {
      client = await this.connect();
    } catch (error) {
      const delay = this.backoff;
      this.backoff = Math.min(this.backoff * 2, this.options.maxBackoffMs ?? 5_000);
      this.logger.warn({ err: error, retryInMs: delay }, 'the notification connection could not be made again');
      this.scheduleReconnect(delay);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.queued = Promise.resolve();
    this.client = client;
    this.reconnecting = false;
    this.backoff = this.options.backoffMs ?? 100;
    this.logger.info({}, 'the notification connection is back');
    for (const handler of [...this.reconnectHandlers]) {
      try {
        handler();
      } catch (error) {
        this.logger.error({ err: error }, 'a reconnect handler threw');
      }
    }
  }
}

function checkChannel(channel: string): void {
  if (!channelPattern.test(channel)) throw new Error(`"${channel}" is not a channel name: use lower-case letters, digits and underscores`);
}
