/** Assessment sessions as a session module (SPEC §4.3): created from a blueprint of the catalog. */
import type { SessionModule } from '../session/session-module';
import { AssessmentRoom, type AssessmentRoomDeps } from './assessment-room';
import { assessmentSnapshotNeeds } from './assessment-state';
import { assessmentState, assessmentSummary } from './assessment-view';

/** What the module needs is what its rooms need. */
export type AssessmentModuleDeps = AssessmentRoomDeps;

export function assessmentModule(deps: AssessmentModuleDeps): SessionModule<'assessment'> {
  return {
    type: 'assessment',
    snapshotNeeds: assessmentSnapshotNeeds,
    /**
     * Its seed drives item generation, so a restart (or a replay of the same answers) yields
     * the same items; the clock starts at the first item.
     */
    async create({ learnerId, body, now }) {
      const blueprint = deps.catalog.getAssessment(body.blueprintId);
      if (!blueprint) return { ok: false, error: { code: 'not_found', message: `No assessment blueprint "${body.blueprintId}"; GET /api/blueprints lists them.` } };
      const id = deps.ids.next();
      await deps.storage.transaction((tx) =>
        tx.sessions.create({
          id,
          learnerId,
          status: 'pending',
          title: blueprint.title,
          recallSetId: null,
          typeState: { type: 'assessment', blueprintId: blueprint.id, seed: deps.ids.next(), timeLimitSeconds: blueprint.timeLimitMinutes * 60 },
          createdAt: now,
        }),
      );
      return { ok: true, value: id };
    },
    /** Items answered of the blueprint's items. */
    async progress(reader, session) {
      const answered = (await reader.assessments.listResponses(session.id)).length;
      const total = deps.catalog.getAssessment(session.typeState.blueprintId)?.totalItems ?? answered;
      return { recalledCount: answered, totalPoints: total };
    },
    openRoom(sessionId, onIdle) {
      return new AssessmentRoom(sessionId, deps, onIdle);
    },
    state: (snapshot, now) => assessmentState(deps.catalog, snapshot, now),
    summary: (snapshot, now) => assessmentSummary(deps.catalog, snapshot, now),
  };
}
