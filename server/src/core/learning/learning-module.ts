/**
 * Learning sessions as a session module (SPEC §4.4): created from a study plan the learner may
 * read (their own, a shared one or a built-in one), whose content is copied into the session's
 * state — so editing or deleting the plan never changes a session already running.
 */
import type { SessionModule } from '../session/session-module';
import { canReadStudyPlan } from '../study-plans/access';
import { LearningRoom, type LearningRoomDeps } from './learning-room';
import { learningSnapshotNeeds } from './learning-state';
import { learningSessionSummary, learningState } from './learning-view';
import { initialLearningState, learningProgress } from './learning-rules';

/** What the module needs is what its rooms need. */
export type LearningModuleDeps = LearningRoomDeps;

export function learningModule(deps: LearningModuleDeps): SessionModule<'learning'> {
  return {
    type: 'learning',
    snapshotNeeds: learningSnapshotNeeds,
    async create({ learnerId, body, now }) {
      const id = deps.ids.next();
      return deps.storage.transaction(async (tx) => {
        const plan = await tx.studyPlans.get(body.studyPlanId);
        // A plan the learner may not read is indistinguishable from none.
        if (!plan || !canReadStudyPlan(plan, learnerId)) {
          return { ok: false, error: { code: 'not_found', message: `No study plan "${body.studyPlanId}"; GET /api/study-plans lists the plans you can use.` } } as const;
        }
        await tx.sessions.create({ id, learnerId, status: 'pending', title: plan.plan.title, recallSetId: null, typeState: initialLearningState(plan.id, plan.plan), createdAt: now });
        return { ok: true, value: id } as const;
      });
    },
    /** Steps done of the plan's steps. */
    async progress(_reader, session) {
      const progress = learningProgress(session.typeState);
      return { recalledCount: progress.steps.filter((step) => step.status === 'done').length, totalPoints: progress.totalSteps };
    },
    openRoom(sessionId, onIdle) {
      return new LearningRoom(sessionId, deps, onIdle);
    },
    state: (snapshot) => learningState(snapshot),
    summary: (snapshot, now) => learningSessionSummary(snapshot, now),
  };
}
