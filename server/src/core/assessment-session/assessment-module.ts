/** Assessment sessions as a session module (SPEC §4.3): created from a blueprint of the catalog. */
import type { Catalog } from '../assessment';
import type { Clock, IdGenerator, Logger } from '../ports';
import type { SessionModule } from '../session/session-module';
import type { Storage } from '../storage/storage';
import { AssessmentRoom } from './assessment-room';
import type { CodeRunner } from './code-scoring';
import { assessmentSummary } from './assessment-view';

export interface AssessmentModuleDeps {
  storage: Storage;
  catalog: Catalog;
  codeRunner: CodeRunner;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  socketGraceMs?: number;
}

export function assessmentModule(deps: AssessmentModuleDeps): SessionModule<'assessment'> {
  return {
    type: 'assessment',
    /**
     * Its seed drives item generation, so a restart (or a replay of the same answers) yields
     * the same items; the clock starts at the first item.
     */
    async create({ learnerId, body, now }) {
      const blueprint = deps.catalog.getAssessment(body.blueprintId);
      if (!blueprint) return { ok: false, error: { code: 'not_found', message: `No assessment blueprint "${body.blueprintId}"; GET /api/blueprints lists them.` } };
      const id = crypto.randomUUID();
      await deps.storage.transaction((tx) =>
        tx.sessions.create({
          id,
          learnerId,
          status: 'pending',
          title: blueprint.title,
          recallSetId: null,
          typeState: { type: 'assessment', blueprintId: blueprint.id, seed: crypto.randomUUID(), timeLimitSeconds: blueprint.timeLimitMinutes * 60 },
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
    summary: (snapshot, now) => assessmentSummary(deps.catalog, snapshot, now),
  };
}
