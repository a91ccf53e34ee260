/**
 * "One .apkg stalled every learner" (SPEC §8: archives and databases from learners are read in
 * a worker with a time and memory budget, decompression capped while streaming, views/triggers
 * refused). Before, the reader ran on the serving thread and trusted the archive:
 * - a 500 KB DEFLATE entry declaring 4 KB, listed four times in the central directory, was
 *   inflated four times over (3.9 s, RSS +2 GB);
 * - a 16 KB zstd `collection.anki21b` inflating to 512 MB was inflated whole before its size was
 *   checked (RSS +950 MB);
 * - a 12 KB collection whose `cards` is a recursive view ran for 5 s, then answered 200.
 * Each archive is built here byte by byte and sent through the real import route while another
 * learner's requests are timed; the server runs in this process, so its RSS is ours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64, basicAndCloze, deflated, geographyDecks, sqliteBytes, stored, writeZip, zerosDeflated, zstdRle } from '../helpers/apkg-bytes';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
let token: string;
/** 500 MiB of zeros in ~500 KB of DEFLATE. */
let zeros500: Uint8Array;
beforeAll(async () => {
  zeros500 = await zerosDeflated(500);
  server = await startTestServer();
  token = (await server.register()).token;
});
afterAll(async () => server.close());

interface Watched {
  response: { status: number; body: unknown };
  /** The slowest `GET /api/health` of those sent one after another while the import ran. */
  slowestBystanderMs: number;
  /** How far this process's RSS rose above where it stood when the import was sent. */
  rssGrowthMb: number;
}

/** Sends the import and, while it runs, times a bystander's health checks and watches RSS. */
async function importWhileWatching(archive: Uint8Array): Promise<Watched> {
  const data = base64(archive);
  const baseline = process.memoryUsage().rss;
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  let sampledPeak = baseline;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)), 10);
  let running = true;
  const importing = server.api('POST', '/api/recall-sets/import/file', { token, body: { format: 'apkg', data } }).finally(() => (running = false));
  const latencies: number[] = [];
  do {
    const started = performance.now();
    const health = await fetch(`${server.url}/api/health`);
    await health.text();
    latencies.push(performance.now() - started);
  } while (running);
  const response = await importing;
  clearInterval(sampler);
  // A stalled event loop cannot sample: the process's lifetime peak covers that case when the
  // import is what raised it.
  const peakAfter = process.resourceUsage().maxRSS * 1024;
  const peak = Math.max(sampledPeak, process.memoryUsage().rss, peakAfter > peakBefore ? peakAfter : 0);
  return { response, slowestBystanderMs: Math.max(...latencies), rssGrowthMb: (peak - baseline) / 2 ** 20 };
}

/** Another learner waited under a second, and the server did not grow by hundreds of MB. */
function expectNoStall(watched: Watched): void {
  expect(watched.slowestBystanderMs, 'slowest bystander health check, ms').toBeLessThan(1000);
  expect(watched.rssGrowthMb, 'RSS growth, MB').toBeLessThan(200);
}

async function expectNothingImported(): Promise<void> {
  expect((await server.api<{ recallSets: unknown[] }>('GET', '/api/recall-sets', { token })).body.recallSets).toEqual([]);
}

function refusal(message: string) {
  return { status: 400, body: { error: { code: 'invalid_payload', message: `data: ${message}` } } };
}

describe('an .apkg built to stall the server', () => {
  it('a 500 KB DEFLATE entry declaring 4 KB, listed four times in the central directory, is refused at once', async () => {
    const bomb = { ...deflated('collection.anki21', new Uint8Array(0)), data: zeros500, size: 4096, crc: 0 };
    const archive = writeZip([bomb], [0, 1, 2, 3].map(() => ({ local: 0 })));
    expect(archive.length).toBeGreaterThan(500_000);

    const watched = await importWhileWatching(archive);
    expect(watched.response).toEqual(refusal('the archive lists "collection.anki21" more than once.'));
    expectNoStall(watched);
    await expectNothingImported();
  });

  it('the same entry listed once is inflated only until it passes the 4 KB it declares', async () => {
    const bomb = { ...deflated('collection.anki21', new Uint8Array(0)), data: zeros500, size: 4096, crc: 0 };
    const watched = await importWhileWatching(writeZip([bomb]));
    expect(watched.response).toEqual(refusal('the archive is damaged: collection.anki21 unpacks to more than the 4096 bytes its header declares.'));
    expectNoStall(watched);
    await expectNothingImported();
  });

  it('a 16 KB zstd collection that inflates to 512 MB is stopped at the 64 MB cap', async () => {
    const frame = zstdRle(512 * 1024 * 1024);
    expect(frame.length).toBeLessThan(17_000);
    const watched = await importWhileWatching(writeZip([stored('collection.anki21b', frame)]));
    expect(watched.response).toEqual(refusal('the collection is larger than 64 MB once unpacked.'));
    expectNoStall(watched);
    await expectNothingImported();
  });

  it('a 12 KB collection whose cards table is a recursive view is refused before any query', async () => {
    const collection = sqliteBytes((database) => {
      database.exec(`
        CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer, conf text, models text, decks text, dconf text, tags text);
        CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld text, csum integer, flags integer, data text);
        CREATE VIEW cards AS WITH RECURSIVE counter(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM counter WHERE value < 10000000)
          SELECT value AS id, 1000 AS nid, 7 AS did, value AS ord FROM counter;
      `);
      database.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(JSON.stringify(basicAndCloze), JSON.stringify(geographyDecks));
      database.prepare("INSERT INTO notes VALUES (1000, 'guid', 1, 0, 0, '', ?, '', 0, 0, '')").run('Capital of Peru?\x1fLima');
    });
    expect(collection.length).toBeLessThanOrEqual(12_288);

    const watched = await importWhileWatching(writeZip([stored('collection.anki2', collection)]));
    expect(watched.response).toEqual(refusal('the collection contains views or triggers, which an Anki collection never has.'));
    expectNoStall(watched);
    await expectNothingImported();
  });
});
