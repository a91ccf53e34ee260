/**
 * The survey routes (SPEC §6: `GET|POST /api/surveys`, `GET|PUT|DELETE /api/surveys/{id}`,
 * `GET /api/surveys/{id}/results` — owner only, `?format=csv` for a CSV file). Registered by
 * routes.ts inside its authenticated scope: parse → validate with the shared schemas → call
 * the service → send. An invalid survey is refused with every problem as `field: message`,
 * and nothing is stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SurveyBody, type SurveyDetail, type SurveyList, type SurveyResults } from '@tutorloop/shared';
import type { Clock } from '../core/ports';
import { AppError } from '../services/app-error';
import { parseDocument } from './parse-input';
import type { SurveyService } from '../services/surveys';

export interface SurveyRouteDeps {
  surveys: SurveyService;
  clock: Clock;
}

function idParam(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

/** Registers the routes on an authenticated scope (`request.learnerId` is set). */
export function registerSurveyRoutes(api: FastifyInstance, deps: SurveyRouteDeps): void {
  const { surveys, clock } = deps;

  api.get('/api/surveys', async (request): Promise<SurveyList> => ({ surveys: await surveys.list(request.learnerId) }));
  api.post('/api/surveys', async (request, reply): Promise<SurveyDetail> => {
    const created = await surveys.create(request.learnerId, parseDocument(SurveyBody, request.body, 'body'), clock.now());
    reply.status(201);
    return created;
  });
  api.get('/api/surveys/:id', async (request): Promise<SurveyDetail> => surveys.get(request.learnerId, idParam(request)));
  api.put('/api/surveys/:id', async (request): Promise<SurveyDetail> => surveys.update(request.learnerId, idParam(request), parseDocument(SurveyBody, request.body, 'body'), clock.now()));
  api.delete('/api/surveys/:id', async (request, reply: FastifyReply) => {
    await surveys.delete(request.learnerId, idParam(request));
    return reply.status(204).send();
  });
  api.get('/api/surveys/:id/results', async (request, reply: FastifyReply): Promise<SurveyResults | string> => {
    const { format } = (request.query ?? {}) as { format?: string };
    if (format === undefined || format === 'json') return surveys.results(request.learnerId, idParam(request));
    if (format !== 'csv') throw new AppError('invalid_payload', 'format: must be "json" or "csv"');
    const csv = await surveys.resultsCsv(request.learnerId, idParam(request));
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${csv.filename}"`);
    return csv.text;
  });
}
