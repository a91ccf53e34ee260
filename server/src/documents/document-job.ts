/**
 * One document job, as the document worker runs it (document-worker.mjs): a PDF's text layer
 * read with PDF.js and laid out, or pasted text read by its format; then, for `propose`, the
 * offline proposals (core/documents/). Everything here runs off the thread serving learners.
 */
import { DocumentLimits, type ProposeDocumentResponse } from '@tutorloop/shared';
import type { ExtractedDocument, Result } from '../core/documents/document-model';
import { layoutPdfPages } from '../core/documents/pdf-layout';
import { capCharacters, proposeFromDocument, readPasted, type PastedFormat } from '../core/documents/read-document';
import { cancelledMessage, readPdfItems } from './pdf-items';

export { cancelledMessage } from './pdf-items';

export type DocumentInput = { format: 'pdf'; bytes: Uint8Array } | { format: PastedFormat; text: string };

export type DocumentJob =
  | { operation: 'extract'; input: DocumentInput; maxPages: number }
  | { operation: 'propose'; input: DocumentInput; maxPages: number; maxProposals: number };

export type DocumentJobOutcome = Result<ExtractedDocument> | Result<ProposeDocumentResponse>;

/** What the worker gives a job: where to report pages read, and whether the learner cancelled. */
export interface DocumentJobHooks {
  onPage?: (pagesDone: number, pages: number) => void;
  cancelled?: () => boolean;
}

/** Page numbers as words: "3", "3 and 7", "3, 7 and 9". */
function listPages(pages: readonly number[]): string {
  if (pages.length === 1) return String(pages[0]);
  return `${pages.slice(0, -1).join(', ')} and ${pages.at(-1)}`;
}

async function extract(input: DocumentInput, maxPages: number, hooks: DocumentJobHooks): Promise<Result<ExtractedDocument>> {
  if (input.format !== 'pdf') return { ok: true, value: capCharacters(readPasted(input.format, input.text)) };
  const read = await readPdfItems(input.bytes, { maxPages, ...hooks });
  if (!read.ok) return read;
  const { pages } = read.value;
  const blocks = layoutPdfPages(pages);
  if (blocks.length === 0) {
    return {
      ok: false,
      error: 'This PDF has no text layer (it looks scanned), so there is no text to propose points from. Run it through text recognition (OCR) first, or paste its text.',
    };
  }
  const withText = new Set(blocks.map((block) => block.page));
  const scanned = pages.map((_, index) => index + 1).filter((page) => !withText.has(page));
  const warnings =
    scanned.length === 0 ? [] : [`${scanned.length === 1 ? 'Page' : 'Pages'} ${listPages(scanned.slice(0, 20))}${scanned.length > 20 ? ' and others' : ''} had no text (scanned or images only) and ${scanned.length === 1 ? 'was' : 'were'} skipped.`];
  return { ok: true, value: capCharacters({ blocks, pages: pages.length, warnings }) };
}

export async function runDocumentJob(job: DocumentJob, hooks: DocumentJobHooks = {}): Promise<DocumentJobOutcome> {
  const extracted = await extract(job.input, job.maxPages, hooks);
  if (job.operation === 'extract' || !extracted.ok) return extracted;
  if (hooks.cancelled?.()) return { ok: false, error: cancelledMessage };
  return { ok: true, value: proposeFromDocument(extracted.value, job.maxProposals ?? DocumentLimits.proposalsMax) };
}
