/**
 * A PDF's text items, page by page, with Mozilla's PDF.js (the legacy build, which runs on
 * Node 20 with no canvas: text extraction needs none). Runs in the document worker only. Fonts
 * are not loaded and nothing is evaluated: only the text layer is read.
 */
import type { PdfPageItems } from '../core/documents/pdf-layout';
import type { Result } from '../core/documents/document-model';

export interface PdfItemsOptions {
  maxPages: number;
  /** Told after each page is read, with the number of pages read and the document's page count. */
  onPage?: (pagesDone: number, pages: number) => void;
  /** Asked before each page: true stops the reading (the learner cancelled). */
  cancelled?: () => boolean;
}

/** The answer of a reading stopped because the learner cancelled it (nothing is kept). */
export const cancelledMessage = 'The reading was cancelled.';

export interface PdfItems {
  pages: PdfPageItems[];
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function readPdfItems(bytes: Uint8Array, options: PdfItemsOptions): Promise<Result<PdfItems>> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false });
  let document: Awaited<typeof loading.promise>;
  try {
    document = await loading.promise;
  } catch (error) {
    if (errorName(error) === 'PasswordException') return { ok: false, error: 'This PDF is protected by a password, so its text cannot be read. Remove the password and try again.' };
    return { ok: false, error: `This file could not be read as a PDF (${errorMessage(error)}). It may be damaged, or not a PDF at all.` };
  }
  try {
    if (document.numPages > options.maxPages) {
      return { ok: false, error: `This PDF has ${document.numPages} pages; at most ${options.maxPages} are read. Split it and propose each part.` };
    }
    const pages: PdfPageItems[] = [];
    options.onPage?.(0, document.numPages);
    for (let number = 1; number <= document.numPages; number += 1) {
      // Between pages, the one place a long reading waits: a cancelled one stops here, with the worker free for the next.
      if (options.cancelled?.()) return { ok: false, error: cancelledMessage };
      const page = await document.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const items = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str === '') continue;
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        items.push({ text: item.str, x, y, width: item.width, fontSize: Math.hypot(c, d) });
      }
      pages.push({ width: viewport.width, height: viewport.height, items });
      page.cleanup();
      options.onPage?.(number, document.numPages);
    }
    return { ok: true, value: { pages } };
  } catch (error) {
    return { ok: false, error: `This file could not be read as a PDF (${errorMessage(error)}). It may be damaged, or not a PDF at all.` };
  } finally {
    await document.destroy();
  }
}
