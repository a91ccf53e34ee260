/**
 * The tables of the in-memory adapter and its copy-on-write state. Committed tables are never
 * mutated: a transaction copies a table (a shallow Map copy) the first time it writes to it,
 * and replaces records instead of changing them, so committing is swapping one reference and
 * rolling back is dropping the copies. A reader keeps the tables it started with: a
 * consistent snapshot for as long as it runs.
 */
import type { WidgetAnswer } from '@tutorloop/shared';
import type { StoredAgentLog } from './agent-logs';
import type { AbilityEstimateRecord, StoredItem, StoredResponse } from './assessments';
import type { ReviewLogRecord, StoredCard } from './cards';
import type { StoredLearner } from './learners';
import type { StoredLlmCall } from './llm-calls';
import type { StoredMessage } from './messages';
import type { PendingActionRecord } from './pending-actions';
import type { RecallPointRecord, RecallSetRecord } from './recall-sets';
import type { StoredSession } from './sessions';
import type { StoredStudyPlan } from './study-plans';
import type { StoredSchedulerRun } from './scheduler-runs';
import type { StoredSurvey, StoredSurveyResponse } from './surveys';

export interface CardRow extends StoredCard {
  learnerId: string;
  pointId: string;
}

export interface SessionPointRow {
  sessionId: string;
  pointId: string;
  position: number;
  status: 'pending' | 'recalled';
  confidence: number | null;
  observation: string | null;
  turnRecalled: number | null;
  recalledAt: Date | null;
}

export interface ActionRow extends PendingActionRecord {
  response: WidgetAnswer | null;
  answeredAt: Date | null;
}

export interface ResponseRow extends StoredResponse {
  sessionId: string;
}

export interface AbilityRow extends AbilityEstimateRecord {
  sessionId: string;
  learnerId: string;
}

/** One Map per table, keyed by primary key (composite keys joined by `key`). */
export interface MemoryTables {
  learners: Map<string, StoredLearner>;
  recallSets: Map<string, RecallSetRecord>;
  recallPoints: Map<string, RecallPointRecord>;
  cards: Map<string, CardRow>;
  reviewLogs: Map<string, ReviewLogRecord>;
  sessions: Map<string, StoredSession>;
  sessionPoints: Map<string, SessionPointRow>;
  messages: Map<string, StoredMessage>;
  pendingActions: Map<string, ActionRow>;
  items: Map<string, StoredItem>;
  responses: Map<string, ResponseRow>;
  abilities: Map<string, AbilityRow>;
  llmCalls: Map<string, StoredLlmCall>;
  studyPlans: Map<string, StoredStudyPlan>;
  agentLogs: Map<string, StoredAgentLog>;
  schedulerRuns: Map<string, StoredSchedulerRun>;
  surveys: Map<string, StoredSurvey>;
  /** Keyed by session and question (one answer per question per session). */
  surveyResponses: Map<string, StoredSurveyResponse>;
}

export type TableName = keyof MemoryTables;
type RowOf<K extends TableName> = MemoryTables[K] extends Map<string, infer Row> ? Row : never;

export function emptyTables(): MemoryTables {
  return {
    learners: new Map(),
    recallSets: new Map(),
    recallPoints: new Map(),
    cards: new Map(),
    reviewLogs: new Map(),
    sessions: new Map(),
    sessionPoints: new Map(),
    messages: new Map(),
    pendingActions: new Map(),
    items: new Map(),
    responses: new Map(),
    abilities: new Map(),
    llmCalls: new Map(),
    studyPlans: new Map(),
    agentLogs: new Map(),
    schedulerRuns: new Map(),
    surveys: new Map(),
    surveyResponses: new Map(),
  };
}

/** A composite primary key. */
export function key(...parts: string[]): string {
  return parts.join('\u0000');
}

/** A deep copy: records cross the port boundary by value, never by reference. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** The tables as one unit of work sees them. */
export class MemoryState {
  private readonly tables: MemoryTables;
  private readonly copied = new Set<TableName>();

  constructor(base: MemoryTables) {
    this.tables = { ...base };
  }

  /** A table to read (never to change: use `put` / `remove`). */
  rows<K extends TableName>(name: K): ReadonlyMap<string, RowOf<K>> {
    return this.tables[name] as unknown as ReadonlyMap<string, RowOf<K>>;
  }

  /** Every row of a table matching `predicate`. */
  where<K extends TableName>(name: K, predicate: (row: RowOf<K>) => boolean): RowOf<K>[] {
    return [...this.rows(name).values()].filter(predicate);
  }

  put<K extends TableName>(name: K, id: string, row: RowOf<K>): void {
    (this.writable(name) as Map<string, RowOf<K>>).set(id, row);
  }

  remove(name: TableName, ids: Iterable<string>): void {
    const table = this.writable(name);
    for (const id of ids) table.delete(id);
  }

  /** The tables with this unit's writes, to become the committed state. */
  result(): MemoryTables {
    return { ...this.tables };
  }

  private writable(name: TableName): Map<string, unknown> {
    if (!this.copied.has(name)) {
      // Copy on first write: the committed Map stays as every open reader saw it.
      (this.tables as Record<TableName, Map<string, unknown>>)[name] = new Map(this.tables[name] as Map<string, unknown>);
      this.copied.add(name);
    }
    return this.tables[name] as Map<string, unknown>;
  }
}

/** Orders by the given keys, in turn (strings and numbers by value, Dates by time). */
export function sortBy<T>(rows: T[], ...keys: Array<(row: T) => string | number | Date>): T[] {
  const compare = (left: string | number | Date, right: string | number | Date): number => {
    const a = left instanceof Date ? left.getTime() : left;
    const b = right instanceof Date ? right.getTime() : right;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return rows.sort((left, right) => {
    for (const keyOf of keys) {
      const order = compare(keyOf(left), keyOf(right));
      if (order !== 0) return order;
    }
    return 0;
  });
}
