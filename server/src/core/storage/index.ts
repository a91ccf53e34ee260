/** The storage port (README.md in this folder): import it from here. */
export type { Storage, StorageReader, StorageRepositories, StorageTx } from './storage';
export type { AgentLogReader, AgentLogRepository, NewAgentLog, StoredAgentLog } from './agent-logs';
export type { AbilityEstimateRecord, AssessmentReader, AssessmentRepository, StoredItem, StoredResponse } from './assessments';
export { overallDomain } from './assessments';
export type { CardReader, CardRepository, CardWrite, ReviewLogInput, ReviewLogRecord, StoredCard } from './cards';
export type { ChecklistEntry, ChecklistReader, ChecklistRepository, RecallMark } from './checklists';
export type { CreateLearnerResult, LearnerReader, LearnerRepository, NewLearner, StoredLearner } from './learners';
export { defaultDesiredRetention } from './learners';
export type { LlmCallOutcome, LlmCallReader, LlmCallRepository, StoredLlmCall } from './llm-calls';
export type { MessageReader, MessageRepository, MessageRole, NewMessage, StoredMessage } from './messages';
export type { NewPendingAction, PendingActionReader, PendingActionRecord, PendingActionRepository } from './pending-actions';
export type { NewRecallSet, RecallPointRecord, RecallSetReader, RecallSetRecord, RecallSetRepository } from './recall-sets';
export type { SessionSnapshot, SnapshotOptions } from './session-snapshot';
export { assembleSessionSnapshot } from './session-snapshot';
export {
  parseTypeState,
  readTypeState,
  typeStateOf,
  type SessionTypeCatalog,
  type SessionTypeState,
  type SessionTypeStateOf,
} from './session-type-state';
export type { NewSession, SessionCommon, SessionReader, SessionRepository, SessionUpdate, StoredSession } from './sessions';
export type { CardHistory, RunMetrics, SchedulerReader, SchedulerRepository, StoredSchedulerRun } from './scheduler-runs';
export type { BuiltInSurvey, NewSurvey, NewSurveyResponse, StoredSurvey, StoredSurveyResponse, SurveyReader, SurveyRepository, SurveyUpdate } from './surveys';
export type { BuiltInStudyPlan, NewStudyPlan, StoredStudyPlan, StudyPlanReader, StudyPlanRepository, StudyPlanUpdate } from './study-plans';
export { isStorageError, StorageError, StorageErrorCodes, type StorageErrorCode } from './storage-error';
export { runTransaction, StorageUnit, type TransactionHooks } from './storage-unit';
export { AsyncMutex } from './async-mutex';
export { createMemoryStorage, MemoryStorage } from './memory-storage';
