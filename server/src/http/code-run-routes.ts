/**
 * `POST /api/sessions/{id}/items/{widgetId}/run-examples` (issue 25 item 2): the learner's
 * code on a pending code item's visible examples. Registered by routes.ts inside its
 * authenticated scope: parse → validate with the shared schema → call the service → send.
 * Owner only (another learner's session is a 404); nothing is stored.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RunExamplesBody, type RunExamplesResponse } from '@tutorloop/shared';
import type { CodeRunService } from '../services/code-runs';
import { parseBody } from './parse-input';

export interface CodeRunRouteDeps {
  codeRuns: CodeRunService;
}

function params(request: FastifyRequest): { id: string; widgetId: string } {
  return request.params as { id: string; widgetId: string };
}

/** Registers the route on an authenticated scope (`request.learnerId` is set). */
export function registerCodeRunRoutes(api: FastifyInstance, deps: CodeRunRouteDeps): void {
  api.post('/api/sessions/:id/items/:widgetId/run-examples', async (request): Promise<RunExamplesResponse> => {
    const { id, widgetId } = params(request);
    return deps.codeRuns.runExamples(request.learnerId, id, widgetId, parseBody(RunExamplesBody, request.body));
  });
}
