/**
 * Recall points proposed from a document (SPEC §4.7, issue 26): a PDF with a text layer,
 * Markdown, plain text or HTML pasted from a web page becomes a list of proposed points, each
 * with where it came from. Nothing is stored: the learner edits the proposals and saves them
 * through the existing recall-set create or import routes.
 */
import { z } from 'zod';
import { ApiErrorBody } from './errors';
import { Limits } from './limits';

/** How much of a document the server reads (SPEC §4.7 "Limits … in shared/"). */
export const DocumentLimits = {
  /** Largest PDF accepted, in bytes (its base64 is a third larger). */
  pdfMaxBytes: 16 * 1024 * 1024,
  /** Most pages read from one PDF. */
  pdfMaxPages: 500,
  /** Most characters of text read from one document (pasted text, or a PDF's text layer). */
  textMaxCharacters: 2_000_000,
  /** Most points proposed for one document. */
  proposalsMax: 200,
  /** Documents one learner may have read per minute (a burst of this many, then refilled over the minute). */
  proposeRequestsPerMinute: 6,
  /**
   * Model tokens (input + output) one learner may spend on documents per UTC day, by default
   * (the server's `DOCUMENT_DAILY_TOKENS`): a 300-page book is about 150,000 tokens of text.
   */
  modelTokensPerDay: 500_000,
} as const;

export const documentFormats = ['pdf', 'markdown', 'text', 'html'] as const;
export type DocumentFormat = (typeof documentFormats)[number];

const pastedText = z
  .string()
  .min(1, 'text is empty')
  .max(DocumentLimits.textMaxCharacters, `the text is longer than ${DocumentLimits.textMaxCharacters.toLocaleString('en')} characters`);

/**
 * `POST /api/documents/propose`: pasted text with its format, or a PDF as base64 in `data`
 * (JSON, like the `.apkg` import). `maxProposals` caps the answer (default and ceiling
 * `DocumentLimits.proposalsMax`).
 */
export const ProposeDocumentBody = z.discriminatedUnion('format', [
  z.object({ format: z.literal('markdown'), text: pastedText, maxProposals: z.number().int().min(1).max(DocumentLimits.proposalsMax).optional() }),
  z.object({ format: z.literal('text'), text: pastedText, maxProposals: z.number().int().min(1).max(DocumentLimits.proposalsMax).optional() }),
  z.object({ format: z.literal('html'), text: pastedText, maxProposals: z.number().int().min(1).max(DocumentLimits.proposalsMax).optional() }),
  z.object({
    format: z.literal('pdf'),
    data: z
      .string()
      .min(1, 'data is empty')
      .max(Math.ceil(DocumentLimits.pdfMaxBytes / 3) * 4, `the file is larger than ${DocumentLimits.pdfMaxBytes / 1024 / 1024} MB`)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'data must be the file in base64'),
    maxProposals: z.number().int().min(1).max(DocumentLimits.proposalsMax).optional(),
  }),
]);
export type ProposeDocumentBody = z.infer<typeof ProposeDocumentBody>;

/** Where a proposal came from: the page (PDF) and/or the heading above it, and the span quoted. */
export const ProposalSource = z.object({
  /** 1-based page number of a PDF; absent for pasted text. */
  page: z.number().int().min(1).optional(),
  /** The nearest heading above the quote, when the document has one. */
  heading: z.string().optional(),
  /** The span of the document's text the point was made from, exactly as extracted. */
  quote: z.string().min(1),
});
export type ProposalSource = z.infer<typeof ProposalSource>;

/** One proposed recall point: `content` fits a recall set's point as is. */
export const DocumentProposal = z.object({
  content: z.string().min(1).max(Limits.pointContentMaxLength),
  source: ProposalSource,
});
export type DocumentProposal = z.infer<typeof DocumentProposal>;

/** The answer of `POST /api/documents/propose`: the most important points, in the document's order. */
export const ProposeDocumentResponse = z.object({
  proposals: z.array(DocumentProposal),
  /** Pages read (a PDF), or null for pasted text. */
  pages: z.number().int().min(0).nullable(),
  /** What the learner should know about the reading, in plain words (pages skipped, text cut short). */
  warnings: z.array(z.string()),
});
export type ProposeDocumentResponse = z.infer<typeof ProposeDocumentResponse>;

/** The media type a client names in `Accept` to have `POST /api/documents/propose` report its progress. */
export const documentProgressMediaType = 'application/x-ndjson';

/**
 * One line of `POST /api/documents/propose` answered as NDJSON (the client sent
 * `Accept: application/x-ndjson`): `progress` lines while a PDF's pages are read (pasted text has
 * none), then exactly one `result` (the JSON answer's body) or `error` (the JSON error's body,
 * with the code an error status would have had). Refusals found before reading starts (a bad
 * body, too many documents) are still plain JSON errors with their status. A client that does not
 * ask gets the one JSON answer, so the two-call REST API (propose, then save) is unchanged.
 */
export const ProposeDocumentEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('progress'),
    /** Pages read so far. */
    pagesDone: z.number().int().min(0),
    /** The document's pages. */
    pages: z.number().int().min(1),
  }),
  z.object({ type: z.literal('result'), result: ProposeDocumentResponse }),
  z.object({ type: z.literal('error'), error: ApiErrorBody.shape.error }),
]);
export type ProposeDocumentEvent = z.infer<typeof ProposeDocumentEvent>;
