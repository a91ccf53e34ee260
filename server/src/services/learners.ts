/** Registration, login and the learner's own settings. */
import { eq } from 'drizzle-orm';
import type { Credentials, Learner, LoginCredentials } from '@tutorloop/shared';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { Database } from '../db/database';
import { learners } from '../db/schema';
import { AppError } from './app-error';

type LearnerRow = typeof learners.$inferSelect;

export function toLearner(row: LearnerRow): Learner {
  return { id: row.id, username: row.username, createdAt: row.createdAt.toISOString(), desiredRetention: row.desiredRetention };
}

export class LearnerService {
  constructor(private readonly database: Database) {}

  async register(credentials: Credentials, now: Date): Promise<Learner> {
    const usernameKey = credentials.username.toLowerCase();
    if (this.database.select({ id: learners.id }).from(learners).where(eq(learners.usernameKey, usernameKey)).get()) {
      throw new AppError('conflict', 'That username is taken.');
    }
    const passwordHash = await hashPassword(credentials.password);
    try {
      const row = this.database
        .insert(learners)
        .values({ id: crypto.randomUUID(), username: credentials.username, usernameKey, passwordHash, createdAt: now })
        .returning()
        .get();
      return toLearner(row);
    } catch (error) {
      if (String((error as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) throw new AppError('conflict', 'That username is taken.');
      throw error;
    }
  }

  async login(credentials: LoginCredentials): Promise<Learner> {
    const row = this.database.select().from(learners).where(eq(learners.usernameKey, credentials.username.toLowerCase())).get();
    // An unknown username costs the same scrypt work as a wrong password, so timing does not tell them apart.
    const verified = await verifyPassword(credentials.password, row?.passwordHash ?? (await this.decoyHash()));
    if (!row || !verified) throw new AppError('unauthorized', 'Wrong username or password.');
    return toLearner(row);
  }

  private decoy: Promise<string> | undefined;
  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(crypto.randomUUID());
    return this.decoy;
  }

  get(learnerId: string): Learner | null {
    const row = this.database.select().from(learners).where(eq(learners.id, learnerId)).get();
    return row ? toLearner(row) : null;
  }

  update(learnerId: string, changes: { desiredRetention: number }): Learner {
    this.database.update(learners).set(changes).where(eq(learners.id, learnerId)).run();
    return this.get(learnerId)!;
  }
}
