import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createRandom, pickOne, randomInt } from '../assessment/random';
import { csvField, guardCell, toCsv, unguardCell } from './csv';

describe('CSV (RFC 4180)', () => {
  it('quotes only fields with a comma, a quote or a line break, doubling quotes inside', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(4)).toBe('4');
    expect(csvField(null)).toBe('');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
  });

  it('round-trips awkward values through a real CSV parser', () => {
    const records = [
      ['id', 'answer'],
      ['1', 'Commas, "quotes" and\nnew lines\r\nall at once'],
      ['2', ''],
      ['3', '  leading and trailing spaces  '],
    ];
    const text = toCsv(records);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parse(text, { relax_quotes: false })).toEqual(records);
  });
});

describe('formula injection (SPEC §8 "Exports are inert", OWASP CSV Injection)', () => {
  it('puts a quote in front of a text cell starting with =, +, -, @, tab or CR, and encloses the cell in double quotes', () => {
    expect(['=1+1', '+1', '-2+3', '@SUM(A1)', '\t=cmd', '\r=cmd', '=HYPERLINK("http://x","y")'].map(csvField)).toEqual([
      `"'=1+1"`,
      `"'+1"`,
      `"'-2+3"`,
      `"'@SUM(A1)"`,
      `"'\t=cmd"`,
      `"'\r=cmd"`,
      `"'=HYPERLINK(""http://x"",""y"")"`,
    ]);
  });

  it('leaves other texts and finite numbers alone: -3 is a number to a spreadsheet, not a formula', () => {
    expect([' =not first', 'a=b', "it's", "'quoted", -3, 2.5].map(csvField)).toEqual([' =not first', 'a=b', "it's", "'quoted", '-3', '2.5']);
    expect([Number.NEGATIVE_INFINITY, Number.NaN].map(csvField)).toEqual([`"'-Infinity"`, 'NaN']);
  });

  it('adds one more quote to a text that already has quotes before a formula character, so the guard can always be undone', () => {
    expect(guardCell("'=x")).toBe("''=x");
    expect(guardCell("''-x")).toBe("'''-x");
    expect(unguardCell("''=x")).toBe("'=x");
    // Quotes not followed by a formula character are the author's own, never ours.
    expect(["'quoted", "''", 'plain', "'"].map(unguardCell)).toEqual(["'quoted", "''", 'plain', "'"]);
  });

  it('unguardCell(guardCell(text)) is the text, for 2000 seeded texts made of formula characters, quotes and letters', () => {
    const random = createRandom('csv-guard-round-trip');
    const alphabet = ['=', '+', '-', '@', '\t', '\r', "'", "'", 'a', ' ', '"', ',', '\n'];
    for (let index = 0; index < 2000; index += 1) {
      const text = Array.from({ length: randomInt(random, 0, 6) }, () => pickOne(random, alphabet)).join('');
      expect(unguardCell(guardCell(text))).toBe(text);
      // What a spreadsheet sees never starts with a formula character.
      expect(guardCell(text)).not.toMatch(/^[=+\-@\t\r]/);
      // And the CSV text parses back to the guarded text.
      expect(parse(toCsv([[text, 'x']]), { relax_quotes: false })).toEqual([[guardCell(text), 'x']]);
    }
  });
});
