/**
 * The in-memory storage adapter: pure, fast, and held to the same contract as the database
 * adapters (storage.contract.ts), so rooms and the turn runner can be unit-tested on it.
 *
 * Transactions run one at a time (an async mutex) on a copy-on-write state (memory-state.ts):
 * commit swaps the committed tables for the transaction's, rollback drops its copies.
 * Reads never wait: a read unit keeps the committed tables as they were when it began —
 * like a PostgreSQL snapshot, and unlike SQLite on one connection, where reads queue behind
 * the open transaction. Code that passes on both behaviours passes on every adapter.
 */
import { AsyncMutex } from './async-mutex';
import { assessmentRepository, deleteSessionCascade, llmCallRepository, messageRepository, pendingActionRepository } from './memory-conversation';
import { agentLogRepository, studyPlanRepository } from './memory-study-plans';
import { schedulerRepository } from './memory-scheduler';
import { surveyRepository } from './memory-surveys';
import { cardRepository, checklistRepository, learnerRepository, recallSetRepository, sessionRepository } from './memory-repositories';
import { emptyTables, MemoryState, type MemoryTables } from './memory-state';
import type { SessionSnapshot, SnapshotOptions } from './session-snapshot';
import type { SessionTypeCatalog } from './session-type-state';
import type { Storage, StorageReader, StorageRepositories, StorageTx } from './storage';
import { StorageError } from './storage-error';
import { runTransaction, StorageUnit } from './storage-unit';

function repositoriesOver(state: MemoryState, sessionTypes: SessionTypeCatalog): StorageRepositories {
  return {
    learners: learnerRepository(state, (sessionId) => deleteSessionCascade(state, sessionId)),
    recallSets: recallSetRepository(state),
    cards: cardRepository(state),
    sessions: sessionRepository(state, (sessionId) => deleteSessionCascade(state, sessionId), sessionTypes),
    checklists: checklistRepository(state),
    messages: messageRepository(state),
    pendingActions: pendingActionRepository(state),
    assessments: assessmentRepository(state),
    llmCalls: llmCallRepository(state),
    studyPlans: studyPlanRepository(state),
    agentLogs: agentLogRepository(state),
    scheduler: schedulerRepository(state),
    surveys: surveyRepository(state),
  };
}

/** Storage in plain Maps, for tests; nothing survives the process. */
export class MemoryStorage implements Storage {
  private committed: MemoryTables = emptyTables();
  private readonly mutex = new AsyncMutex();
  private closed = false;

  /** `sessionTypes`: the registry's catalog (core/session-type-states.ts). */
  constructor(private readonly sessionTypes: SessionTypeCatalog) {}

  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    return this.mutex.run(async () => {
      const state = new MemoryState(this.committed);
      const unit = new StorageUnit(repositoriesOver(state, this.sessionTypes), 'write', this.sessionTypes);
      return runTransaction(unit, work, {
        commit: () => {
          this.committed = state.result();
        },
        rollback: () => {},
      });
    });
  }

  async read<T>(work: (reader: StorageReader) => Promise<T>): Promise<T> {
    if (this.closed) throw closedError();
    const unit = new StorageUnit(repositoriesOver(new MemoryState(this.committed), this.sessionTypes), 'read', this.sessionTypes);
    try {
      return await work(unit.handle);
    } finally {
      unit.end();
    }
  }

  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null> {
    return this.read((reader) => reader.loadSessionSnapshot(sessionId, options));
  }

  async close(): Promise<void> {
    // Transactions already queued still run; anything asked for later is refused.
    this.closed = true;
    await this.mutex.run(async () => undefined);
  }
}

function closedError(): StorageError {
  return new StorageError('closed', 'storage is closed');
}

/** A new, empty in-memory storage. */
export function createMemoryStorage(sessionTypes: SessionTypeCatalog): Storage {
  return new MemoryStorage(sessionTypes);
}
