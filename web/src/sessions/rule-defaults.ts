import type { SessionSummary } from '@tutorloop/shared';
import type { SessionTypeRules } from './session-type';

/** The tab title of most completion screens. */
export function endedTitle(summary: SessionSummary): string {
  return summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete';
}

/** The rules most types share; a type's rules spread these and override what differs. */
export const ruleDefaults = {
  canStop: false,
  canRetry: false,
  scoresAnswers: false,
  progressLabel: () => null,
  canSkip: () => false,
  recentDetail: () => '',
  resultsTitle: endedTitle,
  followUpAfter: () => false,
  startAgain: null,
} satisfies Partial<SessionTypeRules>;
