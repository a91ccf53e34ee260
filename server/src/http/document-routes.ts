/**
 * `POST /api/documents/propose` (SPEC §4.7, issue 26): a PDF (base64 in JSON, like the `.apkg`
 * import) or pasted Markdown, text or HTML becomes proposed recall points, each with its source.
 * Registered by routes.ts inside its authenticated scope: parse → validate with the shared schema
 * → read in the document worker → send. Nothing is stored: the learner saves what they keep
 * through `POST /api/recall-sets` (or the import routes). Each request is charged to the learner
 * (`DocumentLimits.proposeRequestsPerMinute`), and the reader itself reads two documents at a time.
 * With a model (`models`), the worker only extracts the text and the model proposes the points
 * (core/documents/model-proposals.ts), charged to the learner's model budget and to the daily
 * cap on document tokens counted from `llm_calls`; the calls are aborted when the client leaves.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DocumentLimits, ProposeDocumentBody, type ProposeDocumentResponse } from '@tutorloop/shared';
import { documentPointsPurpose, documentTokenAllowance, proposeWithModel } from '../core/documents/model-proposals';
import { utcDayStart } from '../core/limits/daily-token-budget';
import { retryHint, TokenBuckets } from '../core/limits/learner-limits';
import { budgetRefusalMessage, refusedOperationNotes, type ModelBudget } from '../core/limits/model-budget';
import type { Clock } from '../core/ports';
import type { ModelAccess } from '../core/provider';
import { busyMessage, createDocumentReader, type DocumentInput, type DocumentReader } from '../documents/document-reader';
import { AppError } from '../services/app-error';
import { parseBody } from './parse-input';

/** Room for the largest PDF in base64 plus the JSON around it (pasted text fits well inside). */
const proposeBodyLimit = Math.ceil(DocumentLimits.pdfMaxBytes / 3) * 4 + 64 * 1024;
const windowMs = 60_000;

export interface DocumentRouteDeps {
  clock: Clock;
  /** The worker-backed reader (default: one shared by the server). */
  reader?: DocumentReader;
  /** The server's models; absent offline (then the worker proposes the points itself). */
  models?: ModelAccess;
  /** Charged one `document_proposal` per document the model reads. */
  modelBudget?: ModelBudget;
  /** Model tokens per learner per UTC day on documents (`DOCUMENT_DAILY_TOKENS`); 0 = unlimited. */
  documentDailyTokens?: number;
  /** Tokens of the learner's calls of `purpose` since `since` (`llm_calls`, through the storage port). */
  tokensUsedSince?: (learnerId: string, since: Date, purpose: string) => Promise<number>;
}

let sharedReader: DocumentReader | undefined;

/** Registers the route on an authenticated scope (`request.learnerId` is set). */
export function registerDocumentRoutes(api: FastifyInstance, deps: DocumentRouteDeps): void {
  const reader = deps.reader ?? (sharedReader ??= createDocumentReader());
  const buckets = new TokenBuckets({ limit: DocumentLimits.proposeRequestsPerMinute, windowMs }, deps.clock);

  const proposeByModel = async (models: ModelAccess, learnerId: string, input: DocumentInput, maxProposals: number, reply: FastifyReply): Promise<ProposeDocumentResponse> => {
    // Refused before anything is read: a refused document costs no tokens and leaves nothing behind.
    const now = deps.clock.now();
    const cap = deps.documentDailyTokens ?? DocumentLimits.modelTokensPerDay;
    const used = cap === 0 || !deps.tokensUsedSince ? 0 : await deps.tokensUsedSince(learnerId, new Date(utcDayStart(now.getTime())), documentPointsPurpose);
    const allowance = documentTokenAllowance(cap, used, now.getTime());
    if (!allowance.ok) throw new AppError('rate_limited', budgetRefusalMessage(allowance, refusedOperationNotes.document_proposal), allowance.retryAfterMs);
    const charged = deps.modelBudget ? await deps.modelBudget.charge(learnerId, 'document_proposal') : ({ ok: true } as const);
    if (!charged.ok) throw new AppError('rate_limited', budgetRefusalMessage(charged, refusedOperationNotes.document_proposal), charged.retryAfterMs);
    // The learner left (the connection closed before the answer was sent): no model call is made, and the one in flight stops.
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort();
    };
    reply.raw.on('close', onClose);
    if (reply.raw.socket?.destroyed !== false) controller.abort();
    try {
      const extracted = await reader.extract(input);
      if (!extracted.ok) throw new AppError(extracted.error === busyMessage ? 'rate_limited' : 'invalid_payload', extracted.error, extracted.error === busyMessage ? windowMs : undefined);
      const outcome = await proposeWithModel(extracted.value, { client: models.client, model: models.tutorModel, learnerId, maxProposals, tokenAllowance: allowance.allowance, signal: controller.signal });
      return outcome.response;
    } finally {
      reply.raw.off('close', onClose);
    }
  };

  api.post('/api/documents/propose', { bodyLimit: proposeBodyLimit }, async (request, reply): Promise<ProposeDocumentResponse> => {
    const body = parseBody(ProposeDocumentBody, request.body);
    const allowed = buckets.take(request.learnerId);
    if (!allowed.ok) {
      throw new AppError('rate_limited', `Too many documents: at most ${DocumentLimits.proposeRequestsPerMinute} a minute. ${retryHint(allowed.retryAfterMs)}`, allowed.retryAfterMs);
    }
    const input = body.format === 'pdf' ? { format: 'pdf' as const, bytes: new Uint8Array(Buffer.from(body.data, 'base64')) } : { format: body.format, text: body.text };
    if (input.format === 'pdf' && input.bytes.length > DocumentLimits.pdfMaxBytes) {
      throw new AppError('invalid_payload', `The file is larger than ${DocumentLimits.pdfMaxBytes / 1024 / 1024} MB.`);
    }
    const maxProposals = body.maxProposals ?? DocumentLimits.proposalsMax;
    if (deps.models) return proposeByModel(deps.models, request.learnerId, input, maxProposals, reply);
    const outcome = await reader.propose(input, maxProposals);
    if (outcome.ok) return outcome.value;
    if (outcome.error === busyMessage) throw new AppError('rate_limited', outcome.error, windowMs);
    throw new AppError('invalid_payload', outcome.error);
  });
}
