/**
 * Claims on a learner's background jobs (the FSRS optimiser, SPEC §11): with several
 * instances on one database, each runs the hourly sweep and takes requests, and a claim makes
 * sure one of them — not each — optimises a learner. A port: one process needs no claims
 * (`localJobClaims`: its queue already runs a learner once); PostgreSQL holds them in a table
 * (db/postgres/fleet-learners/pg-job-claims.ts).
 */

/** The background jobs claimed per learner. */
export type LearnerJob = 'optimize';

export interface JobClaims {
  /**
   * True when this instance may run `job` for the learner now: no other instance holds it.
   * The claim lapses by itself after a while, so an instance that dies holding one frees it.
   */
  claim(learnerId: string, job: LearnerJob): Promise<boolean>;
  /** Gives the claim up (the job ended, however). */
  release(learnerId: string, job: LearnerJob): Promise<void>;
  /** True while some instance holds the claim (so a learner asking this one sees the job running there). */
  held(learnerId: string, job: LearnerJob): Promise<boolean>;
  /** True when the claims are shared with other instances (a run there may serve a request made here). */
  readonly shared: boolean;
}

/** One process: every claim is granted (its queue runs a learner's job once at a time). */
export const localJobClaims: JobClaims = {
  claim: () => Promise.resolve(true),
  release: () => Promise.resolve(),
  held: () => Promise.resolve(false),
  shared: false,
};
