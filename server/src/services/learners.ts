/** Registration, login and the learner's own settings, through the storage port. */
import type { Credentials, Learner, LoginCredentials } from '@tutorloop/shared';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { StoredLearner } from '../core/storage/learners';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

export function toLearner(learner: StoredLearner): Learner {
  return { id: learner.id, username: learner.username, createdAt: learner.createdAt.toISOString(), desiredRetention: learner.desiredRetention };
}

export class LearnerService {
  constructor(private readonly storage: Storage) {}

  async register(credentials: Credentials, now: Date): Promise<Learner> {
    if (await this.storage.read((reader) => reader.learners.findByUsername(credentials.username))) {
      throw new AppError('conflict', 'That username is taken.');
    }
    const passwordHash = await hashPassword(credentials.password);
    const created = await this.storage.transaction((tx) =>
      tx.learners.create({ id: crypto.randomUUID(), username: credentials.username, passwordHash, createdAt: now }),
    );
    // Taken meanwhile by a registration that finished first.
    if (!created.ok) throw new AppError('conflict', 'That username is taken.');
    return toLearner(created.value);
  }

  async login(credentials: LoginCredentials): Promise<Learner> {
    const learner = await this.storage.read((reader) => reader.learners.findByUsername(credentials.username));
    // An unknown username costs the same scrypt work as a wrong password, so timing does not tell them apart.
    const verified = await verifyPassword(credentials.password, learner?.passwordHash ?? (await this.decoyHash()));
    if (!learner || !verified) throw new AppError('unauthorized', 'Wrong username or password.');
    return toLearner(learner);
  }

  private decoy: Promise<string> | undefined;
  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(crypto.randomUUID());
    return this.decoy;
  }

  async get(learnerId: string): Promise<Learner | null> {
    const learner = await this.storage.read((reader) => reader.learners.get(learnerId));
    return learner ? toLearner(learner) : null;
  }

  async update(learnerId: string, changes: { desiredRetention: number }): Promise<Learner> {
    return toLearner(await this.storage.transaction((tx) => tx.learners.update(learnerId, changes)));
  }
}
