/**
 * `POST /api/documents/propose` (SPEC §4.7, issue 26): a PDF (base64 in JSON, like the `.apkg`
 * import) or pasted Markdown, text or HTML becomes proposed recall points, each with its source.
 * Registered by routes.ts inside its authenticated scope: parse → validate with the shared schema
 * → read in the document worker → send. Nothing is stored: the learner saves what they keep
 * through `POST /api/recall-sets` (or the import routes). Each request is charged to the learner
 * (`DocumentLimits.proposeRequestsPerMinute`), and the reader itself reads two documents at a time.
 * With a model (`models`), the worker only extracts the text and the model proposes the points
 * (core/documents/model-proposals.ts), charged to the learner's model budget and to the daily
 * cap on document tokens counted from `llm_calls`. When the client leaves, the reading stops (the
 * worker between two pages, the model calls by their signal) and is logged as cancelled, not as an
 * error. A client that sends `Accept: application/x-ndjson` gets progress lines (pages read) and
 * then the answer as one line (`ProposeDocumentEvent`); others get the one JSON answer.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DocumentLimits, documentProgressMediaType, ProposeDocumentBody, type ProposeDocumentEvent, type ProposeDocumentResponse } from '@tutorloop/shared';
import { documentPointsPurpose, documentTokenAllowance, proposeWithModel } from '../core/documents/model-proposals';
import { utcDayStart } from '../core/limits/daily-token-budget';
import { retryHint, TokenBuckets } from '../core/limits/learner-limits';
import { budgetRefusalMessage, refusedOperationNotes, type ModelBudget } from '../core/limits/model-budget';
import type { Clock } from '../core/ports';
import type { ModelAccess } from '../core/provider';
import { busyMessage, cancelledMessage, createDocumentReader, type DocumentInput, type DocumentReader, type ReadOptions } from '../documents/document-reader';
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

/** One reading's options: it always has a signal (the client may leave), and progress when streamed. */
type ProposeOptions = ReadOptions & { signal: AbortSignal };

/** Registers the route on an authenticated scope (`request.learnerId` is set). */
export function registerDocumentRoutes(api: FastifyInstance, deps: DocumentRouteDeps): void {
  const reader = deps.reader ?? (sharedReader ??= createDocumentReader());
  const buckets = new TokenBuckets({ limit: DocumentLimits.proposeRequestsPerMinute, windowMs }, deps.clock);

  const proposeByModel = async (models: ModelAccess, learnerId: string, input: DocumentInput, maxProposals: number, options: ProposeOptions): Promise<ProposeDocumentResponse> => {
    // Refused before anything is read: a refused document costs no tokens and leaves nothing behind.
    const now = deps.clock.now();
    const cap = deps.documentDailyTokens ?? DocumentLimits.modelTokensPerDay;
    const used = cap === 0 || !deps.tokensUsedSince ? 0 : await deps.tokensUsedSince(learnerId, new Date(utcDayStart(now.getTime())), documentPointsPurpose);
    const allowance = documentTokenAllowance(cap, used, now.getTime());
    if (!allowance.ok) throw new AppError('rate_limited', budgetRefusalMessage(allowance, refusedOperationNotes.document_proposal), allowance.retryAfterMs);
    const charged = deps.modelBudget ? await deps.modelBudget.charge(learnerId, 'document_proposal') : ({ ok: true } as const);
    if (!charged.ok) throw new AppError('rate_limited', budgetRefusalMessage(charged, refusedOperationNotes.document_proposal), charged.retryAfterMs);
    const extracted = await reader.extract(input, options);
    if (!extracted.ok) throw failure(extracted.error);
    const outcome = await proposeWithModel(extracted.value, { client: models.client, model: models.tutorModel, learnerId, maxProposals, tokenAllowance: allowance.allowance, signal: options.signal });
    return outcome.response;
  };

  const propose = async (learnerId: string, input: DocumentInput, maxProposals: number, options: ProposeOptions): Promise<ProposeDocumentResponse> => {
    if (deps.models) return proposeByModel(deps.models, learnerId, input, maxProposals, options);
    const outcome = await reader.propose(input, maxProposals, options);
    if (outcome.ok) return outcome.value;
    throw failure(outcome.error);
  };

  api.post('/api/documents/propose', { bodyLimit: proposeBodyLimit }, async (request, reply): Promise<ProposeDocumentResponse | FastifyReply> => {
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
    // The learner left (the connection closed before the answer was sent): the worker stops between
    // two pages, no model call is made, and the one in flight stops. Nothing was stored, so nothing is undone.
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort();
    };
    reply.raw.on('close', onClose);
    if (reply.raw.socket?.destroyed !== false) controller.abort();
    const cancelled = (error: unknown) => controller.signal.aborted && (!(error instanceof AppError) || error.message === cancelledMessage);
    if (acceptsProgress(request.headers.accept)) return streamProposal(reply, controller, (options) => propose(request.learnerId, input, maxProposals, options), cancelled);
    try {
      return await propose(request.learnerId, input, maxProposals, { signal: controller.signal });
    } catch (error) {
      if (!cancelled(error)) throw error;
      // Nobody is left to answer: not an error of the server's, so nothing reaches the error log.
      request.log.info('document reading cancelled: the client left');
      reply.hijack();
      reply.raw.destroy();
      return reply;
    } finally {
      reply.raw.off('close', onClose);
    }
  });
}

/** A reader's failure as the app error it answers with: busy is a 429, anything else the document's fault (400). */
function failure(error: string): AppError {
  return error === busyMessage ? new AppError('rate_limited', error, windowMs) : new AppError('invalid_payload', error);
}

/** True when the client asked for progress lines (`Accept: application/x-ndjson`). */
function acceptsProgress(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((type) => type.split(';')[0]?.trim().toLowerCase() === documentProgressMediaType);
}

/**
 * The answer as NDJSON (`ProposeDocumentEvent` lines): a `progress` line per PDF page read, then
 * the `result`, or an `error` with the code a JSON answer would have had (the status is 200 by
 * then). A client that left gets nothing more, and its cancelled reading is no error.
 */
function streamProposal(
  reply: FastifyReply,
  controller: AbortController,
  read: (options: ProposeOptions) => Promise<ProposeDocumentResponse>,
  cancelled: (error: unknown) => boolean,
): FastifyReply {
  const stream = new PassThrough();
  const send = (event: ProposeDocumentEvent) => {
    if (!controller.signal.aborted && !stream.writableEnded) stream.write(`${JSON.stringify(event)}\n`);
  };
  void read({ signal: controller.signal, onProgress: (pagesDone, pages) => send({ type: 'progress', pagesDone, pages }) })
    .then((result) => send({ type: 'result', result }))
    .catch((error: unknown) => {
      if (cancelled(error)) {
        reply.log.info('document reading cancelled: the client left');
        return;
      }
      if (error instanceof AppError) return send({ type: 'error', error: { code: error.code, message: error.message } });
      reply.log.error({ err: error }, 'document reading failed');
      send({ type: 'error', error: { code: 'internal', message: 'Internal error.' } });
    })
    .finally(() => stream.end());
  return reply.type(`${documentProgressMediaType}; charset=utf-8`).header('cache-control', 'no-store').send(stream);
}
