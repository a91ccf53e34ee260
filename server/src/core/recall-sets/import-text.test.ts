import { describe, expect, it } from 'vitest';
import { parseCsv, parseMarkdown } from './import-text';

describe('parseMarkdown', () => {
  it('reads the heading as the name, bullets as points and " — " as context', () => {
    const result = parseMarkdown(`# Cell biology\nThe basics.\n\n- Mitochondria produce ATP — energy\n* Ribosomes build proteins\n1. DNA is stored in the nucleus :: eukaryotes\n`);
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Cell biology',
        description: 'The basics.',
        points: [
          { content: 'Mitochondria produce ATP', context: 'energy' },
          { content: 'Ribosomes build proteins' },
          { content: 'DNA is stored in the nucleus', context: 'eukaryotes' },
        ],
      },
    });
  });

  it('fails with a clear message when there is no list item', () => {
    expect(parseMarkdown('# Title\njust prose')).toEqual({
      ok: false,
      error: 'Markdown import: no points found. Write one point per "- " list item.',
    });
  });
});

describe('parseCsv', () => {
  it('skips a header row and keeps quoted commas', () => {
    const result = parseCsv('content,context\n"Paris is the capital of France, since 508",geography\nWater boils at 100 °C,\n');
    expect(result).toEqual({
      ok: true,
      value: {
        name: null,
        description: null,
        points: [
          { content: 'Paris is the capital of France, since 508', context: 'geography' },
          { content: 'Water boils at 100 °C' },
        ],
      },
    });
  });

  it('reports a malformed CSV instead of importing half of it', () => {
    const result = parseCsv('"unterminated,quote\nnext');
    expect(result.ok).toBe(false);
  });
});
