/**
 * Who may do what with a study plan (SPEC §6: "Plans … belong to their author; a `shared: true`
 * flag makes one readable (not writable) by every learner"; built-in plans are shared and
 * belong to no one). The REST service and the learning module both decide with these.
 */
import type { StoredStudyPlan } from '../storage/study-plans';

/** The learner may read it (and start a learning session on it). */
export function canReadStudyPlan(plan: Pick<StoredStudyPlan, 'ownerId' | 'shared' | 'builtIn'>, learnerId: string): boolean {
  return plan.ownerId === learnerId || plan.shared || plan.builtIn;
}

/** The learner may change or delete it: only its author, and never a built-in plan. */
export function canWriteStudyPlan(plan: Pick<StoredStudyPlan, 'ownerId' | 'builtIn'>, learnerId: string): boolean {
  return !plan.builtIn && plan.ownerId === learnerId;
}
