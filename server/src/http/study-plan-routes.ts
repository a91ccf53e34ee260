/**
 * The study plan routes (SPEC §6: `GET|POST /api/study-plans`, `POST /api/study-plans/import`,
 * `GET|PUT|DELETE /api/study-plans/{id}`) and a learning session's agent logs
 * (`GET /api/sessions/{id}/agent-logs`, §4.4). Registered by routes.ts inside its
 * authenticated scope: parse → validate with the shared schemas → call a service → send.
 * An invalid plan is refused with every problem as `field: message`, and nothing is stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StudyPlanBody, StudyPlanImportBody, type AgentLogList, type StudyPlanDetail, type StudyPlanList } from '@tutorloop/shared';
import type { Clock } from '../core/ports';
import type { AgentLogService } from '../services/agent-logs';
import { parseDocument } from './parse-input';
import type { StudyPlanService } from '../services/study-plans';

export interface StudyPlanRouteDeps {
  studyPlans: StudyPlanService;
  agentLogs: AgentLogService;
  clock: Clock;
}

function idParam(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

/** Registers the routes on an authenticated scope (`request.learnerId` is set). */
export function registerStudyPlanRoutes(api: FastifyInstance, deps: StudyPlanRouteDeps): void {
  const { studyPlans, agentLogs, clock } = deps;

  api.get('/api/study-plans', async (request): Promise<StudyPlanList> => ({ studyPlans: await studyPlans.list(request.learnerId) }));
  api.post('/api/study-plans', async (request, reply): Promise<StudyPlanDetail> => {
    const created = await studyPlans.create(request.learnerId, parseDocument(StudyPlanBody, request.body, 'body'), clock.now());
    reply.status(201);
    return created;
  });
  api.post('/api/study-plans/import', async (request, reply): Promise<StudyPlanDetail> => {
    const created = await studyPlans.import(request.learnerId, parseDocument(StudyPlanImportBody, request.body, 'body'), clock.now());
    reply.status(201);
    return created;
  });
  api.get('/api/study-plans/:id', async (request): Promise<StudyPlanDetail> => studyPlans.get(request.learnerId, idParam(request)));
  api.put('/api/study-plans/:id', async (request): Promise<StudyPlanDetail> =>
    studyPlans.update(request.learnerId, idParam(request), parseDocument(StudyPlanBody, request.body, 'body'), clock.now()),
  );
  api.delete('/api/study-plans/:id', async (request, reply: FastifyReply) => {
    await studyPlans.delete(request.learnerId, idParam(request));
    return reply.status(204).send();
  });

  api.get('/api/sessions/:id/agent-logs', async (request): Promise<AgentLogList> => ({ entries: await agentLogs.list(request.learnerId, idParam(request)) }));
}
