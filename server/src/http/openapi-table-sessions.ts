/**
 * The session and progress routes of the OpenAPI document's table (`openapi-table.ts` lists
 * them with the rest): starting, reading, stepping and ending sessions, and what the progress
 * views read from them.
 */
import { ProgressStatsQuery, SessionHistoryQuery } from '@tutorloop/shared';
import { body, exampleSessionId, idParams, itemParams, json, schemas, type ApiRoute } from './openapi-schemas';

export const sessionApiRoutes: readonly ApiRoute[] = [
  // Sessions
  { method: 'get', path: '/api/blueprints', tag: 'Sessions', summary: 'Assessments you can start', auth: true, response: { status: 200, description: 'The blueprints.', json: json(schemas.BlueprintList) } },
  {
    method: 'post',
    path: '/api/sessions',
    tag: 'Sessions',
    summary: 'Start a session',
    description: 'A learner may create `SESSION_RATE_LIMIT` sessions per 10 minutes (default 20); beyond that, 429 with `Retry-After`.',
    auth: true,
    body: body(schemas.CreateSessionBody, { type: 'recall', recallSetId: '0b6f3c52-1f0e-4a8e-8d7c-3e2a9b41c5d0' }),
    response: { status: 201, description: 'The new session; talk to it over the WebSocket or `POST /api/sessions/{id}/step`.', json: json(schemas.CreateSessionResponse, { sessionId: exampleSessionId }) },
    errors: [404, 429],
  },
  { method: 'get', path: '/api/sessions', tag: 'Sessions', summary: 'Your sessions, newest first', auth: true, response: { status: 200, description: 'The sessions.', json: json(schemas.SessionList) } },
  { method: 'get', path: '/api/sessions/{id}', tag: 'Sessions', summary: 'A session and its state', auth: true, params: idParams, response: { status: 200, description: 'The session.', json: json(schemas.SessionDetail) }, errors: [403, 404] },
  { method: 'get', path: '/api/sessions/{id}/replay', tag: 'Sessions', summary: 'The visible conversation in order', auth: true, params: idParams, response: { status: 200, description: 'The messages.', json: json(schemas.SessionReplay) }, errors: [403, 404] },
  {
    method: 'get',
    path: '/api/sessions/{id}/summary',
    tag: 'Sessions',
    summary: 'The summary of an ended session',
    auth: true,
    params: idParams,
    response: { status: 200, description: 'The summary.', json: json(schemas.SessionSummaryResponse) },
    errors: [403, 404, 409],
  },
  {
    method: 'post',
    path: '/api/sessions/{id}/step',
    tag: 'Sessions',
    summary: 'One learner turn over HTTP',
    auth: true,
    params: idParams,
    body: body(schemas.StepBody, { message: 'Paris is the capital of France', clientMessageId: 'c-0001' }),
    response: { status: 200, description: "The tutor's reply, the state and, when the session ended, its summary.", json: json(schemas.StepResponse) },
    errors: [403, 404, 409, 429, 503],
  },
  { method: 'delete', path: '/api/sessions/{id}', tag: 'Sessions', summary: 'Delete a session and everything of it', auth: true, params: idParams, response: { status: 204, description: 'Deleted.' }, errors: [403, 404] },
  {
    method: 'post',
    path: '/api/sessions/{id}/items/{widgetId}/run-examples',
    tag: 'Sessions',
    summary: "Run code on a pending code item's visible examples",
    description:
      'Like an IDE\'s "run": the learner\'s code runs in the sandbox on the examples shown with the item (the widget\'s `examples`), never on its hidden tests. Not an answer — nothing is stored or scored, and the item stays pending (answer it with `widget_response`). Owner only: another learner\'s session is 404. Charged to the learner: `CODE_RUN_RATE_LIMIT` runs a minute (default 12), and one run at a time through the sandbox\'s per-learner queue; over either, 429 with `Retry-After`. 409 when the item was already answered or the session is over (time included).',
    auth: true,
    params: itemParams,
    body: body(schemas.RunExamplesBody, { code: "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiou')\n", language: 'python' }),
    response: {
      status: 200,
      description: 'Each example with its input, expected and actual output.',
      json: json(schemas.RunExamplesResponse, {
        examples: [
          { input: "count_vowels('moon')", expected: '2', actual: '2', passed: true, example: true },
          { input: "count_vowels('Ocean tiger')", expected: '5', actual: '4', passed: false, example: true },
        ],
        passed: 1,
        total: 2,
        durationMs: 4,
      }),
    },
    errors: [404, 409, 429],
  },
  {
    method: 'get',
    path: '/api/sessions/{id}/agent-logs',
    tag: 'Sessions',
    summary: "A learning session's agent logs (its owner only)",
    auth: true,
    params: idParams,
    response: { status: 200, description: 'Every model call of the session, in order.', json: json(schemas.AgentLogList) },
    errors: [403, 404],
  },
  // Progress
  {
    method: 'get',
    path: '/api/sessions/history',
    tag: 'Progress',
    summary: 'Your sessions, paginated by cursor and filterable',
    description: 'Newest first. Pass `nextCursor` as `cursor` for the next page; `from`/`to` bound the creation time (inclusive; a date alone is the whole UTC day).',
    auth: true,
    query: SessionHistoryQuery,
    response: {
      status: 200,
      description: 'One page.',
      json: json(schemas.SessionHistory, {
        sessions: [
          {
            id: exampleSessionId,
            type: 'recall',
            status: 'completed',
            mode: 'recall',
            title: 'European capitals',
            recallSetId: '0b6f3c52-1f0e-4a8e-8d7c-3e2a9b41c5d0',
            recalledCount: 2,
            totalPoints: 2,
            createdAt: '2026-11-20T09:00:00.000Z',
            endedAt: '2026-11-20T09:06:30.000Z',
            turns: 3,
            durationSeconds: 390,
          },
        ],
        nextCursor: 'MTc2MzYyOTIwMDAwMC40ZjFjMmI5ZQ',
      }),
    },
  },
  {
    method: 'get',
    path: '/api/sessions/stats',
    tag: 'Progress',
    summary: 'Sessions and minutes by type, points recalled, reviews due, true retention, streak, 30 days of activity',
    auth: true,
    query: ProgressStatsQuery,
    response: {
      status: 200,
      description: 'The figures, as of the server time.',
      json: json(schemas.ProgressStats, {
        asOf: '2026-11-20T12:00:00.000Z',
        timeZone: 'UTC',
        sessions: {
          total: 3,
          minutes: 24.5,
          byType: [
            { type: 'recall', sessions: 2, completed: 2, minutes: 12.5 },
            { type: 'assessment', sessions: 1, completed: 1, minutes: 12 },
            { type: 'learning', sessions: 0, completed: 0, minutes: 0 },
          ],
        },
        pointsRecalled: 5,
        reviews: { done: 9, dueNow: 2, dueToday: 3, dueNext7Days: 6, newPoints: 1, belowDesiredRetention: 1 },
        retention: { windowDays: 30, reviews: 4, passed: 3, rate: 0.75, desired: 0.9 },
        streak: { current: 2, longest: 4, lastReviewDay: '2026-11-20' },
        // 30 days, 2026-10-22 to 2026-11-20: active on the last two.
        activity: Array.from({ length: 30 }, (_, index) => {
          const day = new Date(Date.UTC(2026, 9, 22 + index)).toISOString().slice(0, 10);
          return index === 28 ? { day, reviews: 5, sessions: 1, minutes: 12.5 } : index === 29 ? { day, reviews: 4, sessions: 2, minutes: 12 } : { day, reviews: 0, sessions: 0, minutes: 0 };
        }),
      }),
    },
  },
  {
    method: 'get',
    path: '/api/sessions/scorecard',
    tag: 'Progress',
    summary: 'Per recall set, study plan and assessment: recall rate, mastery per concept, best score and abilities',
    auth: true,
    response: { status: 200, description: 'The scorecard.', json: json(schemas.Scorecard) },
  },
  {
    method: 'get',
    path: '/api/sessions/subtopic-progress',
    tag: 'Progress',
    summary: 'A light map: concept → mastery and level',
    auth: true,
    response: {
      status: 200,
      description: 'Every concept of the plans you studied.',
      json: json(schemas.SubtopicProgress, {
        asOf: '2026-11-20T12:00:00.000Z',
        concepts: {
          'place value': { mastery: 0.875, level: 'mastered', studyPlanIds: ['place-value'] },
          carrying: { mastery: null, level: 'not_started', studyPlanIds: ['place-value'] },
        },
      }),
    },
  },
];
