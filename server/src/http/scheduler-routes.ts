/**
 * The learner's scheduler over HTTP (issue 17): parameters and metrics, optimisation on
 * demand (queued off the request path: 202 with the optimiser's state), and the retention
 * simulator. Registered inside the authenticated scope of routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { SimulateBody, type SchedulerStatus, type SimulationResponse } from '@tutorloop/shared';
import { AppError } from '../services/app-error';
import type { SchedulerService } from '../services/scheduler';

function parseBody(value: unknown): SimulateBody {
  const parsed = SimulateBody.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
  throw new AppError('invalid_payload', message);
}

export function registerSchedulerRoutes(api: FastifyInstance, scheduler: SchedulerService): void {
  api.get('/api/me/scheduler', async (request): Promise<SchedulerStatus> => scheduler.status(request.learnerId));
  api.post('/api/me/scheduler/optimize', async (request, reply): Promise<SchedulerStatus> => {
    const status = await scheduler.requestOptimization(request.learnerId);
    reply.status(202);
    return status;
  });
  api.post('/api/me/scheduler/simulate', async (request): Promise<SimulationResponse> => scheduler.simulate(request.learnerId, parseBody(request.body)));
}
