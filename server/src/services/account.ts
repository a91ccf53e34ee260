/**
 * The learner's own account (SPEC §6, §8), through the storage port: a new password (the
 * current one required), signing out everywhere, exporting every piece of their data, and
 * deleting the account with all of it.
 *
 * Revocation works by token version (auth/tokens.ts): moving it on refuses every token issued
 * before. A new password moves it too — whoever knew the old password is signed out — and the
 * caller gets a fresh token so the device they changed it on stays signed in.
 */
import type { AccountExport, ChangePasswordBody, DeleteAccountBody, Learner } from '@tutorloop/shared';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { StoredLearner } from '../core/storage/learners';
import type { Storage, StorageReader } from '../core/storage/storage';
import { AppError } from './app-error';
import { toLearner } from './learners';

export class AccountService {
  constructor(private readonly storage: Storage) {}

  /** Sets a new password after checking the current one; every token issued before is refused. */
  async changePassword(learnerId: string, body: ChangePasswordBody): Promise<Learner> {
    const learner = await this.require(learnerId);
    if (!(await verifyPassword(body.currentPassword, learner.passwordHash))) {
      throw new AppError('invalid_payload', 'currentPassword: that is not your current password.');
    }
    if (body.newPassword === body.currentPassword) throw new AppError('invalid_payload', 'newPassword: choose a password different from the current one.');
    const passwordHash = await hashPassword(body.newPassword);
    const updated = await this.storage.transaction(async (tx) => {
      const current = await tx.learners.get(learnerId);
      if (!current) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
      return tx.learners.update(learnerId, { passwordHash, tokenVersion: current.tokenVersion + 1 });
    });
    return toLearner(updated);
  }

  /** Refuses every token issued so far, this device's included. */
  async signOutEverywhere(learnerId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      const current = await tx.learners.get(learnerId);
      if (!current) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
      await tx.learners.update(learnerId, { tokenVersion: current.tokenVersion + 1 });
    });
  }

  /** Every piece of the learner's data, read in one consistent unit. */
  async export(learnerId: string, now: Date): Promise<AccountExport> {
    return this.storage.read(async (reader) => {
      const learner = await reader.learners.get(learnerId);
      if (!learner) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
      return {
        format: 'tutorloop-export',
        version: 1,
        exportedAt: now.toISOString(),
        learner: toLearner(learner),
        recallSets: await exportRecallSets(reader, learnerId),
        cards: await exportCards(reader, learnerId),
        sessions: await exportSessions(reader, learnerId),
        studyPlans: (await reader.studyPlans.listVisibleTo(learnerId))
          .filter((plan) => plan.ownerId === learnerId)
          .map((plan) => ({ id: plan.id, title: plan.title, shared: plan.shared, createdAt: plan.createdAt.toISOString(), updatedAt: plan.updatedAt.toISOString(), plan: plan.plan })),
      };
    });
  }

  /**
   * Deletes the account and everything of it in one transaction, once the learner typed their
   * username (case-insensitively, as usernames are unique regardless of case).
   */
  async delete(learnerId: string, body: DeleteAccountBody): Promise<void> {
    await this.confirmDeletion(learnerId, body);
    await this.storage.transaction((tx) => tx.learners.delete(learnerId));
  }

  /** Throws unless the typed username is the learner's (checked before anything is stopped or deleted). */
  async confirmDeletion(learnerId: string, body: DeleteAccountBody): Promise<void> {
    const learner = await this.require(learnerId);
    if (body.confirmUsername.toLowerCase() !== learner.username.toLowerCase()) {
      throw new AppError('invalid_payload', `confirmUsername: type your username (${learner.username}) to confirm.`);
    }
  }

  /** The learner's session ids (their open rooms are closed before the account goes). */
  async sessionIds(learnerId: string): Promise<string[]> {
    return this.storage.read(async (reader) => (await reader.sessions.listByLearner(learnerId)).map((session) => session.id));
  }

  private async require(learnerId: string): Promise<StoredLearner> {
    const learner = await this.storage.read((reader) => reader.learners.get(learnerId));
    if (!learner) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
    return learner;
  }
}

async function exportRecallSets(reader: StorageReader, learnerId: string): Promise<AccountExport['recallSets']> {
  const sets = await reader.recallSets.listByLearner(learnerId);
  const points = await reader.recallSets.listPointsOfSets(sets.map((set) => set.id));
  return sets.map((set) => ({
    id: set.id,
    name: set.name,
    description: set.description,
    createdAt: set.createdAt.toISOString(),
    updatedAt: set.updatedAt.toISOString(),
    points: points
      .filter((point) => point.recallSetId === set.id)
      .map((point) => ({ id: point.id, content: point.content, context: point.context, position: point.position, createdAt: point.createdAt.toISOString() })),
  }));
}

async function exportCards(reader: StorageReader, learnerId: string): Promise<AccountExport['cards']> {
  const histories = await reader.scheduler.reviewHistory(learnerId);
  const cards = await reader.cards.listFor(learnerId, histories.map((history) => history.pointId));
  const exported: AccountExport['cards'] = [];
  for (const [pointId, card] of cards) {
    const reviews = await reader.cards.listReviewLogs(card.id);
    exported.push({
      id: card.id,
      pointId,
      state: card.state,
      due: card.due.toISOString(),
      stability: card.stability,
      difficulty: card.difficulty,
      elapsedDays: card.elapsedDays,
      scheduledDays: card.scheduledDays,
      reps: card.reps,
      lapses: card.lapses,
      lastReview: card.lastReview?.toISOString() ?? null,
      reviews: reviews.map((review) => ({ id: review.id, sessionId: review.sessionId, rating: review.rating, confidence: review.confidence, reviewedAt: review.reviewedAt.toISOString() })),
    });
  }
  return exported.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}

async function exportSessions(reader: StorageReader, learnerId: string): Promise<AccountExport['sessions']> {
  const sessions = await reader.sessions.listByLearner(learnerId);
  const exported: AccountExport['sessions'] = [];
  for (const session of sessions) {
    const messages = await reader.messages.list(session.id, { includeSuperseded: true });
    exported.push({
      id: session.id,
      type: session.type,
      status: session.status,
      title: session.title,
      recallSetId: session.recallSetId,
      turn: session.turn,
      endReason: session.endReason,
      createdAt: session.createdAt.toISOString(),
      updatedAt: session.updatedAt.toISOString(),
      endedAt: session.endedAt?.toISOString() ?? null,
      messages: messages.map((message) => ({
        id: message.id,
        seq: message.seq,
        role: message.role,
        content: message.content,
        createdAt: message.createdAt.toISOString(),
        toolCall: message.toolCall,
        widgetAnswer: message.widgetAnswer,
        stopped: message.stopped,
        supersededBy: message.supersededBy,
      })),
    });
  }
  return exported;
}
