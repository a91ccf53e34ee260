/**
 * The rules of a recall session (SPEC §4.1), as pure functions over a snapshot: which points
 * an evaluation checks off, where the probe moves, what a mode change sets, the summary.
 * The room applies what they decide in one transaction per phase.
 */
import type { SessionSummary } from '@tutorloop/shared';
import type { ChecklistPoint, EvaluationResult, ModeChange, TutorInput } from '../provider';
import type { ChecklistEntry } from '../storage/checklists';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { RecallSessionState } from './recall-state';
import type { StoredSession } from '../storage/sessions';
import { typeStateOf } from '../storage/session-type-state';

/** What applying an evaluation changes: the points checked off, and the probe. */
export interface EvaluationDecision {
  recalled: EvaluationResult['recalledPoints'];
  /** The checklist once they are checked off. */
  checklist: ChecklistEntry[];
  typeState: RecallSessionState;
}

/** Checks off the recalled points and moves the probe (SPEC §4.1): pure, applied by the room in one transaction. */
export function decideEvaluation(snapshot: SessionSnapshot, evaluation: EvaluationResult, now: Date): EvaluationDecision {
  const state = typeStateOf(snapshot.session, 'recall');
  const recalledIds = new Map(evaluation.recalledPoints.map((point) => [point.id, point]));
  const checklist = snapshot.checklist.map((entry): ChecklistEntry => {
    const point = recalledIds.get(entry.pointId);
    return point ? { ...entry, status: 'recalled', confidence: point.confidence, turnRecalled: snapshot.session.turn, recalledAt: now } : entry;
  });
  const probe = checklist[state.probeIndex];
  const probeRecalled = !probe || probe.status === 'recalled' || recalledIds.has(probe.pointId);
  const probeIndex = probeRecalled ? nextPendingIndex(checklist, state.probeIndex) : state.probeIndex;
  // Attempts count learner turns spent on the current probe point; in a rabbit hole the tutor is
  // not probing, and a question is not an attempt: it never escalates the cue (issue 15).
  const asked = evaluation.messageKind === 'question';
  const probeAttempts = probeRecalled ? 0 : state.mode === 'rabbithole' || asked ? state.probeAttempts : state.probeAttempts + 1;
  return { recalled: evaluation.recalledPoints, checklist, typeState: { ...state, probeIndex, probeAttempts } };
}

/**
 * The state a mode change sets, whoever asked for it (the learner or the tutor): leaving a
 * rabbit hole starts the current point's cueing afresh.
 */
export function applyModeChange(state: RecallSessionState, change: ModeChange): RecallSessionState {
  return change.mode === 'rabbithole'
    ? { ...state, mode: 'rabbithole', rabbitholeTopic: change.topic }
    : { ...state, mode: 'recall', rabbitholeTopic: null, probeAttempts: 0 };
}

/** A mode change applies only to recall sessions, and only when it changes something. */
export function modeChangeApplies(input: TutorInput, change: ModeChange): boolean {
  if (change.mode === 'rabbithole') return input.mode === 'recall' && change.topic.trim().length > 0;
  return input.mode === 'rabbithole';
}

export function toChecklistPoint(entry: ChecklistEntry): ChecklistPoint {
  return { id: entry.pointId, content: entry.content, context: entry.context };
}

/** The next pending checklist index after `from`, wrapping around; `from` if none is pending. */
export function nextPendingIndex(checklist: ChecklistEntry[], from: number): number {
  for (let step = 1; step <= checklist.length; step += 1) {
    const index = (from + step) % checklist.length;
    if (checklist[index]!.status === 'pending') return index;
  }
  return from;
}

/** True once every point of a non-empty checklist is recalled: the session completes. */
export function allRecalled(checklist: ChecklistEntry[]): boolean {
  return checklist.length > 0 && checklist.every((entry) => entry.status === 'recalled');
}

/** The summary of an ended recall session: points recalled, and when each is due next. */
export function recallSummary(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'cards'>, now: Date): SessionSummary {
  const session: StoredSession = snapshot.session;
  const ended = session.endedAt ?? now;
  return {
    sessionId: session.id,
    type: session.type,
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason: (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'],
    turns: session.turn,
    recalledCount: snapshot.checklist.filter((entry) => entry.status === 'recalled').length,
    totalPoints: snapshot.checklist.length,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: snapshot.checklist.map((entry) => {
      const card = snapshot.cards.get(entry.pointId);
      return {
        id: entry.pointId,
        content: entry.content,
        recalled: entry.status === 'recalled',
        ...(card ? { nextDue: card.due.toISOString() } : {}),
      };
    }),
  };
}
