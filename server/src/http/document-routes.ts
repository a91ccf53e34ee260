/**
 * `POST /api/documents/propose` (SPEC §4.7, issue 26): a PDF (base64 in JSON, like the `.apkg`
 * import) or pasted Markdown, text or HTML becomes proposed recall points, each with its source.
 * Registered by routes.ts inside its authenticated scope: parse → validate with the shared schema
 * → read in the document worker → send. Nothing is stored: the learner saves what they keep
 * through `POST /api/recall-sets` (or the import routes). Each request is charged to the learner
 * (`DocumentLimits.proposeRequestsPerMinute`), and the reader itself reads two documents at a time.
 */
import type { FastifyInstance } from 'fastify';
import { DocumentLimits, ProposeDocumentBody, type ProposeDocumentResponse } from '@tutorloop/shared';
import { retryHint, TokenBuckets } from '../core/limits/learner-limits';
import type { Clock } from '../core/ports';
import { busyMessage, createDocumentReader, type DocumentReader } from '../documents/document-reader';
import { AppError } from '../services/app-error';
import { parseBody } from './parse-input';

/** Room for the largest PDF in base64 plus the JSON around it (pasted text fits well inside). */
const proposeBodyLimit = Math.ceil(DocumentLimits.pdfMaxBytes / 3) * 4 + 64 * 1024;
const windowMs = 60_000;

export interface DocumentRouteDeps {
  clock: Clock;
  /** The worker-backed reader (default: one shared by the server). */
  reader?: DocumentReader;
}

let sharedReader: DocumentReader | undefined;

/** Registers the route on an authenticated scope (`request.learnerId` is set). */
export function registerDocumentRoutes(api: FastifyInstance, deps: DocumentRouteDeps): void {
  const reader = deps.reader ?? (sharedReader ??= createDocumentReader());
  const buckets = new TokenBuckets({ limit: DocumentLimits.proposeRequestsPerMinute, windowMs }, deps.clock);

  api.post('/api/documents/propose', { bodyLimit: proposeBodyLimit }, async (request): Promise<ProposeDocumentResponse> => {
    const body = parseBody(ProposeDocumentBody, request.body);
    const allowed = buckets.take(request.learnerId);
    if (!allowed.ok) {
      throw new AppError('rate_limited', `Too many documents: at most ${DocumentLimits.proposeRequestsPerMinute} a minute. ${retryHint(allowed.retryAfterMs)}`, allowed.retryAfterMs);
    }
    const input = body.format === 'pdf' ? { format: 'pdf' as const, bytes: new Uint8Array(Buffer.from(body.data, 'base64')) } : { format: body.format, text: body.text };
    if (input.format === 'pdf' && input.bytes.length > DocumentLimits.pdfMaxBytes) {
      throw new AppError('invalid_payload', `The file is larger than ${DocumentLimits.pdfMaxBytes / 1024 / 1024} MB.`);
    }
    const outcome = await reader.propose(input, body.maxProposals ?? DocumentLimits.proposalsMax);
    if (outcome.ok) return outcome.value;
    if (outcome.error === busyMessage) throw new AppError('rate_limited', outcome.error, windowMs);
    throw new AppError('invalid_payload', outcome.error);
  });
}
