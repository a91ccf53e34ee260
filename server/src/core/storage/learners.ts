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
  /**
   * Tokens carry the version they were issued under; moving it on ("sign out everywhere", a
   * new password) refuses every token issued before. Starts at 0.
   */
  tokenVersion: number;
  createdAt: Date;
}

/** A learner to create; the retention defaults to `defaultDesiredRetention`, the token version to 0. */
export type NewLearner = Omit<StoredLearner, 'desiredRetention' | 'tokenVersion'> & { desiredRetention?: number };

/** What `update` may change. */
export interface LearnerChanges {
  desiredRetention?: number;
  passwordHash?: string;
  tokenVersion?: number;
}

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
  /** Changes the learner's settings, password hash or token version; throws `not_found` for an unknown id. */
  update(learnerId: string, changes: LearnerChanges): Promise<StoredLearner>;
  /**
   * Deletes the learner and everything of theirs: recall sets with their points, cards and
   * review logs, sessions with everything of them, model call records of those sessions,
   * study plans, agent logs, scheduler runs. Returns false when there was no such learner.
   */
  delete(learnerId: string): Promise<boolean>;
}
