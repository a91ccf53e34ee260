/**
 * The check every model-proposed point passes (SPEC §4.7): its quote must really be in the
 * document, on the page it names. The model may change whitespace (line ends, double spaces), so
 * the quote is matched word by word with any run of whitespace between words; what is returned is
 * the span exactly as the document has it, so the source the learner sees is the document's own
 * text. The heading is the document's (the nearest one above the quote), not the model's. Pure.
 */
import type { ExtractedDocument } from './document-model';

export interface LocatedQuote {
  quote: string;
  page: number | undefined;
  heading: string | undefined;
}

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where `quote` is in the document at `page` (undefined for a document without pages), or null
 * when it is not there. Quotes within one paragraph are found with their heading; a quote across
 * paragraphs of the page is found too, with the heading in force at its first paragraph.
 */
export function locateQuote(document: ExtractedDocument, page: number | undefined, quote: string): LocatedQuote | null {
  const words = quote.split(/\s+/u).filter((word) => word.length > 0);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map(escape).join('\\s+'), 'u');
  let heading: string | undefined;
  const onPage: Array<{ text: string; heading: string | undefined }> = [];
  for (const block of document.blocks) {
    if (block.kind === 'heading') {
      // A heading counts as context of its page's text even when it sits on the page before.
      heading = block.text;
      if (block.page !== page) continue;
    }
    if (block.page !== page) continue;
    onPage.push({ text: block.text, heading });
    const found = pattern.exec(block.text);
    if (found) return { quote: found[0], page, heading: block.kind === 'heading' ? undefined : heading };
  }
  const joined = onPage.map((entry) => entry.text).join('\n\n');
  const found = pattern.exec(joined);
  if (!found) return null;
  let offset = 0;
  const first = onPage.find((entry) => {
    offset += entry.text.length + 2;
    return offset > found.index;
  });
  return { quote: found[0], page, heading: first?.heading };
}
