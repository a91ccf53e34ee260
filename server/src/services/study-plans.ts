/**
 * Study plans over REST (SPEC §4.4, §6), through the storage port. A learner reads their own
 * plans, the shared ones and the built-in ones; only the author writes a plan, and no one
 * writes a built-in plan. Another learner's private plan answers as if absent (404), as recall
 * sets do; a plan one may read but not write answers 403.
 *
 * Deleting a plan is always allowed: a learning session copies its plan into its own state
 * when it is created, so sessions already made keep working (and keep their plan as it was).
 */
import type { StudyPlanBody, StudyPlanDetail, StudyPlanImportBody, StudyPlanSummary } from '@tutorloop/shared';
import type { Catalog } from '../core/assessment';
import { uuidGenerator, type IdGenerator } from '../core/ports';
import type { BuiltInStudyPlan, StoredStudyPlan, StudyPlanReader } from '../core/storage/study-plans';
import type { Storage } from '../core/storage/storage';
import { canReadStudyPlan, canWriteStudyPlan } from '../core/study-plans/access';
import { importStudyPlan } from '../core/study-plans/import-plan';
import { checkSkillBlueprints, formatIssues, type SkillBlueprintIds } from '../core/study-plans/validate-plan';
import { AppError } from './app-error';

/** The skill blueprint ids of a catalog: what practice steps may name. */
export function skillBlueprintIds(catalog: Pick<Catalog, 'skills'>): SkillBlueprintIds {
  return new Set(catalog.skills.keys());
}

export class StudyPlanService {
  private readonly skillIds: SkillBlueprintIds;

  constructor(
    private readonly storage: Storage,
    catalog: Pick<Catalog, 'skills'>,
    private readonly ids: IdGenerator = uuidGenerator,
  ) {
    this.skillIds = skillBlueprintIds(catalog);
  }

  list(learnerId: string): Promise<StudyPlanSummary[]> {
    return this.storage.read(async (reader) => (await reader.studyPlans.listVisibleTo(learnerId)).map((plan) => summarize(plan, learnerId)));
  }

  get(learnerId: string, planId: string): Promise<StudyPlanDetail> {
    return this.storage.read(async (reader) => detail(await readable(reader.studyPlans, learnerId, planId), learnerId));
  }

  /** Stores a plan the edge has parsed with `StudyPlanBody`; its practice steps must name known skill blueprints. */
  async create(learnerId: string, body: StudyPlanBody, now: Date): Promise<StudyPlanDetail> {
    this.checkBlueprints(body);
    const stored = await this.storage.transaction((tx) => tx.studyPlans.create({ id: this.ids.next(), ownerId: learnerId, shared: body.shared, plan: body.plan, createdAt: now }));
    return detail(stored, learnerId);
  }

  /** A plan from JSON text or Markdown with front matter (core/study-plans/parse-markdown.ts). */
  import(learnerId: string, body: StudyPlanImportBody, now: Date): Promise<StudyPlanDetail> {
    const imported = importStudyPlan(body.format, body.text, this.skillIds);
    if (!imported.ok) throw new AppError('invalid_payload', imported.error);
    return this.create(learnerId, { plan: imported.value, shared: body.shared }, now);
  }

  /** Replaces the plan and its shared flag (PUT): the author only. */
  async update(learnerId: string, planId: string, body: StudyPlanBody, now: Date): Promise<StudyPlanDetail> {
    this.checkBlueprints(body);
    const stored = await this.storage.transaction(async (tx) => {
      writable(await readable(tx.studyPlans, learnerId, planId), learnerId);
      return tx.studyPlans.update(planId, { plan: body.plan, shared: body.shared }, now);
    });
    return detail(stored, learnerId);
  }

  async delete(learnerId: string, planId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      writable(await readable(tx.studyPlans, learnerId, planId), learnerId);
      await tx.studyPlans.delete(planId);
    });
  }

  /**
   * Installs the plans shipped with the server (at start): each is added or refreshed under its
   * stable id, and a built-in plan no longer shipped is removed (sessions keep their copy).
   */
  async installBuiltIns(plans: readonly BuiltInStudyPlan[], now: Date): Promise<void> {
    await this.storage.transaction(async (tx) => {
      const shipped = new Set(plans.map((plan) => plan.id));
      for (const stale of (await tx.studyPlans.listBuiltIn()).filter((plan) => !shipped.has(plan.id))) await tx.studyPlans.delete(stale.id);
      for (const plan of plans) await tx.studyPlans.upsertBuiltIn(plan, now);
    });
  }

  private checkBlueprints(body: StudyPlanBody): void {
    const issues = checkSkillBlueprints(body.plan, this.skillIds);
    if (issues.length > 0) throw new AppError('invalid_payload', formatIssues(issues, { prefix: ['plan'] }));
  }
}

/** The plan if the learner may read it; another learner's private plan is indistinguishable from none. */
async function readable(plans: StudyPlanReader, learnerId: string, planId: string): Promise<StoredStudyPlan> {
  const plan = await plans.get(planId);
  if (!plan || !canReadStudyPlan(plan, learnerId)) throw new AppError('not_found', 'No study plan with that id.');
  return plan;
}

/** Throws 403 unless the learner wrote the plan (a readable plan of someone else, or a built-in one). */
function writable(plan: StoredStudyPlan, learnerId: string): void {
  if (canWriteStudyPlan(plan, learnerId)) return;
  throw new AppError('forbidden', plan.builtIn ? 'Built-in study plans cannot be changed; import a copy to edit it.' : 'Only the author of a study plan can change or delete it.');
}

function summarize(plan: StoredStudyPlan, learnerId: string): StudyPlanSummary {
  return {
    id: plan.id,
    title: plan.title,
    topic: plan.plan.topic,
    audience: plan.plan.audience,
    stepCount: plan.plan.steps.length,
    concepts: [...new Set(plan.plan.steps.map((step) => step.concept))],
    shared: plan.shared,
    owned: plan.ownerId === learnerId,
    builtIn: plan.builtIn,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}

function detail(plan: StoredStudyPlan, learnerId: string): StudyPlanDetail {
  return { ...summarize(plan, learnerId), plan: plan.plan };
}
