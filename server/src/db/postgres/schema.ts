/**
 * The PostgreSQL schema (SPEC §3, §11): the same tables, keys, cascades and indexes as the
 * SQLite one (../schema.ts, where each column is explained), in PostgreSQL's types —
 * `timestamp with time zone`, `jsonb`, `double precision`, `boolean`. Two differences, both
 * for units of work that run concurrently here: one pending action per session is a partial
 * unique index (SQLite's adapter checks it inside its serialized unit), and text sorts and
 * compares byte-wise (`COLLATE "C"`) so lists come out in the order SQLite gives them.
 * Migrations: drizzle-kit with server/drizzle-postgres.config.ts into server/drizzle-postgres/.
 */
import { sql } from 'drizzle-orm';
import { boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TestOutcomeRecord } from '../../core/assessment/test-cases';

/** Text compared byte by byte, as SQLite does: ids break ties in every list, and must break them the same way. */
const text = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * JSON in a `jsonb` column. node-postgres hands back the parsed value; drizzle's own `jsonb`
 * would parse a stored JSON string a second time ("\"42\"" → 42), so this one passes it on.
 */
function jsonb<T>(name: string) {
  return customType<{ data: T; driverData: unknown }>({
    dataType: () => 'jsonb',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => value as T,
  })(name);
}

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => timestamptz('created_at').notNull();

export const learners = pgTable(
  'learners',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    /** Lower-cased username: names are unique regardless of case. */
    usernameKey: text('username_key').notNull(),
    passwordHash: text('password_hash').notNull(),
    desiredRetention: doublePrecision('desired_retention').notNull().default(0.9),
    /** Moved on by "sign out everywhere" and a new password: tokens of an older version are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('learners_username_key_unique').on(table.usernameKey)],
);

export const recallSets = pgTable(
  'recall_sets',
  {
    id: text('id').primaryKey(),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('recall_sets_learner_idx').on(table.learnerId)],
);

export const recallPoints = pgTable(
  'recall_points',
  {
    id: text('id').primaryKey(),
    recallSetId: text('recall_set_id')
      .notNull()
      .references(() => recallSets.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    context: text('context'),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('recall_points_set_idx').on(table.recallSetId, table.position)],
);

/** FSRS state per learner × point (ts-fsrs Card, converted at the boundary). */
export const cards = pgTable(
  'cards',
  {
    id: text('id').primaryKey(),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    pointId: text('point_id')
      .notNull()
      .references(() => recallPoints.id, { onDelete: 'cascade' }),
    due: timestamptz('due').notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    learningSteps: integer('learning_steps').notNull(),
    reps: integer('reps').notNull(),
    lapses: integer('lapses').notNull(),
    /** 'new' | 'learning' | 'review' | 'relearning' */
    state: text('state').notNull(),
    lastReview: timestamptz('last_review'),
  },
  (table) => [uniqueIndex('cards_learner_point_unique').on(table.learnerId, table.pointId)],
);

export const reviewLogs = pgTable(
  'review_logs',
  {
    id: text('id').primaryKey(),
    cardId: text('card_id')
      .notNull()
      .references(() => cards.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    /** 'again' | 'hard' | 'good' | 'easy' */
    rating: text('rating').notNull(),
    /** The evaluator's confidence that produced the rating; null for end-of-session Again. */
    confidence: doublePrecision('confidence'),
    /** Card state before the review. */
    state: text('state').notNull(),
    due: timestamptz('due').notNull(),
    stability: doublePrecision('stability').notNull(),
    difficulty: doublePrecision('difficulty').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    reviewedAt: timestamptz('reviewed_at').notNull(),
  },
  (table) => [index('review_logs_card_idx').on(table.cardId)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    /** 'recall' | 'assessment' | 'learning' */
    type: text('type').notNull(),
    /** 'pending' | 'active' | 'awaiting_client_action' | 'completed' | 'abandoned' */
    status: text('status').notNull(),
    recallSetId: text('recall_set_id').references(() => recallSets.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    typeState: jsonb<Record<string, unknown>>('type_state').notNull(),
    turn: integer('turn').notNull().default(0),
    endReason: text('end_reason'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
    endedAt: timestamptz('ended_at'),
  },
  (table) => [index('sessions_learner_idx').on(table.learnerId, table.createdAt)],
);

/** The per-session checklist (SPEC §4.1). */
export const sessionPoints = pgTable(
  'session_points',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    pointId: text('point_id')
      .notNull()
      .references(() => recallPoints.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** 'pending' | 'recalled' */
    status: text('status').notNull().default('pending'),
    confidence: doublePrecision('confidence'),
    observation: text('observation'),
    turnRecalled: integer('turn_recalled'),
    recalledAt: timestamptz('recalled_at'),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.pointId] })],
);

/** The full conversation in order, tool calls and tool results included (SPEC §3). */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** 'learner' | 'tutor' | 'tool_result' */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** On a tutor message that called a tool: {id, name, input}. */
    toolCall: jsonb<{ id: string; name: string; input: Record<string, unknown> }>('tool_call'),
    /** On a tool_result: the tool call it answers. */
    toolCallId: text('tool_call_id'),
    /** On a tool_result from a widget: {widgetId, response}. */
    widgetAnswer: jsonb<{ widgetId: string; response: unknown }>('widget_answer'),
    clientMessageId: text('client_message_id'),
    /** On a learner message / widget answer: when the tutor's reply to it was committed. */
    answeredAt: timestamptz('answered_at'),
    /** On a tutor reply the learner stopped (SPEC §5): its content is what was sent before the stop. */
    stopped: boolean('stopped').notNull().default(false),
    /** The reply that replaced this one on a retry (SPEC §5); null while current. */
    supersededBy: text('superseded_by'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('messages_session_seq_unique').on(table.sessionId, table.seq),
    uniqueIndex('messages_session_client_id_unique').on(table.sessionId, table.clientMessageId),
  ],
);

