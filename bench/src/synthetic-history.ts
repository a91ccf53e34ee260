/**
 * A learner with a long synthetic review history, for the optimiser row (issue 17): a recall
 * set of `cards` points, each reviewed `reviewsPerCard` times over the past years as a learner
 * following known FSRS parameters would have (server/src/core/scheduler/synthetic-log.ts),
 * written through the server's own storage with the server's history writer — the rows
 * sessions would have left. Runs inside the server child, before the measured runs.
 */
import { uuidGenerator } from '../../server/src/core/ports';
import { defaultSchedulerSettings } from '../../server/src/core/scheduler/fsrs';
import { syntheticReviewLog, syntheticTrueWeights } from '../../server/src/core/scheduler/synthetic-log';
import { writeHistory } from '../../server/src/core/scheduler/write-history';
import type { Storage } from '../../server/src/core/storage/storage';

const dayMs = 86_400_000;

export async function seedHistory(storage: Storage, request: { username: string; cards: number; reviewsPerCard: number }): Promise<{ reviewCount: number; cards: number }> {
  const today = Math.floor(Date.now() / dayMs) * dayMs;
  // First reviews spread over a year, starting three years back; anything that would lie ahead is cut.
  const log = syntheticReviewLog({ weights: syntheticTrueWeights, cards: request.cards, reviewsPerCard: request.reviewsPerCard, seed: 'bench-optimizer', start: new Date(today - 3 * 365 * dayMs), spreadDays: 365 }).map(
    (reviews) => reviews.filter((review) => review.reviewedAt.getTime() < today),
  );
  return storage.transaction(async (tx) => {
    const learner = await tx.learners.findByUsername(request.username);
    if (!learner) throw new Error(`seed_history: no learner named ${request.username}`);
    const recallSetId = uuidGenerator.next();
    const createdAt = new Date(today - 3 * 365 * dayMs - dayMs);
    await tx.recallSets.create({ id: recallSetId, learnerId: learner.id, name: 'Synthetic history', description: null, createdAt });
    let reviewCount = 0;
    for (const [position, reviews] of log.entries()) {
      const pointId = uuidGenerator.next();
      await tx.recallSets.addPoint({ id: pointId, recallSetId, content: `Synthetic point ${position + 1}`, context: null, position, createdAt });
      await writeHistory(tx, { learnerId: learner.id, pointId, reviews }, defaultSchedulerSettings, uuidGenerator);
      reviewCount += reviews.length;
    }
    return { reviewCount, cards: log.length };
  });
}
