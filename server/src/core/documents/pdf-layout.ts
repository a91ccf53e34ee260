/**
 * A PDF's text items (as PDF.js gives them: a string, where its baseline starts, its width and
 * font size) turned into headings and paragraphs in reading order (SPEC §4.7, issue 26):
 *
 * - items on one baseline join into a line; a wide horizontal gap starts a new piece, so two
 *   columns whose lines share heights are never read across;
 * - a page with an empty vertical band near its middle, with lines on both sides of it, is two
 *   columns: between the lines that span the band (a title), the left column is read whole
 *   before the right one;
 * - lines repeated at the top or bottom of most pages (running headers and footers, with their
 *   page numbers) are dropped;
 * - a line ending in a hyphen followed by one starting in lower case is one word cut in two;
 * - a line in a larger font than the body's is a heading.
 *
 * Pure: PDF.js runs in the document worker (server/src/documents/), which hands the items here.
 */
import { collapseSpaces, type DocumentBlock } from './document-model';

export interface PdfTextItem {
  text: string;
  /** Baseline start, in PDF units from the page's bottom-left corner. */
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

export interface PdfPageItems {
  width: number;
  height: number;
  items: PdfTextItem[];
}

/** A piece of one line: items on one baseline with no wide gap between them. */
interface LinePiece {
  text: string;
  x0: number;
  x1: number;
  y: number;
  fontSize: number;
}

/** A horizontal gap wider than this many font sizes separates two pieces (columns, table cells). */
const pieceGapEm = 1.5;
/** A vertical step wider than this many font sizes between two lines starts a new paragraph. */
const paragraphGapEm = 1.75;
/** Header and footer zones: this share of the page height at its top and its bottom. */
const marginZone = 0.1;
/** A font this much larger than the body's makes a heading. */
const headingRatio = 1.15;

const hyphens = new Set(['-', '\u2010', '\u2011', '\u00ad']);

/** The pieces of one page's lines, top to bottom, left to right. */
function linePieces(page: PdfPageItems): LinePiece[] {
  const items = page.items.filter((item) => item.text.trim() !== '' && item.fontSize > 0);
  items.sort((a, b) => b.y - a.y || a.x - b.x);
  const pieces: LinePiece[] = [];
  let line: PdfTextItem[] = [];
  const flush = () => {
    line.sort((a, b) => a.x - b.x);
    let piece: LinePiece | null = null;
    for (const item of line) {
      const gap = piece ? item.x - piece.x1 : 0;
      if (piece && gap > pieceGapEm * item.fontSize) {
        pieces.push(piece);
        piece = null;
      }
      if (!piece) {
        piece = { text: item.text, x0: item.x, x1: item.x + item.width, y: item.y, fontSize: item.fontSize };
        continue;
      }
      // A tiny gap is a word cut into items (a ligature, a font change), not a space.
      const joiner = gap > 0.15 * item.fontSize && !piece.text.endsWith(' ') && !item.text.startsWith(' ') ? ' ' : '';
      piece.text += joiner + item.text;
      piece.x1 = Math.max(piece.x1, item.x + item.width);
      piece.fontSize = Math.max(piece.fontSize, item.fontSize);
    }
    if (piece) pieces.push(piece);
    line = [];
  };
  for (const item of items) {
    const first = line[0];
    if (first && Math.abs(first.y - item.y) > 0.5 * Math.min(first.fontSize, item.fontSize)) flush();
    line.push(item);
  }
  flush();
  for (const piece of pieces) piece.text = collapseSpaces(piece.text);
  return pieces.filter((piece) => piece.text !== '');
}

/** The empty vertical band between two columns, if the page has one. */
function findGutter(pieces: readonly LinePiece[], width: number): { start: number; end: number } | null {
  if (pieces.length < 6 || width <= 0) return null;
  const bucket = 2;
  const counts = new Array<number>(Math.ceil(width / bucket) + 1).fill(0);
  for (const piece of pieces) {
    const from = Math.max(0, Math.floor(piece.x0 / bucket));
    const to = Math.min(counts.length - 1, Math.floor(piece.x1 / bucket));
    for (let index = from; index <= to; index += 1) counts[index] = (counts[index] ?? 0) + 1;
  }
  // A title or a figure caption may cross the band; a body line may not.
  const crossingAllowed = Math.max(1, Math.floor(pieces.length * 0.05));
  let best: { start: number; end: number } | null = null;
  let runStart = -1;
  const low = Math.floor((width * 0.3) / bucket);
  const high = Math.ceil((width * 0.7) / bucket);
  for (let index = low; index <= high + 1; index += 1) {
    const open = index <= high && (counts[index] ?? 0) <= crossingAllowed;
    if (open && runStart < 0) runStart = index;
    if (!open && runStart >= 0) {
      const run = { start: runStart * bucket, end: index * bucket };
      if (!best || run.end - run.start > best.end - best.start) best = run;
      runStart = -1;
    }
  }
  if (!best || best.end - best.start < 12) return null;
  const gutter = best;
  const left = pieces.filter((piece) => piece.x1 <= gutter.start + bucket).length;
  const right = pieces.filter((piece) => piece.x0 >= gutter.end - bucket).length;
  return left >= 3 && right >= 3 ? gutter : null;
}

/** The page's pieces in reading order: spanning lines in place, each column read whole between them. */
function readingOrder(pieces: LinePiece[], width: number): LinePiece[] {
  const gutter = findGutter(pieces, width);
  if (!gutter) return pieces;
  const ordered: LinePiece[] = [];
  let left: LinePiece[] = [];
  let right: LinePiece[] = [];
  const flush = () => {
    ordered.push(...left, ...right);
    left = [];
    right = [];
  };
  for (const piece of pieces) {
    if (piece.x1 <= gutter.start + 2) left.push(piece);
    else if (piece.x0 >= gutter.end - 2) right.push(piece);
    else {
      flush();
      ordered.push(piece);
    }
  }
  flush();
  return ordered;
}

/** A line's text with its digits made one sign, so "Page 3 of 9" and "Page 4 of 9" match. */
function repeatKey(text: string): string {
  let key = '';
  for (const character of text.toLowerCase()) key += character >= '0' && character <= '9' ? '#' : character;
  return key;
}

function inMargin(piece: LinePiece, height: number): boolean {
  return piece.y > height * (1 - marginZone) || piece.y < height * marginZone;
}

function isPageNumber(text: string): boolean {
  return /^(?:page\s+)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$/iu.test(text) || /^[ivxlc]{1,7}$/iu.test(text);
}

/** Drops running headers and footers: margin lines repeated on most pages, and lone page numbers. */
function dropRunningLines(pages: Array<{ pieces: LinePiece[]; height: number }>): void {
  const pagesWithKey = new Map<string, number>();
  for (const page of pages) {
    const keys = new Set(page.pieces.filter((piece) => inMargin(piece, page.height)).map((piece) => repeatKey(piece.text)));
    for (const key of keys) pagesWithKey.set(key, (pagesWithKey.get(key) ?? 0) + 1);
  }
  const needed = pages.length >= 3 ? Math.max(3, Math.ceil(pages.length * 0.5)) : pages.length;
  for (const page of pages) {
    page.pieces = page.pieces.filter((piece) => {
      if (!inMargin(piece, page.height)) return true;
      if (isPageNumber(piece.text)) return false;
      return pages.length < 2 || (pagesWithKey.get(repeatKey(piece.text)) ?? 0) < needed;
    });
  }
}

/** Joins a paragraph's lines, mending words a line end cut with a hyphen. */
function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) {
    if (text === '') {
      text = line;
      continue;
    }
    const last = text.at(-1) ?? '';
    const beforeLast = text.at(-2) ?? '';
    const next = line[0] ?? '';
    const cutWord = hyphens.has(last) && /\p{L}/u.test(beforeLast) && /\p{Ll}/u.test(next);
    if (cutWord) text = text.slice(0, -1) + line;
    else if (last === '\u00ad') text = text.slice(0, -1) + ' ' + line;
    else text += ' ' + line;
  }
  return text;
}