/** A client tool call waiting for the learner (SPEC §4.2). */
export const pendingActions = pgTable(
  'pending_actions',
  {
    /** The widgetId the client answers with. */
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    toolCallId: text('tool_call_id').notNull(),
    /** 'multiple_choice' | 'free_text' | 'code_editor' */
    kind: text('kind').notNull(),
    props: jsonb<Record<string, unknown>>('props').notNull(),
    /** 'pending' | 'answered' | 'cancelled' */
    status: text('status').notNull().default('pending'),
    response: jsonb<unknown>('response'),
    createdAt: createdAt(),
    answeredAt: timestamptz('answered_at'),
  },
  (table) => [
    index('pending_actions_session_idx').on(table.sessionId, table.status),
    // R4 held by the engine: two units that each saw no pending action cannot both add one.
    uniqueIndex('pending_actions_one_pending_unique').on(table.sessionId).where(sql`status = 'pending'`),
  ],
);

/** Every model call, for cost and latency accounting (SPEC §3, §7). */
export const llmCalls = pgTable(
  'llm_calls',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id'),
    /** The session's learner, kept so a deleted session's calls still count against their daily token budget (no foreign key, like session_id). */
    learnerId: text('learner_id'),
    /** 'evaluator' | 'tutor' | 'safety' | … */
    purpose: text('purpose').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    cacheWriteTokens: integer('cache_write_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    /** 'ok' | 'error' | 'timeout' | 'aborted' */
    outcome: text('outcome').notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (table) => [index('llm_calls_session_idx').on(table.sessionId), index('llm_calls_learner_created_idx').on(table.learnerId, table.createdAt)],
);

export const assessmentItems = pgTable(
  'assessment_items',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** 1-based order of presentation. */
    position: integer('position').notNull(),
    sectionId: text('section_id').notNull(),
    skillId: text('skill_id').notNull(),
    domain: text('domain').notNull(),
    /** 'multiple_choice' | 'code' */
    kind: text('kind').notNull(),
    stem: text('stem').notNull(),
    options: jsonb<string[]>('options'),
    correctIndex: integer('correct_index'),
    correctAnswer: text('correct_answer').notNull(),
    /** The code task (function name, starter code, tests, time limit) for code items. */
    code: jsonb<Record<string, unknown>>('code'),
    difficulty: doublePrecision('difficulty').notNull(),
    /** 'easy' | 'medium' | 'hard' */
    level: text('level').notNull(),
    params: jsonb<Record<string, unknown>>('params').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** The widget that presents it (a pending action id). */
    widgetId: text('widget_id').notNull(),
    presentedAt: timestamptz('presented_at').notNull(),
  },
  (table) => [
    uniqueIndex('assessment_items_position_unique').on(table.sessionId, table.position),
    uniqueIndex('assessment_items_fingerprint_unique').on(table.sessionId, table.fingerprint),
  ],
);

