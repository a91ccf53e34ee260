import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

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
