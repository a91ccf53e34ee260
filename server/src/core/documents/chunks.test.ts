import { describe, expect, it } from 'vitest';
import { chunkDocument, renderChunk } from './chunks';
import type { DocumentBlock, ExtractedDocument } from './document-model';
import { locateQuote } from './quote-check';

const paragraph = (text: string, page?: number): DocumentBlock => ({ kind: 'paragraph', text, ...(page !== undefined ? { page } : {}) });
const heading = (text: string, page?: number): DocumentBlock => ({ kind: 'heading', text, level: 2, ...(page !== undefined ? { page } : {}) });
/** A paragraph of about `tokens` estimated tokens (4 characters each). */
const filler = (label: string, tokens: number, page?: number) => paragraph(`${label} ${'x'.repeat(tokens * 4 - label.length - 1)}`, page);
const doc = (blocks: DocumentBlock[], pages: number | null = null): ExtractedDocument => ({ blocks, pages, warnings: [] });

describe('chunkDocument', () => {
  it('packs whole sections up to the cap and never cuts a section that fits', () => {
    const blocks = [heading('A'), filler('a1', 40), filler('a2', 40), heading('B'), filler('b1', 60), heading('C'), filler('c1', 30)];
    const chunks = chunkDocument(doc(blocks), 100);
    expect(chunks.map((chunk) => chunk.blocks.map((block) => block.text.split(' ')[0]))).toEqual([['A', 'a1', 'a2'], ['B', 'b1', 'C', 'c1']]);
    expect(chunks[1]?.contextHeading?.text).toBe('A');
  });

  it('starts a chunk at a page boundary, not in the middle of a page', () => {
    const blocks = [filler('p1a', 30, 1), filler('p1b', 30, 1), filler('p2a', 30, 2), filler('p2b', 30, 2)];
    expect(chunkDocument(doc(blocks, 2), 100).map((chunk) => chunk.blocks.map((block) => block.page))).toEqual([[1, 1], [2, 2]]);
  });

  it('cuts a section longer than the cap between paragraphs, keeping a heading with what follows it', () => {
    const blocks = [heading('Long'), filler('l1', 60), filler('l2', 60), filler('l3', 60)];
    const chunks = chunkDocument(doc(blocks), 100);
    expect(chunks.map((chunk) => chunk.blocks.map((block) => block.text.split(' ')[0]))).toEqual([['Long', 'l1'], ['l2'], ['l3']]);
    // The later parts say which section they continue.
    expect(renderChunk(chunks[1]!)).toContain('(Continuing the section "Long".)');
  });

  it('renders page markers and headings around the unchanged text', () => {
    const [chunk] = chunkDocument(doc([heading('Rain', 2), paragraph('Rain is water.', 2), paragraph('Snow is ice.', 3)], 3), 1000);
    expect(renderChunk(chunk!)).toBe('[page 2]\n\n## Rain\n\nRain is water.\n\n[page 3]\n\nSnow is ice.');
  });
});

describe('locateQuote', () => {
  const document = doc([heading('Water', 1), paragraph('Evaporation is the change\nof water into vapour. It needs heat.', 1), heading('Ice', 2), paragraph('Ice is frozen water.', 2)], 2);

  it('finds a quote on the page it names, whitespace aside, and gives the exact span and the heading above it', () => {
    expect(locateQuote(document, 1, 'Evaporation is the change of water  into vapour.')).toEqual({ quote: 'Evaporation is the change\nof water into vapour.', page: 1, heading: 'Water' });
  });

  it('refuses a quote on another page than the one named, and words that are not in the document', () => {
    expect(locateQuote(document, 2, 'Evaporation is the change of water into vapour.')).toBeNull();
    expect(locateQuote(document, 1, 'Evaporation is the change of ice into vapour.')).toBeNull();
    expect(locateQuote(document, 1, '   ')).toBeNull();
  });
});
