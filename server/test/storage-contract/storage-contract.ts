/**
 * The storage contract: the behaviour every adapter of the storage port must show — memory
 * today, SQLite today, PostgreSQL next. An adapter's test file calls
 * `describeStorageContract(name, makeStorage)`; a test names the rule it checks (README.md
 * in this folder: U1–U8 for units of work, R1–R10 for repositories).
 *
 * Test support: it registers vitest tests, so only *.test.ts files may import it.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import { accountContract } from './account.contract';
import { conversationContract } from './conversation.contract';
import { repositoryContract } from './repositories.contract';
import { schedulerContract } from './scheduler.contract';
import { snapshotContract } from './snapshot.contract';
import { studyPlanContract } from './study-plans.contract';
import { surveyContract } from './surveys.contract';
import { transactionContract } from './transactions.contract';
import type { Storage } from '../../src/core/storage/storage';

/** Makes a fresh, empty storage for one test; the contract closes it afterwards. */
export type StorageFactory = () => Storage | Promise<Storage>;

/** What a contract part reaches the storage of the running test through. */
export interface ContractContext {
  storage(): Storage;
}

/** Registers the whole storage contract for one adapter. */
export function describeStorageContract(name: string, makeStorage: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    let current: Storage | null = null;
    beforeEach(async () => {
      current = await makeStorage();
    });
    afterEach(async () => {
      await current?.close();
      current = null;
    });
    const context: ContractContext = {
      storage: () => {
        if (!current) throw new Error('no storage: the contract runs inside its own beforeEach');
        return current;
      },
    };
    repositoryContract(context);
    conversationContract(context);
    accountContract(context);
    transactionContract(context);
    snapshotContract(context);
    studyPlanContract(context);
    surveyContract(context);
    schedulerContract(context);
  });
}
