/**
 * Job claims in PostgreSQL (core/scheduler/job-claims.ts; SPEC §11): one row per learner and
 * job, taken in one statement — inserted, or taken over only once the holder's claim has
 * expired (the database clock, the one clock every instance shares). An instance that dies
 * mid-job frees it after `ttlMs`; one that finishes deletes its row.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JobClaims, LearnerJob } from '../../../core/scheduler/job-claims';

/** Long enough for a fit on a large log (they take seconds to a few minutes); a dead holder blocks a learner's job at most this long. */
const defaultTtlMs = 30 * 60 * 1000;

export class PgJobClaims implements JobClaims {
  readonly shared = true;
  /** This instance, as a holder of claims. */
  private readonly owner = randomUUID();

  constructor(
    private readonly pool: pg.Pool,
    private readonly ttlMs = defaultTtlMs,
  ) {}

  async claim(learnerId: string, job: LearnerJob): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO learner_job_claims AS claim (learner_id, job, owner, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4::float8 / 1000))
       ON CONFLICT (learner_id, job) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE claim.expires_at <= now()
       RETURNING owner`,
      [learnerId, job, this.owner, this.ttlMs],
    );
    return result.rowCount === 1;
  }

  async held(learnerId: string, job: LearnerJob): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM learner_job_claims WHERE learner_id = $1 AND job = $2 AND expires_at > now()', [learnerId, job]);
    return result.rowCount === 1;
  }

  async release(learnerId: string, job: LearnerJob): Promise<void> {
    await this.pool.query('DELETE FROM learner_job_claims WHERE learner_id = $1 AND job = $2 AND owner = $3', [learnerId, job, this.owner]);
  }
}
