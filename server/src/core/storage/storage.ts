/**
 * The storage port: every repository of the server behind one unit of work. The core and
 * the services reach data only through it; adapters (memory-storage.ts here, SQLite in
 * server/src/db/, PostgreSQL next) implement it and must pass storage.contract.ts.
 *
 * The unit-of-work rule (README.md in this folder):
 * - every write happens inside `transaction(async tx => …)`; it commits when `work`
 *   resolves and rolls back — every repository's writes — when it rejects;
 * - `work` awaits only storage calls and pure code: no model call, socket send or timer
 *   (a transaction holds the writer; on SQLite, the whole connection);
 * - a storage call that fails inside `work` aborts the transaction, even if `work` catches
 *   the error (as PostgreSQL does): the transaction then rejects with that error;
 * - `tx` is dead once the unit ends: a leaked handle throws `transaction_closed`;
 * - `transaction` and `read` are never called from inside `work` (`nested_transaction`,
 *   or a deadlock where the adapter cannot tell).
 */
import type { AgentLogReader, AgentLogRepository } from './agent-logs';
import type { AssessmentReader, AssessmentRepository } from './assessments';
import type { CardReader, CardRepository } from './cards';
import type { ChecklistReader, ChecklistRepository } from './checklists';
import type { LearnerReader, LearnerRepository } from './learners';
import type { LlmCallReader, LlmCallRepository } from './llm-calls';
import type { MessageReader, MessageRepository } from './messages';
import type { PendingActionReader, PendingActionRepository } from './pending-actions';
import type { RecallSetReader, RecallSetRepository } from './recall-sets';
import type { SessionSnapshot, SnapshotOptions } from './session-snapshot';
import type { SessionReader, SessionRepository } from './sessions';
import type { StudyPlanReader, StudyPlanRepository } from './study-plans';
import type { SchedulerReader, SchedulerRepository } from './scheduler-runs';
import type { SurveyReader, SurveyRepository } from './surveys';

/** Every repository, read-only: what a read unit sees. */
export interface StorageReader {
  readonly learners: LearnerReader;
  readonly recallSets: RecallSetReader;
  readonly cards: CardReader;
  readonly sessions: SessionReader;
  readonly checklists: ChecklistReader;
  readonly messages: MessageReader;
  readonly pendingActions: PendingActionReader;
  readonly assessments: AssessmentReader;
  readonly llmCalls: LlmCallReader;
  readonly studyPlans: StudyPlanReader;
  readonly agentLogs: AgentLogReader;
  readonly scheduler: SchedulerReader;
  readonly surveys: SurveyReader;
  /** Everything a turn needs about one session, from the state this handle sees; null for an unknown session. */
  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null>;
}

/** Every repository, read-write, inside one transaction. */
export interface StorageTx extends StorageReader {
  readonly learners: LearnerRepository;
  readonly recallSets: RecallSetRepository;
  readonly cards: CardRepository;
  readonly sessions: SessionRepository;
  readonly checklists: ChecklistRepository;
  readonly messages: MessageRepository;
  readonly pendingActions: PendingActionRepository;
  readonly assessments: AssessmentRepository;
  readonly llmCalls: LlmCallRepository;
  readonly studyPlans: StudyPlanRepository;
  readonly agentLogs: AgentLogRepository;
  readonly scheduler: SchedulerRepository;
  readonly surveys: SurveyRepository;
}

/** The repository namespaces of a handle (what adapters implement). */
export type StorageRepositories = Omit<StorageTx, 'loadSessionSnapshot'>;

/** The storage port. */
export interface Storage {
  /**
   * Runs `work` as one unit of work over every repository: all its writes commit together
   * when it resolves (with its value), or none does when it rejects (with its error).
   * Transactions are isolated: one never sees another's uncommitted writes, and their
   * writes never interleave.
   */
  transaction<T>(work: (tx: StorageTx) => Promise<T>): Promise<T>;
  /**
   * Runs `work` over a read-only view of the committed state, consistent for the whole of
   * `work` (it never sees a transaction's writes before that transaction commits).
   */
  read<T>(work: (reader: StorageReader) => Promise<T>): Promise<T>;
  /** `read(reader => reader.loadSessionSnapshot(…))`: one session's committed state, in one read. */
  loadSessionSnapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot | null>;
  /** Waits for the units of work in progress, then releases the engine; later calls throw `closed`. */
  close(): Promise<void>;
}