/** The body's font size: the size most characters are set in. */
function bodyFontSize(pages: ReadonlyArray<{ pieces: LinePiece[] }>): number {
  const characters = new Map<number, number>();
  for (const page of pages) for (const piece of page.pieces) {
    const size = Math.round(piece.fontSize * 2) / 2;
    characters.set(size, (characters.get(size) ?? 0) + piece.text.length);
  }
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of characters) if (count > bestCount) [best, bestCount] = [size, count];
  return best;
}

/**
 * Headings and paragraphs of the pages, page numbers 1-based. A page with no text gives no
 * blocks; the caller decides what an empty document means.
 */
export function layoutPdfPages(pages: readonly PdfPageItems[]): DocumentBlock[] {
  const lined = pages.map((page) => ({ pieces: linePieces(page), height: page.height, width: page.width }));
  dropRunningLines(lined);
  const body = bodyFontSize(lined);
  const headingSizes = [...new Set(lined.flatMap((page) => page.pieces.map((piece) => Math.round(piece.fontSize * 2) / 2)))]
    .filter((size) => size >= body * headingRatio)
    .sort((a, b) => b - a);
  const blocks: DocumentBlock[] = [];
  lined.forEach((page, pageIndex) => {
    const pageNumber = pageIndex + 1;
    let lines: string[] = [];
    let current: { heading: boolean; size: number; previous: LinePiece } | null = null;
    const flush = () => {
      if (!current || lines.length === 0) return;
      const text = joinLines(lines);
      if (current.heading) {
        const level = Math.min(6, headingSizes.indexOf(Math.round(current.size * 2) / 2) + 1 || 1);
        blocks.push({ kind: 'heading', text, level, page: pageNumber });
      } else blocks.push({ kind: 'paragraph', text, page: pageNumber });
      lines = [];
    };
    for (const piece of readingOrder(page.pieces, page.width)) {
      const heading = piece.fontSize >= body * headingRatio;
      const step = current ? current.previous.y - piece.y : 0;
      const newBlock =
        !current ||
        heading !== current.heading ||
        Math.abs(piece.fontSize - current.size) > 0.5 ||
        // Up the page (the next column) or a wide step down: a new paragraph.
        step < 0 ||
        step > paragraphGapEm * Math.max(piece.fontSize, current.previous.fontSize);
      if (newBlock) flush();
      if (newBlock || !current) current = { heading, size: piece.fontSize, previous: piece };
      current.previous = piece;
      lines.push(piece.text);
    }
    flush();
  });
  return blocks;
}
