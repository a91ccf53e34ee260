/**
 * What a learning session shows (SPEC §4.4): the state a learner sees (the step, coarse
 * mastery, whether a question is open — nothing else), the summary at the end, and the recent
 * conversation as the master tutor reads it.
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import { buildState } from '../session/session-view';
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { RecentMessage } from './learning-port';
import { learningProgress, learningSummary } from './learning-rules';

/** How many recent messages the master tutor sees (seed 002: a sliding window of 10). */
export const recentWindow = 10;

export type StoredItemRef = NonNullable<SessionSnapshot['assessment']>['items'][number];

/** The last messages before (and without) `message`, as the master tutor reads them. */
export function recentOf(messages: readonly StoredMessage[], message: StoredMessage): RecentMessage[] {
  return messages
    .filter((stored) => stored.seq < message.seq)
    .slice(-recentWindow)
    .map((stored): RecentMessage => ({ role: stored.role === 'tutor' ? 'tutor' : 'learner', content: stored.role === 'tool_result' ? `(answered the practice item: ${stored.content.slice(0, 300)})` : stored.content }));
}

/** The state a learner sees of a learning session (SPEC §4.4 privacy). */
export function learningState(snapshot: Pick<SessionSnapshot, 'session' | 'pendingAction'>): SessionState {
  const state = typeStateOf(snapshot.session, 'learning');
  const progress = learningProgress(state);
  const base = buildState(snapshot.session, { recalledCount: progress.steps.filter((step) => step.status === 'done').length, totalPoints: progress.totalSteps }, snapshot.pendingAction);
  return { ...base, learning: progress };
}

/** The summary of a learning session: steps covered, mastery per concept, misconceptions, turns, duration. */
export function learningSessionSummary(snapshot: Pick<SessionSnapshot, 'session'>, now: Date): SessionSummary {
  const { session } = snapshot;
  const state = typeStateOf(session, 'learning');
  const summary = learningSummary(state);
  const ended = session.endedAt ?? now;
  const reason = (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'];
  return {
    sessionId: session.id,
    type: 'learning',
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason,
    turns: session.turn,
    recalledCount: summary.stepsCovered,
    totalPoints: summary.totalSteps,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: [],
    learning: summary,
  };
}
