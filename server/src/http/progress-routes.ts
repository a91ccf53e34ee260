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
import { parseDocument } from './parse-input';
import type { ProgressService } from '../services/progress';

/** Registers the routes on an authenticated scope (`request.learnerId` is set). */
export function registerProgressRoutes(api: FastifyInstance, progress: ProgressService, clock: Clock): void {
  api.get('/api/sessions/history', async (request): Promise<SessionHistory> => progress.history(request.learnerId, parseDocument(SessionHistoryQuery, request.query, 'query')));
  api.get('/api/sessions/stats', async (request): Promise<ProgressStats> => progress.stats(request.learnerId, clock.now(), parseDocument(ProgressStatsQuery, request.query, 'query').timeZone));
  api.get('/api/sessions/scorecard', async (request): Promise<Scorecard> => progress.scorecard(request.learnerId, clock.now()));
  api.get('/api/sessions/subtopic-progress', async (request): Promise<SubtopicProgress> => progress.subtopicProgress(request.learnerId, clock.now()));
}
