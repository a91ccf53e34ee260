/**
 * What a learner sees of a cloze drill (SPEC §4.6, §5), as pure functions of a snapshot: the
 * module's `state` and `summary`, which the GET routes use without opening a room, and which
 * the room broadcasts. The state never holds the answer of a point still open.
 */
import type { SessionState, SessionSummary } from '@tutorloop/shared';
import { buildState } from '../session/session-view';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import { clozeProgress, clozeSummary, rightCount } from './cloze-rules';

/** Points done of the drill (as `recalledCount` of `totalPoints`), and the drill's own progress. */
export function clozeState(snapshot: Pick<SessionSnapshot, 'session' | 'pendingAction'>): SessionState {
  const state = typeStateOf(snapshot.session, 'cloze');
  const view = buildState(snapshot.session, { recalledCount: state.results.length, totalPoints: state.items.length }, snapshot.pendingAction);
  return { ...view, cloze: clozeProgress(state, view.status === 'awaiting_client_action') };
}

/**
 * The summary of a drill: every finished point with its outcome and next due date (the card the
 * drill's review just scheduled), right answers of the points asked, and each point's tries.
 */
export function clozeSessionSummary(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'cards'>, now: Date): SessionSummary {
  const { session } = snapshot;
  const state = typeStateOf(session, 'cloze');
  const reason = (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'];
  const ended = session.endedAt ?? now;
  const contents = new Map(snapshot.checklist.map((entry) => [entry.pointId, entry.content]));
  return {
    sessionId: session.id,
    type: 'cloze',
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason,
    turns: session.turn,
    recalledCount: rightCount(state.results),
    totalPoints: state.results.length,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: state.results.map((result) => {
      const due = snapshot.cards.get(result.pointId)?.due;
      return { id: result.pointId, content: contents.get(result.pointId) ?? result.prompt, recalled: result.rating !== 'again', ...(due ? { nextDue: due.toISOString() } : {}) };
    }),
    cloze: clozeSummary(state),
  };
}
