/**
 * Gives an e2e learner a synthetic review history (issue 17): a recall set of `points` points,
 * each with the reviews a learner following known FSRS parameters would have made over the
 * last months. Test support, run by `scheduler.spec.ts` as its own process beside the running
 * e2e server:
 *
 *   node --import tsx e2e/tests/support/seed-review-history.ts '{"databaseFile":…,"username":…,"points":120}'
 *
 * It writes through the server's own SQLite storage adapter and review-history writer — the
 * rows sessions would have written — into the server's database file (WAL lets a second
 * connection write while the server runs; the server keeps no copy of these rows in memory),
 * so the server needs no test-only route. Prints `{ recallSetId, reviewCount }` as JSON.
 */
import { uuidGenerator } from '../../../server/src/core/ports';
import { defaultSchedulerSettings } from '../../../server/src/core/scheduler/fsrs';
import { sessionTypeCatalog } from '../../../server/src/core/session-type-states';
import { syntheticReviewLog, syntheticTrueWeights } from '../../../server/src/core/scheduler/synthetic-log';
import { writeHistory } from '../../../server/src/core/scheduler/write-history';
import { openSqliteStorage } from '../../../server/src/db/sqlite-storage';

const dayMs = 86_400_000;

interface SeedRequest {
  databaseFile: string;
  username: string;
  points: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as SeedRequest;
  // Whole UTC days before today, so every run gets the same log (the optimiser counts days
  // between reviews by UTC calendar day): with 120 points, 554 reviews.
  const today = new Date(Math.floor(Date.now() / dayMs) * dayMs);
  // Cards first seen 200–260 days ago, five reviews each at the intervals the true
  // parameters chose (moved by the learner's lateness); reviews that would lie ahead are cut.
  const log = syntheticReviewLog({
    weights: syntheticTrueWeights,
    cards: request.points,
    reviewsPerCard: 5,
    seed: 'e2e-scheduler',
    start: new Date(today.getTime() - 260 * dayMs),
    spreadDays: 60,
  }).map((reviews) => reviews.filter((review) => review.reviewedAt < today));

  const storage = openSqliteStorage(request.databaseFile, sessionTypeCatalog);
  try {
    const result = await storage.transaction(async (tx) => {
      const learner = await tx.learners.findByUsername(request.username);
      if (!learner) throw new Error(`no learner named ${request.username}`);
      const recallSetId = uuidGenerator.next();
      const createdAt = new Date(today.getTime() - 261 * dayMs);
      await tx.recallSets.create({ id: recallSetId, learnerId: learner.id, name: 'Synthetic history', description: 'Seeded by the scheduler e2e test.', createdAt });
      let reviewCount = 0;
      for (const [position, reviews] of log.entries()) {
        const pointId = uuidGenerator.next();
        await tx.recallSets.addPoint({ id: pointId, recallSetId, content: `Synthetic point ${position + 1}`, context: null, position, createdAt });
        await writeHistory(tx, { learnerId: learner.id, pointId, reviews }, defaultSchedulerSettings, uuidGenerator);
        reviewCount += reviews.length;
      }
      return { recallSetId, reviewCount };
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await storage.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`seed-review-history: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
