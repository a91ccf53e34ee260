/**
 * The learner's progress over HTTP (SPEC §6): `GET /api/sessions/history`, `/stats`,
 * `/scorecard` and `/subtopic-progress`. Registered by routes.ts inside its authenticated
 * scope. These static paths share a prefix with `/api/sessions/:id`; Fastify's router
 * (find-my-way) matches a static segment before a parametric one whatever the registration
 * order, so `history` is never taken for a session id (tested in progress.test.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ProgressStatsQuery, SessionHistoryQuery, type ProgressStats, type Scorecard, type SessionHistory, type SubtopicProgress } from '@tutorloop/shared';
import type { Clock } from '../core/ports';
import { formatIssues, issuesFromZod } from '../core/study-plans/validate-plan';
import { AppError } from '../services/app-error';
import type { ProgressService } from '../services/progress';

/** The history query, or a refusal naming each bad parameter (`limit: …`). */
function parseHistoryQuery(value: unknown): SessionHistoryQuery {
  const parsed = SessionHistoryQuery.safeParse(value ?? {});
  if (!parsed.success) throw new AppError('invalid_payload', formatIssues(issuesFromZod(parsed.error), { root: 'query' }));
  return parsed.data;
}

/** The stats query (`?timeZone=`), or a refusal naming the bad parameter. */
function parseStatsQuery(value: unknown): ProgressStatsQuery {
  const parsed = ProgressStatsQuery.safeParse(value ?? {});
  if (!parsed.success) throw new AppError('invalid_payload', formatIssues(issuesFromZod(parsed.error), { root: 'query' }));
  return parsed.data;
}

/** Registers the routes on an authenticated scope (`request.learnerId` is set). */
export function registerProgressRoutes(api: FastifyInstance, progress: ProgressService, clock: Clock): void {
  api.get('/api/sessions/history', async (request): Promise<SessionHistory> => progress.history(request.learnerId, parseHistoryQuery(request.query)));
  api.get('/api/sessions/stats', async (request): Promise<ProgressStats> => progress.stats(request.learnerId, clock.now(), parseStatsQuery(request.query).timeZone));
  api.get('/api/sessions/scorecard', async (request): Promise<Scorecard> => progress.scorecard(request.learnerId, clock.now()));
  api.get('/api/sessions/subtopic-progress', async (request): Promise<SubtopicProgress> => progress.subtopicProgress(request.learnerId, clock.now()));
}
