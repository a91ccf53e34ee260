/**
 * The learner's scheduler over HTTP (issue 17): parameters and metrics, optimisation on
 * demand (queued off the request path: 202 with the optimiser's state), and the retention
 * simulator. Registered inside the authenticated scope of routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { SimulateBody, type SchedulerStatus, type SimulationResponse } from '@tutorloop/shared';
import { parseBody } from './parse-input';
import type { SchedulerService } from '../services/scheduler';

export function registerSchedulerRoutes(api: FastifyInstance, scheduler: SchedulerService): void {
  api.get('/api/me/scheduler', async (request): Promise<SchedulerStatus> => scheduler.status(request.learnerId));
  api.post('/api/me/scheduler/optimize', async (request, reply): Promise<SchedulerStatus> => {
    const status = await scheduler.requestOptimization(request.learnerId);
    reply.status(202);
    return status;
  });
  api.post('/api/me/scheduler/simulate', async (request): Promise<SimulationResponse> => scheduler.simulate(request.learnerId, parseBody(SimulateBody, request.body)));
}
