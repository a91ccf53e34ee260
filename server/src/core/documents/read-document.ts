/**
 * The document pipeline's pure steps around the readers (SPEC §4.7): pasted text read by its
 * format, a document held to the character limit, and the answer of
 * `POST /api/documents/propose` assembled from the proposals. The document worker
 * (server/src/documents/) runs them, off the thread that serves learners.
 */
import { DocumentLimits, type ProposeDocumentResponse } from '@tutorloop/shared';
import type { ExtractedDocument } from './document-model';
import { readHtml, readMarkdown, readPlainText } from './markup-text';
import { proposePoints } from './propose-points';

export type PastedFormat = 'markdown' | 'text' | 'html';

/** Pasted text read into headings and paragraphs. */
export function readPasted(format: PastedFormat, text: string): ExtractedDocument {
  // Windows and old Mac line ends read like Unix ones.
  const unified = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  const blocks = format === 'markdown' ? readMarkdown(unified) : format === 'html' ? readHtml(unified) : readPlainText(unified);
  return { blocks, pages: null, warnings: [] };
}

/** The document cut at `maxCharacters` of text (whole blocks), with a warning saying where. */
export function capCharacters(document: ExtractedDocument, maxCharacters: number = DocumentLimits.textMaxCharacters): ExtractedDocument {
  let total = 0;
  const kept = [];
  for (const block of document.blocks) {
    total += block.text.length;
    if (total > maxCharacters) {
      const where = block.page !== undefined ? ` (page ${block.page} onwards)` : '';
      const warning = `Only the first ${maxCharacters.toLocaleString('en')} characters were read; the rest${where} was left out.`;
      return { ...document, blocks: kept, warnings: [...document.warnings, warning] };
    }
    kept.push(block);
  }
  return document;
}

/** The proposals of a document, with what the learner should know. */
export function proposeFromDocument(document: ExtractedDocument, maxProposals: number = DocumentLimits.proposalsMax): ProposeDocumentResponse {
  const proposals = proposePoints(document, Math.min(maxProposals, DocumentLimits.proposalsMax));
  const warnings = [...document.warnings];
  if (proposals.length === 0) warnings.push('No sentences were found to propose points from.');
  return { proposals, pages: document.pages, warnings };
}
