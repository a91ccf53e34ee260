/**
 * A document cut into chunks for the model (SPEC §4.7): each chunk is whole sections and pages
 * — a new heading or a new page starts a unit, and a chunk is consecutive units up to a token-ish
 * cap — so a point never needs text from two chunks, and every quote the model gives can be
 * checked against one page. A unit longer than the cap is cut between paragraphs; a single
 * paragraph longer than the cap stays whole (cutting it would cut a sentence). Pure.
 */
import type { DocumentBlock, ExtractedDocument } from './document-model';

export interface DocumentChunk {
  /** The chunk's blocks, in reading order. */
  blocks: DocumentBlock[];
  /** The heading in force where the chunk starts (from an earlier chunk), for context. */
  contextHeading: DocumentBlock | null;
  /** Estimated tokens of the chunk's text. */
  tokens: number;
}

/** Characters per token, roughly, for Latin-script text: an estimate, not a tokenizer. */
const charactersPerToken = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / charactersPerToken);
}

/** Units: a run of blocks that starts at a heading or a page change (or the document's start). */
function units(blocks: readonly DocumentBlock[]): DocumentBlock[][] {
  const found: DocumentBlock[][] = [];
  let current: DocumentBlock[] = [];
  for (const block of blocks) {
    const previous = current.at(-1);
    const startsUnit = previous !== undefined && (block.kind === 'heading' || block.page !== previous.page) && !(previous.kind === 'heading' && block.page === previous.page);
    if (startsUnit) {
      found.push(current);
      current = [];
    }
    current.push(block);
  }
  if (current.length > 0) found.push(current);
  return found;
}

const blockTokens = (block: DocumentBlock) => estimateTokens(block.text) + 1;

/** A unit longer than the cap, cut between paragraphs. */
function splitUnit(unit: DocumentBlock[], maxTokens: number): DocumentBlock[][] {
  const parts: DocumentBlock[][] = [];
  let part: DocumentBlock[] = [];
  let tokens = 0;
  for (const block of unit) {
    const size = blockTokens(block);
    // A heading stays with the paragraph after it.
    if (part.length > 0 && tokens + size > maxTokens && part.at(-1)?.kind !== 'heading') {
      parts.push(part);
      part = [];
      tokens = 0;
    }
    part.push(block);
    tokens += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** The document's chunks, each at most about `maxTokens` (unless one paragraph alone is longer). */
export function chunkDocument(document: ExtractedDocument, maxTokens: number): DocumentChunk[] {
  const pieces = units(document.blocks).flatMap((unit) => (unit.reduce((sum, block) => sum + blockTokens(block), 0) > maxTokens ? splitUnit(unit, maxTokens) : [unit]));
  const chunks: DocumentChunk[] = [];
  let blocks: DocumentBlock[] = [];
  let tokens = 0;
  let heading: DocumentBlock | null = null;
  let contextHeading: DocumentBlock | null = null;
  const close = () => {
    if (blocks.length > 0) chunks.push({ blocks, contextHeading, tokens });
    blocks = [];
    tokens = 0;
    contextHeading = heading;
  };
  for (const piece of pieces) {
    const size = piece.reduce((sum, block) => sum + blockTokens(block), 0);
    if (blocks.length > 0 && tokens + size > maxTokens) close();
    for (const block of piece) {
      blocks.push(block);
      if (block.kind === 'heading') heading = block;
    }
    tokens += size;
  }
  close();
  return chunks;
}

/**
 * The chunk as the model reads it: a page marker where the page changes, headings as Markdown
 * headings, paragraphs as they are. The text itself is unchanged, so quotes can be exact.
 */
export function renderChunk(chunk: DocumentChunk): string {
  const lines: string[] = [];
  if (chunk.contextHeading && chunk.blocks[0]?.kind !== 'heading') lines.push(`(Continuing the section "${chunk.contextHeading.text}".)`);
  let page: number | undefined;
  for (const block of chunk.blocks) {
    if (block.page !== undefined && block.page !== page) {
      page = block.page;
      lines.push(`[page ${page}]`);
    }
    lines.push(block.kind === 'heading' ? `${'#'.repeat(Math.min(Math.max(block.level, 1), 6))} ${block.text}` : block.text);
  }
  return lines.join('\n\n');
}
