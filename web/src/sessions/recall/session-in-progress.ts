import type { SessionHistoryItem } from '@tutorloop/shared';

/**
 * The newest recall session of this set still in progress, which "Review now" resumes rather
 * than starting a second one beside it (issue 25). `sessions` come newest first.
 */
export function sessionInProgress(sessions: readonly SessionHistoryItem[], recallSetId: string): SessionHistoryItem | null {
  return sessions.find((item) => item.type === 'recall' && item.recallSetId === recallSetId && item.status !== 'completed' && item.status !== 'abandoned') ?? null;
}
