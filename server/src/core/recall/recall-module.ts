/** Recall sessions as a session module (SPEC §4.1): created from a recall set's due points. */
import type { SessionModule } from '../session/session-module';
import { checklistProgress } from '../session/session-view';
import { initialRecallState, recallSnapshotNeeds } from './recall-state';
import { isDue } from '../scheduler/fsrs';
import { RecallRoom, type RecallRoomDeps } from './recall-room';
import { recallSummary } from './recall-rules';
import { recallState } from './recall-turn';

/** What the module needs is what its rooms need. */
export type RecallModuleDeps = RecallRoomDeps;

export function recallModule(deps: RecallModuleDeps): SessionModule<'recall'> {
  return {
    type: 'recall',
    snapshotNeeds: recallSnapshotNeeds,
    /**
     * A recall session's checklist holds the set's points that are due (never reviewed, or
     * FSRS due ≤ now); if none is due, all of them (SPEC §4.1).
     */
    async create({ learnerId, body, now }) {
      const id = deps.ids.next();
      return deps.storage.transaction(async (tx) => {
        const set = await tx.recallSets.get(body.recallSetId);
        // Another learner's set is indistinguishable from none.
        if (!set || set.learnerId !== learnerId) return { ok: false, error: { code: 'not_found', message: 'No recall set with that id.' } } as const;
        const points = await tx.recallSets.listPoints(set.id);
        if (points.length === 0) return { ok: false, error: { code: 'invalid_payload', message: 'This recall set has no points yet; add some first.' } } as const;
        const cardsByPoint = await tx.cards.listFor(learnerId, points.map((point) => point.id));
        const due = points.filter((point) => isDue(cardsByPoint.get(point.id) ?? null, now));
        const checklist = due.length > 0 ? due : points;
        await tx.sessions.create({ id, learnerId, status: 'pending', title: set.name, recallSetId: set.id, typeState: initialRecallState(due.length === 0), createdAt: now });
        await tx.checklists.add(id, checklist.map((point) => point.id));
        return { ok: true, value: id } as const;
      });
    },
    async progress(reader, session) {
      return checklistProgress(await reader.checklists.list(session.id));
    },
    openRoom(sessionId, onIdle) {
      return new RecallRoom(sessionId, deps, onIdle);
    },
    state: (snapshot) => recallState(snapshot),
    summary: recallSummary,
  };
}