/** A learner's answer to an assessment item and its score. */
export const responses = pgTable('responses', {
  itemId: text('item_id')
    .primaryKey()
    .references(() => assessmentItems.id, { onDelete: 'cascade' }),
  sessionId: text('session_id')
    .notNull()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  /** The answer as the learner gave it: the chosen option, or their code. */
  answerText: text('answer_text').notNull(),
  /** 0–1: 1 for the right choice; the share of tests passed for code. */
  credit: doublePrecision('credit').notNull(),
  testsPassed: integer('tests_passed'),
  testsTotal: integer('tests_total'),
  /** A short note on a code run that did not complete (timeout, syntax error…). */
  note: text('note'),
  /** Code answers: each test's outcome in the item's test order — passed, what was returned (as a Python literal), or the error. */
  testOutcomes: jsonb<TestOutcomeRecord[]>('test_outcomes'),
  responseSeconds: doublePrecision('response_seconds').notNull(),
  answeredAt: timestamptz('answered_at').notNull(),
});

/** IRT-lite ability estimates of a session after its latest response, per domain and overall. */
export const abilityEstimates = pgTable(
  'ability_estimates',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    /** A domain name, or '*' for the overall estimate. */
    domain: text('domain').notNull(),
    ability: doublePrecision('ability').notNull(),
    standardError: doublePrecision('standard_error').notNull(),
    responses: integer('responses').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.domain] }), index('ability_estimates_learner_idx').on(table.learnerId, table.domain)],
);

export const studyPlans = pgTable(
  'study_plans',
  {
    id: text('id').primaryKey(),
    /** The author; null for a built-in plan. */
    ownerId: text('owner_id').references(() => learners.id, { onDelete: 'cascade' }),
    builtIn: boolean('built_in').notNull().default(false),
    shared: boolean('shared').notNull().default(false),
    title: text('title').notNull(),
    planJson: jsonb<Record<string, unknown>>('plan_json').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('study_plans_owner_idx').on(table.ownerId), index('study_plans_visible_idx').on(table.shared, table.builtIn)],
);

export const agentLogs = pgTable(
  'agent_logs',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    turn: integer('turn').notNull(),
    /** 'safety' | 'master_tutor' | 'welcome' | 'post_completion' | 'summary' | 'evaluator' | 'tutor' */
    agent: text('agent').notNull(),
    inputSummary: text('input_summary').notNull(),
    /** Any JSON value; SQL NULL for none. */
    outputJson: jsonb<unknown>('output_json'),
    latencyMs: integer('latency_ms'),
    tokensIn: integer('tokens_in'),
    tokensOut: integer('tokens_out'),
    /** 'ok' | 'retried' | 'fallback' | 'error' | 'refused' */
    outcome: text('outcome').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('agent_logs_session_seq_unique').on(table.sessionId, table.seq)],
);

export const schedulerRuns = pgTable(
  'scheduler_runs',
  {
    id: text('id').primaryKey(),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    reviewCount: integer('review_count').notNull(),
    /** 21 FSRS-6 weights. */
    weights: jsonb<number[]>('weights').notNull(),
    /** SQL NULL: the FSRS-6 defaults were in use. */
    previousWeights: jsonb<number[]>('previous_weights'),
    logLoss: doublePrecision('log_loss').notNull(),
    rmseBins: doublePrecision('rmse_bins').notNull(),
    previousLogLoss: doublePrecision('previous_log_loss').notNull(),
    previousRmseBins: doublePrecision('previous_rmse_bins').notNull(),
    kept: boolean('kept').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('scheduler_runs_learner_idx').on(table.learnerId, table.createdAt)],
);

export const surveys = pgTable(
  'surveys',
  {
    id: text('id').primaryKey(),
    /** The author; null for a built-in survey. */
    ownerId: text('owner_id').references(() => learners.id, { onDelete: 'cascade' }),
    builtIn: boolean('built_in').notNull().default(false),
    shared: boolean('shared').notNull().default(false),
    title: text('title').notNull(),
    surveyJson: jsonb<Record<string, unknown>>('survey_json').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('surveys_owner_idx').on(table.ownerId), index('surveys_visible_idx').on(table.shared, table.builtIn)],
);

export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: text('id').primaryKey(),
    surveyId: text('survey_id').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    learnerId: text('learner_id')
      .notNull()
      .references(() => learners.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    /** The widget answer (`{selectedIndex}`, `{value}`, `{text}`); SQL NULL when the question was skipped. */
    answerJson: jsonb<unknown>('answer_json'),
    answerText: text('answer_text'),
    answeredAt: timestamptz('answered_at').notNull(),
  },
  (table) => [uniqueIndex('survey_responses_session_question_unique').on(table.sessionId, table.questionId), index('survey_responses_survey_idx').on(table.surveyId, table.answeredAt)],
);
