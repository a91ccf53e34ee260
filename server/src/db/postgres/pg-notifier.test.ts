import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresServer, type PostgresServer } from '../../../test/helpers/postgres-server';
import { silentLogger } from '../../core/ports';
import { PgNotifier } from './pg-notifier';

let server: PostgresServer;
let url = '';

beforeAll(async () => {
  server = await startPostgresServer();
  url = await server.createDatabase('notifier');
}, 60_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

/** Resolves with the next payload `notifier` hears on `channel`. */
function next(notifier: PgNotifier, channel: string): Promise<string> {
  return new Promise((resolve) => {
    const stop = notifier.listen(channel, (payload) => {
      stop();
      resolve(payload);
    });
  });
}

describe('PgNotifier', () => {
  it('delivers a notification from one instance to another', async () => {
    const receiver = await PgNotifier.open(url, silentLogger);
    const sender = await PgNotifier.open(url, silentLogger);
    try {
      const heard: string[] = [];
      receiver.listen('tutorloop_test', (payload) => heard.push(payload));
      const arrived = next(receiver, 'tutorloop_test');
      // The LISTEN is issued asynchronously: a query after it on the same connection has seen it through.
      await receiver.notify('tutorloop_ping', 'x');
      await sender.notify('tutorloop_test', 'session-1');
      expect(await arrived).toBe('session-1');
      expect(heard).toEqual(['session-1']);
    } finally {
      await receiver.close();
      await sender.close();
    }
  });

  it('refuses a payload of 8,000 bytes or more and a channel that is not a plain name', async () => {
    const notifier = await PgNotifier.open(url, silentLogger);
    try {
      await expect(notifier.notify('tutorloop_test', 'x'.repeat(8_000))).rejects.toThrow(/under 8,000 bytes/);
      await expect(notifier.notify('tutorloop_test; DROP TABLE x', 'a')).rejects.toThrow(/not a channel name/);
      expect(() => notifier.listen('Bad-Channel', () => undefined)).toThrow(/not a channel name/);
    } finally {
      await notifier.close();
    }
  });

  it('reconnects after its connection is terminated, runs the reconnect handlers and keeps delivering', async () => {
    const receiver = await PgNotifier.open(url, silentLogger, { pingMs: 200, backoffMs: 20, applicationName: 'receiver' });
    const sender = await PgNotifier.open(url, silentLogger);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const first = next(receiver, 'tutorloop_events');
      await receiver.notify('tutorloop_ping', 'x');
      await sender.notify('tutorloop_events', 'before');
      expect(await first).toBe('before');

      const reconnected = new Promise<void>((resolve) => receiver.onReconnect(resolve));
      const heard: string[] = [];
      receiver.listen('tutorloop_events', (payload) => heard.push(payload));
      await receiver.notify('tutorloop_ping', 'x');
      const killed = await admin.query<{ count: string }>("SELECT count(pg_terminate_backend(pid)) AS count FROM pg_stat_activity WHERE application_name = 'receiver'");
      expect(Number(killed.rows[0]!.count)).toBeGreaterThan(0);
      await reconnected;

      const after = next(receiver, 'tutorloop_events');
      await receiver.notify('tutorloop_ping', 'x');
      await admin.query("SELECT pg_notify('tutorloop_events', 'after')");
      expect(await after).toBe('after');
      expect(heard).toEqual(['after']);
    } finally {
      await admin.end();
      await receiver.close();
      await sender.close();
    }
  }, 30_000);
});
