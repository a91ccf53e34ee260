/**
 * What every adapter's unit of work enforces the same way, built here once so the rules
 * cannot drift between SQLite, PostgreSQL and memory (README.md, "Adapter rules"):
 * - a handle is dead after its unit ends (`transaction_closed`), so a leaked `tx` cannot
 *   write into whatever transaction is open later on the same connection;
 * - a read handle refuses writes (`read_only`);
 * - a storage call that fails poisons its transaction: later calls rethrow that failure and
 *   the unit rolls back even if `work` caught it (PostgreSQL's behaviour, made universal).
 */
import { assembleSessionSnapshot, type SnapshotOptions } from './session-snapshot';
import type { SessionTypeCatalog } from './session-type-state';
import type { StorageReader, StorageRepositories, StorageTx } from './storage';
import { StorageError } from './storage-error';

type Namespace = keyof StorageRepositories;
type ReadMethod<K extends Namespace> = keyof StorageReader[K];
type WriteMethod<K extends Namespace> = Exclude<keyof StorageTx[K], keyof StorageReader[K]>;

/** Every read method of every repository (the compiler checks the list is complete and exact). */
const readMethods: { [K in Namespace]: Record<ReadMethod<K>, true> } = {
  learners: { get: true, findByUsername: true },
  recallSets: { get: true, listByLearner: true, listPoints: true, listPointsOfSets: true },
  cards: { get: true, listFor: true, listReviewLogs: true, listReviewLogsByLearner: true },
  sessions: { get: true, listByLearner: true },
  checklists: { list: true },
  messages: { list: true, count: true, findByClientId: true, findOldestUnanswered: true },
  pendingActions: { getPending: true, list: true },
  assessments: { listItems: true, listResponses: true, listAbilities: true },
  llmCalls: { listBySession: true, listByLearner: true, tokensUsedSince: true },
  studyPlans: { get: true, listVisibleTo: true, listBuiltIn: true },
  agentLogs: { listForSession: true },
  scheduler: { currentWeights: true, listRuns: true, reviewHistory: true, reviewCount: true, learnersWithReviews: true },
  surveys: { get: true, listVisibleTo: true, listBuiltIn: true, listResponses: true },
};

/** Every write method of every repository (checked likewise). */
const writeMethods: { [K in Namespace]: Record<WriteMethod<K>, true> } = {
  learners: { create: true, update: true, delete: true },
  recallSets: { create: true, update: true, delete: true, addPoint: true, updatePoint: true, deletePoints: true },
  cards: { save: true, addReviewLog: true },
  sessions: { create: true, update: true, delete: true },
  checklists: { add: true, markRecalled: true },
  messages: { append: true, markAnswered: true, markSuperseded: true },
  pendingActions: { create: true, resolve: true },
  assessments: { addItem: true, addResponse: true, saveAbilities: true },
  llmCalls: { add: true },
  studyPlans: { create: true, update: true, delete: true, upsertBuiltIn: true },
  agentLogs: { append: true },
  scheduler: { addRun: true },
  surveys: { create: true, update: true, delete: true, upsertBuiltIn: true, addResponse: true },
};

type AnyMethod = (...args: unknown[]) => Promise<unknown>;

/** One unit of work's access to the repositories: the guarded handle and its fate. */
export class StorageUnit {
  private open = true;
  private failed: { error: unknown } | null = null;
  /** The handle given to `work`; a read unit's handle is a `StorageTx` whose writes throw. */
  readonly handle: StorageTx;

  constructor(
    repositories: StorageRepositories,
    private readonly mode: 'read' | 'write',
    /** The registry's catalog: what a snapshot of each session type loads. */
    sessionTypes: SessionTypeCatalog,
  ) {
    const handle: Record<string, unknown> = {};
    for (const namespace of Object.keys(readMethods) as Namespace[]) {
      const source = repositories[namespace] as unknown as Record<string, AnyMethod>;
      const guarded: Record<string, AnyMethod> = {};
      for (const name of Object.keys(readMethods[namespace])) guarded[name] = this.guard(`${namespace}.${name}`, false, source[name]!.bind(source));
      for (const name of Object.keys(writeMethods[namespace])) guarded[name] = this.guard(`${namespace}.${name}`, true, source[name]!.bind(source));
      handle[namespace] = Object.freeze(guarded);
    }
    const load = (sessionId: string, options?: SnapshotOptions) => assembleSessionSnapshot(repositories, sessionTypes, sessionId, options);
    handle.loadSessionSnapshot = this.guard('loadSessionSnapshot', false, load as AnyMethod);
    this.handle = Object.freeze(handle) as unknown as StorageTx;
  }

  /** The first failure of a storage call in this unit, if any. */
  get failure(): { error: unknown } | null {
    return this.failed;
  }

  /** Ends the unit: every later call through its handle throws `transaction_closed`. */
  end(): void {
    this.open = false;
  }

  private guard(name: string, write: boolean, method: AnyMethod): AnyMethod {
    return async (...args: unknown[]) => {
      if (!this.open) throw new StorageError('transaction_closed', `${name} called after its unit of work ended`);
      if (write && this.mode === 'read') throw new StorageError('read_only', `${name} called on a read-only handle; write inside storage.transaction`);
      if (this.failed) throw this.failed.error;
      try {
        return await method(...args);
      } catch (error) {
        this.failed ??= { error };
        throw error;
      }
    };
  }
}

/** The engine-side steps of a write unit. */
export interface TransactionHooks {
  commit(): void | Promise<void>;
  rollback(): void | Promise<void>;
}

/**
 * Runs `work` on a unit's handle and commits, or rolls back when `work` rejects or a storage
 * call in it failed. The caller has already begun the engine's transaction and holds
 * whatever serializes units (a mutex, a connection).
 */
export async function runTransaction<T>(unit: StorageUnit, work: (tx: StorageTx) => Promise<T>, hooks: TransactionHooks): Promise<T> {
  let result: T;
  try {
    result = await work(unit.handle);
  } catch (error) {
    unit.end();
    await hooks.rollback();
    throw error;
  }
  unit.end();
  const failure = unit.failure;
  if (failure) {
    await hooks.rollback();
    throw failure.error;
  }
  try {
    await hooks.commit();
  } catch (error) {
    await hooks.rollback();
    throw error;
  }
  return result;
}
