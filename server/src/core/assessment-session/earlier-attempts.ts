/**
 * What a learner met in their earlier attempts at an assessment, so a new attempt avoids it
 * (exposure control, SPEC §4.3): the review at the end of an attempt shows every item with its
 * correct answer, and a retake that repeated an item — or only its stem — would be answered
 * from that review rather than from what the learner knows.
 *
 * Only attempts created before this one count, so the items of an attempt stay a function of
 * stored data (a restart regenerates the same next item). The most recent attempts are enough:
 * a small item pool would otherwise run dry after a few retakes.
 */
import type { EarlierItems } from '../assessment';
import type { StorageReader } from '../storage/storage';
import type { StoredSession } from '../storage/sessions';

/** How many earlier attempts a new one steers clear of. */
export const earlierAttemptsAvoided = 3;

export async function earlierItems(storage: Pick<StorageReader, 'sessions' | 'assessments'>, session: StoredSession, blueprintId: string): Promise<EarlierItems> {
  const attempts = (await storage.sessions.listByLearner(session.learnerId))
    .filter(
      (candidate) =>
        candidate.id !== session.id &&
        candidate.typeState.type === 'assessment' &&
        candidate.typeState.blueprintId === blueprintId &&
        candidate.createdAt.getTime() <= session.createdAt.getTime(),
    )
    .slice(0, earlierAttemptsAvoided);
  const fingerprints = new Set<string>();
  const stems = new Set<string>();
  for (const attempt of attempts) {
    for (const stored of await storage.assessments.listItems(attempt.id)) {
      fingerprints.add(stored.item.fingerprint);
      stems.add(stored.item.stem);
    }
  }
  return { fingerprints, stems };
}
