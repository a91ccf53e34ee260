import { describe, expect, it } from 'vitest';
import { paragraphStatements, sentenceSpans, subjectOf } from './sentences';

const contents = (text: string, subject: string | null = null) => paragraphStatements(text, subject).map((statement) => statement.content);

describe('sentences of a paragraph (SPEC §4.7: atomic, self-contained)', () => {
  it('ends a sentence at a full stop before a capital, not after an abbreviation or an initial', () => {
    const text = 'Rivers carry silt, e.g. clay and sand. J. Smith mapped the delta in 1850. Is it still growing? Yes.';
    expect(sentenceSpans(text).map((span) => text.slice(span.start, span.end))).toEqual([
      'Rivers carry silt, e.g. clay and sand.',
      'J. Smith mapped the delta in 1850.',
      'Is it still growing?',
      'Yes.',
    ]);
  });

  it('names the subject where a sentence opens with "It" or "Its", and drops one opening with "This"', () => {
    expect(contents('Basalt is a dark volcanic rock. It forms from lava. Its crystals are small. This makes it hard.')).toEqual([
      'Basalt is a dark volcanic rock.',
      'Basalt forms from lava.',
      "Basalt's crystals are small.",
    ]);
  });

  it('uses the previous paragraph’s subject, and drops "It" when nothing names it', () => {
    expect(contents('It cools quickly at the surface.', 'Lava')).toEqual(['Lava cools quickly at the surface.']);
    expect(contents('It cools quickly at the surface.')).toEqual([]);
  });

  it('splits a compound sentence where a new clause starts, and keeps each part’s span as its quote', () => {
    const text = 'Granite is an intrusive rock, and the crystals of granite are large; obsidian is volcanic glass.';
    const statements = paragraphStatements(text, null);
    expect(statements.map((statement) => [statement.content, text.slice(statement.quote.start, statement.quote.end)])).toEqual([
      ['Granite is an intrusive rock.', 'Granite is an intrusive rock'],
      ['The crystals of granite are large.', 'the crystals of granite are large'],
      ['Obsidian is volcanic glass.', 'obsidian is volcanic glass.'],
    ]);
  });

  it('keeps a sentence whole when its second clause opens with a pronoun whose noun is unclear', () => {
    expect(contents('The hardness of talc is 1 on the Mohs scale, so it is scratched by a fingernail.')).toEqual([
      'The hardness of talc is 1 on the Mohs scale, so it is scratched by a fingernail.',
    ]);
  });

  it('finds a short subject before the first verb', () => {
    expect(subjectOf('Orographic lift causes heavy rainfall.')).toBe('Orographic lift');
    expect(subjectOf('In human muscles it produces lactic acid.')).toBeNull();
  });
});
