/**
 * A document as the proposer reads it (SPEC §4.7): a list of headings and paragraphs in
 * reading order, each with the page it is on when the source has pages. Every reader (PDF,
 * Markdown, plain text, HTML) produces this; the proposer reads nothing else, and every quote
 * it gives is a span of one page's text as `pageText` joins it.
 */
export type DocumentBlock =
  | { kind: 'heading'; text: string; level: number; page?: number }
  | { kind: 'paragraph'; text: string; page?: number };

export interface ExtractedDocument {
  blocks: DocumentBlock[];
  /** Pages read (a PDF), or null for a source without pages. */
  pages: number | null;
  /** What the learner should know about the reading, in plain words. */
  warnings: string[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** The text of one page (or of the whole document when it has no pages): its blocks, one per paragraph. */
export function pageText(document: ExtractedDocument, page: number | undefined): string {
  return document.blocks
    .filter((block) => block.page === page)
    .map((block) => block.text)
    .join('\n\n');
}

/** Whitespace runs made single spaces, ends trimmed; a scan, so any input stays linear. */
export function collapseSpaces(text: string): string {
  let out = '';
  let pendingSpace = false;
  for (const character of text) {
    if (character === ' ' || character === '\t' || character === '\n' || character === '\r' || character === '\f' || character === '\v' || character === '\u00a0') {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += character;
  }
  return out;
}
