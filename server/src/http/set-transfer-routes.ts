/**
 * Recall set import with a preview, and export (issue 18). Registered inside the
 * authenticated scope of routes.ts. An `.apkg` arrives as base64 in JSON, so these two routes
 * take bodies larger than the server's default limit.
 */
import type { FastifyInstance } from 'fastify';
import { ExportFormat, ImportSourceBody, apkgMaxBytes, type ImportPreview, type RecallSetDetail } from '@tutorloop/shared';
import type { Clock } from '../core/ports';
import { AppError } from '../services/app-error';
import { parseBody } from './parse-input';
import type { SetTransferService } from '../services/set-transfer';

/** Room for the largest `.apkg` in base64 plus the JSON around it. */
const importBodyLimit = Math.ceil(apkgMaxBytes / 3) * 4 + 64 * 1024;

export function registerSetTransferRoutes(api: FastifyInstance, deps: { transfer: SetTransferService; clock: Clock }): void {
  const { transfer, clock } = deps;

  api.post('/api/recall-sets/import/preview', { bodyLimit: importBodyLimit }, async (request): Promise<ImportPreview> =>
    transfer.preview(parseBody(ImportSourceBody, request.body), clock.now()),
  );

  api.post('/api/recall-sets/import/file', { bodyLimit: importBodyLimit }, async (request, reply): Promise<RecallSetDetail> => {
    const created = await transfer.import(request.learnerId, parseBody(ImportSourceBody, request.body), clock.now());
    reply.status(201);
    return created;
  });

  api.get('/api/recall-sets/:id/export', async (request, reply) => {
    const { format } = (request.query ?? {}) as { format?: string };
    const parsed = ExportFormat.safeParse(format ?? 'csv');
    if (!parsed.success) throw new AppError('invalid_payload', 'format: expected "csv" or "anki"');
    const file = await transfer.export(request.learnerId, (request.params as { id: string }).id, parsed.data);
    reply.header('content-type', file.contentType);
    reply.header('content-disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    return reply.send(file.body);
  });
}
