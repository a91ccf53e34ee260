/**
 * A learner's scheduler settings — desired retention and FSRS parameters — read in one place,
 * so the recall turn, the end of a session, every count and every view schedule with the same.
 */
import type { SchedulerSettings } from '../scheduler/fsrs';
import { defaultDesiredRetention } from '../storage/learners';
import type { StorageReader } from '../storage/storage';

export async function loadSchedulerSettings(reader: Pick<StorageReader, 'learners' | 'scheduler'>, learnerId: string): Promise<SchedulerSettings> {
  const learner = await reader.learners.get(learnerId);
  return { retention: learner?.desiredRetention ?? defaultDesiredRetention, weights: await reader.scheduler.currentWeights(learnerId) };
}
