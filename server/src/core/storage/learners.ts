/** The learners port (SPEC §3): accounts and their scheduling preference. */

/** The retention FSRS targets for a learner who never chose one. */
export const defaultDesiredRetention = 0.9;

/** A learner as stored. `username` keeps its case; uniqueness ignores case. */
export interface StoredLearner {
  id: string;
  username: string;
  passwordHash: string;
  /** FSRS target retention, 0–1. */
  desiredRetention: number;
  createdAt: Date;
}

/** A learner to create; the retention defaults to `defaultDesiredRetention`. */
export type NewLearner = Omit<StoredLearner, 'desiredRetention'> & { desiredRetention?: number };

/** Creating a learner whose username is taken (in any case) is an expected outcome, not an error. */
export type CreateLearnerResult = { ok: true; value: StoredLearner } | { ok: false; error: 'username_taken' };

/** Reads learners. */
export interface LearnerReader {
  get(learnerId: string): Promise<StoredLearner | null>;
  /** Case-insensitive: `Ada` finds `ada`. */
  findByUsername(username: string): Promise<StoredLearner | null>;
}

/** Reads and writes learners (inside a transaction). */
export interface LearnerRepository extends LearnerReader {
  /** Adds a learner unless the username is taken in any case. */
  create(learner: NewLearner): Promise<CreateLearnerResult>;
  /** Changes the learner's settings; throws `not_found` for an unknown id. */
  update(learnerId: string, changes: { desiredRetention: number }): Promise<StoredLearner>;
}
