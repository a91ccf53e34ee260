/**
 * The PostgreSQL scheduler repository (core/storage/scheduler-runs.ts): optimisation runs in
 * `scheduler_runs`, the review history read from `cards` ⋈ `review_logs`. Mirrors sqlite-scheduler.ts.
 */
import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { RatingName } from '../../core/storage/cards';
import type { CardHistory, SchedulerRepository, StoredSchedulerRun } from '../../core/storage/scheduler-runs';
import type { PostgresDatabase } from './postgres-database';
import { cards, reviewLogs, schedulerRuns } from './schema';

function toRun(row: typeof schedulerRuns.$inferSelect): StoredSchedulerRun {
  return {
    id: row.id,
    learnerId: row.learnerId,
    createdAt: row.createdAt,
    reviewCount: row.reviewCount,
    weights: row.weights,
    previousWeights: row.previousWeights ?? null,
    metrics: { logLoss: row.logLoss, rmseBins: row.rmseBins },
    previousMetrics: { logLoss: row.previousLogLoss, rmseBins: row.previousRmseBins },
    kept: row.kept,
    durationMs: row.durationMs,
  };
}

export function postgresScheduler(database: PostgresDatabase): SchedulerRepository {
  return {
    async currentWeights(learnerId) {
      const [row] = await database
        .select({ weights: schedulerRuns.weights })
        .from(schedulerRuns)
        .where(and(eq(schedulerRuns.learnerId, learnerId), eq(schedulerRuns.kept, true)))
        .orderBy(desc(schedulerRuns.createdAt), asc(schedulerRuns.id))
        .limit(1);
      return row ? row.weights : null;
    },
    async listRuns(learnerId, limit) {
      const query = database.select().from(schedulerRuns).where(eq(schedulerRuns.learnerId, learnerId)).orderBy(desc(schedulerRuns.createdAt), asc(schedulerRuns.id));
      return (await (limit === undefined ? query : query.limit(limit))).map(toRun);
    },
    async reviewHistory(learnerId, page) {
      const histories = new Map<string, CardHistory>();
      const where = page?.afterCardId ? and(eq(cards.learnerId, learnerId), gt(cards.id, page.afterCardId)) : eq(cards.learnerId, learnerId);
      const cardQuery = database.select({ id: cards.id, pointId: cards.pointId }).from(cards).where(where).orderBy(asc(cards.id));
      for (const card of await (page ? cardQuery.limit(page.limit) : cardQuery)) {
        histories.set(card.id, { cardId: card.id, pointId: card.pointId, reviews: [] });
      }
      if (histories.size === 0) return [];
      const columns = { cardId: reviewLogs.cardId, rating: reviewLogs.rating, reviewedAt: reviewLogs.reviewedAt };
      const order = [asc(reviewLogs.reviewedAt), asc(reviewLogs.id)] as const;
      // A page names its cards; the whole history joins on the learner instead of listing every id.
      const logs = page
        ? await database.select(columns).from(reviewLogs).where(inArray(reviewLogs.cardId, [...histories.keys()])).orderBy(...order)
        : await database.select(columns).from(reviewLogs).innerJoin(cards, eq(cards.id, reviewLogs.cardId)).where(eq(cards.learnerId, learnerId)).orderBy(...order);
      for (const log of logs) histories.get(log.cardId)?.reviews.push({ rating: log.rating as RatingName, reviewedAt: log.reviewedAt });
      return [...histories.values()];
    },
    async reviewCount(learnerId) {
      const [row] = await database
        .select({ reviews: count() })
        .from(reviewLogs)
        .innerJoin(cards, eq(cards.id, reviewLogs.cardId))
        .where(eq(cards.learnerId, learnerId));
      return row?.reviews ?? 0;
    },
    async learnersWithReviews(minimum) {
      return database
        .select({ learnerId: cards.learnerId, reviewCount: count() })
        .from(reviewLogs)
        .innerJoin(cards, eq(cards.id, reviewLogs.cardId))
        .groupBy(cards.learnerId)
        .having(sql`count(*) >= ${minimum}`)
        .orderBy(asc(cards.learnerId));
    },
    async addRun(run) {
      await database.insert(schedulerRuns).values({
        id: run.id,
        learnerId: run.learnerId,
        reviewCount: run.reviewCount,
        weights: run.weights,
        previousWeights: run.previousWeights,
        logLoss: run.metrics.logLoss,
        rmseBins: run.metrics.rmseBins,
        previousLogLoss: run.previousMetrics.logLoss,
        previousRmseBins: run.previousMetrics.rmseBins,
        kept: run.kept,
        durationMs: run.durationMs,
        createdAt: run.createdAt,
      });
    },
  };
}
