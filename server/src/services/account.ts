/**
 * The learner's own account (SPEC §6, §8), through the storage port: a new password (the
 * current one required), signing out everywhere, exporting every piece of their data and
 * restoring such an export into another account, and deleting the account with all of it.
 *
 * Revocation works by token version (auth/tokens.ts): moving it on refuses every token issued
 * before. A new password moves it too — whoever knew the old password is signed out — and the
 * caller gets a fresh token so the device they changed it on stays signed in.
 */
import type { AccountExport, AccountImportResult, ChangePasswordBody, DeleteAccountBody, Learner } from '@tutorloop/shared';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { uuidGenerator, type IdGenerator } from '../core/ports';
import { sessionTypeCatalog } from '../core/session-type-states';
import type { StoredLearner } from '../core/storage/learners';
import type { SessionTypeCatalog } from '../core/storage/session-type-state';
import type { Storage } from '../core/storage/storage';
import { exportAccount } from './account-export';
import { planRestore, writeRestore } from './account-restore';
import { AppError } from './app-error';
import { toLearner } from './learners';

export class AccountService {
  constructor(
    private readonly storage: Storage,
    private readonly ids: IdGenerator = uuidGenerator,
    private readonly sessionTypes: SessionTypeCatalog = sessionTypeCatalog,
  ) {}

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

  /** Every piece of the learner's data, read in one consistent unit (account-export.ts). */
  async export(learnerId: string, now: Date): Promise<AccountExport> {
    return this.storage.read((reader) => exportAccount(reader, learnerId, now));
  }

  /**
   * Restores an export into this learner's account (account-restore.ts): checked whole first,
   * then written in one transaction with new ids; a refusal writes nothing.
   */
  async restore(learnerId: string, raw: unknown): Promise<{ ok: true; value: AccountImportResult } | { ok: false; error: string }> {
    const plan = planRestore(raw, this.sessionTypes, this.ids);
    if (!plan.ok) return plan;
    const value = await this.storage.transaction(async (tx) => {
      if (!(await tx.learners.get(learnerId))) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
      return writeRestore(tx, learnerId, plan.value);
    });
    return { ok: true, value };
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
