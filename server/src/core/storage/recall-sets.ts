/** The recall sets port (SPEC §3): a learner's sets and their ordered points. */

/** A recall set as stored. */
export interface RecallSetRecord {
  id: string;
  learnerId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A recall point as stored: one thing to remember, at a position in its set. */
export interface RecallPointRecord {
  id: string;
  recallSetId: string;
  content: string;
  context: string | null;
  position: number;
  createdAt: Date;
}

/** A set to create; `updatedAt` starts at `createdAt`. */
export type NewRecallSet = Omit<RecallSetRecord, 'updatedAt'>;

/** Reads recall sets and points. */
export interface RecallSetReader {
  get(setId: string): Promise<RecallSetRecord | null>;
  /** The learner's sets, most recently updated first (ties by id). */
  listByLearner(learnerId: string): Promise<RecallSetRecord[]>;
  /** The set's points by position. */
  listPoints(setId: string): Promise<RecallPointRecord[]>;
  /** The points of several sets, by set id then position. */
  listPointsOfSets(setIds: readonly string[]): Promise<RecallPointRecord[]>;
}

/** Reads and writes recall sets (inside a transaction). */
export interface RecallSetRepository extends RecallSetReader {
  /** Adds a set; throws `missing_reference` for an unknown learner, `conflict` for a taken id. */
  create(set: NewRecallSet): Promise<RecallSetRecord>;
  /** Renames or redescribes a set and moves its `updatedAt` to `now`; throws `not_found` for an unknown id. */
  update(setId: string, changes: { name?: string; description?: string | null }, now: Date): Promise<RecallSetRecord>;
  /**
   * Deletes a set with its points; with them go their checklist entries and the learners'
   * cards (and review logs) for them. Sessions of the set stay, their `recallSetId` null.
   * Returns false when there was no such set.
   */
  delete(setId: string): Promise<boolean>;
  /** Adds a point; throws `missing_reference` for an unknown set. */
  addPoint(point: RecallPointRecord): Promise<void>;
  /** Rewrites a point in place (its id, and so its schedule, stays); throws `not_found` for an unknown id. */
  updatePoint(pointId: string, changes: { content: string; context: string | null; position: number }): Promise<void>;
  /** Deletes points, cascading like `delete`. Unknown ids are ignored. */
  deletePoints(pointIds: readonly string[]): Promise<void>;
}
