/**
 * Which points a recall session reviews, and with what evidence (SPEC §4.1; the grade
 * mapping is in fsrs.ts). Pure functions over a session snapshot.
 *
 * - A point recalled from a multiple-choice answer was recognised, not recalled.
 * - The probe point recalled after the tutor had to cue it again (probeAttempts > 0: the
 *   learner answered the first cue without recalling it, then got a hint) is a cued recall.
 * - Anything else recalled — at the first cue, or unprompted — is a free recall.
 * - At the end of a session only a point the tutor asked about and the learner answered
 *   without recalling is rated Again. The probe stays on a point until it is recalled, so
 *   that point is the probe point with attempts spent on it. Points never cued are not
 *   reviewed at all: their schedule stays as it was.
 */
import type { WidgetKind } from '@tutorloop/shared';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { ChecklistEntry } from '../storage/checklists';
import type { RecallSessionState } from './recall-state';
import { typeStateOf } from '../storage/session-type-state';
import { RecallEvidences, type RecallEvidence } from './recall-rating';

/** What answering each widget kind shows at most, or null when it is judged like any message: a pick is recognition. */
const evidenceOfWidget: Record<WidgetKind, RecallEvidence | null> = { multiple_choice: RecallEvidences.recognition, free_text: null, code_editor: null, rating: null };

/** The evidence of recall for `pointId` in the turn answering `snapshot.oldestUnanswered`. */
export function recallEvidence(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'oldestUnanswered' | 'actions'>, pointId: string): RecallEvidence {
  const answer = snapshot.oldestUnanswered?.widgetAnswer;
  if (answer) {
    const action = snapshot.actions.find((candidate) => candidate.id === answer.widgetId);
    const capped = action ? evidenceOfWidget[action.kind] : null;
    if (capped) return capped;
  }
  const state = typeStateOf(snapshot.session, 'recall');
  const probe = snapshot.checklist[state.probeIndex];
  if (probe?.pointId === pointId && state.probeAttempts > 0) return RecallEvidences.cued;
  return RecallEvidences.free;
}

/** The points an ending session rates Again: asked about, answered, never recalled. */
export function failedPoints(checklist: readonly ChecklistEntry[], state: Pick<RecallSessionState, 'probeIndex' | 'probeAttempts'>): ChecklistEntry[] {
  const probe = checklist[state.probeIndex];
  return probe && probe.status === 'pending' && state.probeAttempts > 0 ? [probe] : [];
}
