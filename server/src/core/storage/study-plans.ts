/**
 * The study plans port (SPEC §3, §4.4): plans written by learners (their own, private or
 * shared) and the built-in plans shipped with the server (no owner, shared with everyone).
 * The plan's content is one value validated by the shared `StudyPlanContent` schema on every
 * write and every read, like a session's type state (R7).
 */
import { StudyPlanContent } from '@tutorloop/shared';
import { z } from 'zod';
import { StorageError } from './storage-error';

/** A study plan as stored. */
export interface StoredStudyPlan {
  id: string;
  /** The learner who wrote it; null for a built-in plan. */
  ownerId: string | null;
  /** Shipped with the server (server/study-plans/); never owned, always shared. */
  builtIn: boolean;
  /** Readable (not writable) by every learner. */
  shared: boolean;
  /** The plan's title (a copy of `plan.title`, for listing). */
  title: string;
  plan: StudyPlanContent;
  createdAt: Date;
  updatedAt: Date;
}

/** A learner's plan to create; `title` comes from the plan, `updatedAt` starts at `createdAt`. */
export interface NewStudyPlan {
  id: string;
  ownerId: string;
  shared: boolean;
  plan: StudyPlanContent;
  createdAt: Date;
}

/** A built-in plan to install or refresh (its id is stable: the file's name). */
export interface BuiltInStudyPlan {
  id: string;
  plan: StudyPlanContent;
}

/** The changes `update` applies. */
export interface StudyPlanUpdate {
  plan?: StudyPlanContent;
  shared?: boolean;
}

/** Reads study plans. */
export interface StudyPlanReader {
  get(planId: string): Promise<StoredStudyPlan | null>;
  /**
   * What the learner may read: their own plans, every shared plan and every built-in plan.
   * Learners' plans first, most recently updated first; built-in plans last, by title; ties by id.
   */
  listVisibleTo(learnerId: string): Promise<StoredStudyPlan[]>;
  /** Every built-in plan, by id. */
  listBuiltIn(): Promise<StoredStudyPlan[]>;
}

/** Reads and writes study plans (inside a transaction). */
export interface StudyPlanRepository extends StudyPlanReader {
  /**
   * Adds a learner's plan. Throws `invalid_value` for a plan that does not parse,
   * `missing_reference` for an unknown owner, `conflict` for a taken id.
   */
  create(plan: NewStudyPlan): Promise<StoredStudyPlan>;
  /**
   * Replaces the plan and/or the shared flag and moves `updatedAt` to `now`; returns the plan
   * as now stored. Throws `not_found` for an unknown id, `invalid_value` for a plan that does
   * not parse or for a built-in plan (those change only through `upsertBuiltIn`).
   */
  update(planId: string, changes: StudyPlanUpdate, now: Date): Promise<StoredStudyPlan>;
  /**
   * Deletes a plan. Sessions keep working: a learning session copies its plan into its own
   * state when it is created. Returns false when there was no such plan.
   */
  delete(planId: string): Promise<boolean>;
  /**
   * Installs a built-in plan, or replaces its content when it changed (then `updatedAt` moves
   * to `now`; an unchanged plan is left as it was). Throws `conflict` when a learner's plan
   * holds the id, `invalid_value` for a plan that does not parse.
   */
  upsertBuiltIn(plan: BuiltInStudyPlan, now: Date): Promise<StoredStudyPlan>;
}

/** Validates a plan on its way into storage (a caller's bug otherwise: `invalid_value`). */
export function parseStoredPlan(value: unknown): StudyPlanContent {
  const parsed = StudyPlanContent.safeParse(value);
  if (!parsed.success) throw new StorageError('invalid_value', `invalid study plan: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads a stored plan back; a row that does not parse is damaged and throws `corrupt`. */
export function readStoredPlan(planId: string, value: unknown): StudyPlanContent {
  const parsed = StudyPlanContent.safeParse(value);
  if (!parsed.success) throw new StorageError('corrupt', `study plan ${planId}: stored plan does not parse: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
