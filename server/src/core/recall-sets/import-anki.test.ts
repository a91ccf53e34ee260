import { describe, expect, it } from 'vitest';
import { Limits } from '@tutorloop/shared';
import { createRandom, pickOne, randomInt, type Random } from '../assessment/random';
import { draftFromAnkiNotes, exportAnkiText, exportCsv, htmlToText, parseAnkiText } from './import-anki';
import { parseCsv } from './import-text';

describe('parseAnkiText (Anki "Notes in Plain Text")', () => {
  it('honours #separator, #html, #columns, #deck and the meta columns; HTML is stripped to text', () => {
    const text = [
      '#separator:Semicolon',
      '#html:true',
      '#columns:Front;Back;Tags',
      '#deck:Biology::Cells',
      '#tags column:3',
      // A field holding the separator is quoted, as Anki writes it.
      'What makes ATP?;"<b>Mitochondria</b>&nbsp;(the powerhouse)";cells',
      '"Where is DNA kept; mostly?";The <i>nucleus</i><br>in eukaryotes;cells',
    ].join('\n');
    expect(parseAnkiText(text)).toEqual({
      ok: true,
      value: {
        name: 'Cells',
        points: [
          { content: 'Mitochondria (the powerhouse)', context: 'What makes ATP?' },
          { content: 'The nucleus in eukaryotes', context: 'Where is DNA kept; mostly?' },
        ],
        skipped: [],
      },
    });
  });

  it('lists what it skips and why: blank rows, unknown header lines, duplicates, rows empty once HTML is stripped', () => {
    const text = ['#separator:tab', '# an exported comment', 'Capital of France?\tParis', '', 'capital of france?\tparis', '<div><br></div>\t<img src="x.png">', 'Cloze: {{c1::Canberra::city}} is the capital of Australia'].join('\n');
    const result = parseAnkiText(text);
    expect(result).toEqual({
      ok: true,
      value: {
        name: null,
        points: [{ content: 'Paris', context: 'Capital of France?' }, { content: 'Cloze: Canberra is the capital of Australia' }],
        skipped: [
          { where: 'line 2', reason: 'header', text: '# an exported comment' },
          { where: 'line 4', reason: 'blank', text: '' },
          { where: 'line 5', reason: 'duplicate', text: 'paris' },
          { where: 'line 6', reason: 'empty_after_html', text: '<div><br></div> <img src="x.png">' },
        ],
      },
    });
  });

  it('guesses the separator without a header (tab first) and keeps plain text as written when #html:false', () => {
    expect(parseAnkiText('#html:false\nFront\t<b>not a tag here</b>\n')).toEqual({
      ok: true,
      value: { name: null, points: [{ content: '<b>not a tag here</b>', context: 'Front' }], skipped: [] },
    });
    expect(parseAnkiText('one,two\nthree,four')).toMatchObject({ ok: true, value: { points: [{ content: 'two', context: 'one' }, { content: 'four', context: 'three' }] } });
  });

  it('names the set from the deck column when there is no #deck header', () => {
    const text = '#separator:tab\n#deck column:1\nDefault::Spanish\thola\thello\n';
    expect(parseAnkiText(text)).toEqual({ ok: true, value: { name: 'Spanish', points: [{ content: 'hello', context: 'hola' }], skipped: [] } });
  });

  it('fails clearly when nothing can be imported', () => {
    expect(parseAnkiText('#separator:tab\n\n<br>\t\n')).toEqual({ ok: false, error: 'Anki text import: no notes to import (2 rows skipped).' });
  });
});

describe('htmlToText', () => {
  it('drops tags, media and scripts, decodes entities, and keeps well-formed text', () => {
    expect(htmlToText('<div>A&amp;B &lt;3 &#65;&#x42; [sound:x.mp3]<script>alert(1)</script></div><p>end</p>&#xD800;')).toBe('A&B <3 AB end &#xD800;');
  });
});

describe('draftFromAnkiNotes (.apkg)', () => {
  it('maps two-field notes to context + content, cloze notes to their text, and names the set from the most used deck', () => {
    expect(
      draftFromAnkiNotes([
        { fields: ['Capital of <b>Peru</b>?', 'Lima'], deck: 'Geo::South America' },
        { fields: ['{{c1::Quito}} is the capital of Ecuador', ''], cloze: true, deck: 'Geo::South America' },
        { fields: ['', ''], deck: 'Other' },
      ]),
    ).toEqual({
      ok: true,
      value: {
        name: 'South America',
        points: [{ content: 'Lima', context: 'Capital of Peru?' }, { content: 'Quito is the capital of Ecuador' }],
        skipped: [{ where: 'note 3', reason: 'blank', text: '' }],
      },
    });
  });
});

describe('exports', () => {
  const points = [
    { content: 'Paris, on the Seine', context: 'Capital of "France"' },
    { content: 'Water boils at 100 °C', context: null },
  ];

  it('writes CSV the CSV import reads back', () => {
    const csv = exportCsv(points);
    expect(csv).toBe('content,context,due,stability,difficulty,reps,lapses\r\n"Paris, on the Seine","Capital of ""France""",,,,,\r\nWater boils at 100 °C,,,,,,\r\n');
    expect(parseCsv(csv)).toEqual({
      ok: true,
      value: { name: null, description: null, points: [{ content: 'Paris, on the Seine', context: 'Capital of "France"' }, { content: 'Water boils at 100 °C' }] },
    });
  });

  it('writes Anki text with its headers, which the Anki text import reads back to the same points', () => {
    const text = exportAnkiText('Geography', points);
    expect(text).toBe('#separator:tab\n#html:false\n#notetype:Basic\n#columns:Front\tBack\n#deck:Geography\n"Capital of ""France"""\tParis, on the Seine\nWater boils at 100 °C\t\n');
    expect(parseAnkiText(text)).toEqual({
      ok: true,
      value: { name: 'Geography', points: [{ content: 'Paris, on the Seine', context: 'Capital of "France"' }, { content: 'Water boils at 100 °C' }], skipped: [] },
    });
  });
});

/**
 * Exports are inert and round-trip (SPEC §8, issue 22). What the imports legitimately
 * normalise, stated once: every field is trimmed (the API trims points when it stores them,
 * so a stored point has no leading or trailing spaces to lose); the Anki text import reads
 * CRLF and CR line breaks as LF, as it does in every file; and it skips a point that repeats
 * an earlier one ignoring case (listed as skipped). So the generator draws trimmed points,
 * distinct ignoring case, and expects Anki line breaks back as LF. The CSV import changes
 * nothing else.
 */
describe('exports round-trip through our own imports (issue 22)', () => {
  const nasty = ['#', '#html:true', '#separator:Comma', '#deck:x', '\t', ';', ',', '"', '""', '\n', '\r\n', '\r', '<', '<b>', '</div>', '<br>', '&amp;', '&nbsp;', ' ', '   ', 'é', '日本語', '🙂', '\u00a0', '{{c1::', '}}', '::', "'", '=', '+', '-', '@', '=SUM(A1)', 'word', 'a', 'Z'];
  const text = (random: Random) => Array.from({ length: randomInt(random, 1, 10) }, () => pickOne(random, nasty)).join('');
  const lineBreaksAsLf = (value: string) => value.replace(/\r\n?/g, '\n');
  const asImported = (point: { content: string; context: string | null }, normalise: (value: string) => string) =>
    point.context ? { content: normalise(point.content), context: normalise(point.context) } : { content: normalise(point.content) };

  /** `count` trimmed points, distinct ignoring case, about half with a context; some start with `#`. */
  function randomPoints(random: Random, count: number, seen: Set<string>) {
    const points: Array<{ content: string; context: string | null }> = [];
    while (points.length < count) {
      const content = `${random.next() < 0.2 ? '#' : ''}${text(random)}`.trim();
      const context = random.next() < 0.5 ? `${random.next() < 0.2 ? '#' : ''}${text(random)}`.trim() || null : null;
      const key = `${lineBreaksAsLf(content)}\u0000${lineBreaksAsLf(context ?? '')}`.toLowerCase();
      if (!content || seen.has(key)) continue;
      seen.add(key);
      points.push({ content, context });
    }
    return points;
  }

  it('Anki text: 600 seeded random points from a nasty alphabet come back the same, in order', () => {
    const random = createRandom('anki-text-round-trip');
    const seen = new Set<string>();
    let total = 0;
    // Several files of random sizes, each a set's worth.
    while (total < 600) {
      const points = randomPoints(random, randomInt(random, 1, 60), seen);
      total += points.length;
      expect(parseAnkiText(exportAnkiText('Nasty # set', points))).toEqual({
        ok: true,
        value: { name: 'Nasty # set', points: points.map((point) => asImported(point, lineBreaksAsLf)), skipped: [] },
      });
    }
    expect(total).toBeGreaterThanOrEqual(600);
  });

  it('CSV: 600 seeded random points, many starting with a formula character, come back exactly (guard quotes dropped)', () => {
    const random = createRandom('csv-round-trip');
    const points = randomPoints(random, 600, new Set());
    for (let start = 0; start < points.length; start += Limits.pointsPerSetMax) {
      const chunk = points.slice(start, start + Limits.pointsPerSetMax);
      expect(parseCsv(exportCsv(chunk))).toEqual({ ok: true, value: { name: null, description: null, points: chunk.map((point) => asImported(point, (value) => value)) } });
    }
  });

  it('a point starting with # is quoted in the Anki text, not read as a header (regression, issue 22)', () => {
    const points = [
      { content: '#html:true', context: null },
      { content: '#separator:Comma', context: null },
      { content: 'Paris', context: '# capital of France' },
      { content: 'two\nlines with a\ttab', context: null },
    ];
    const text = exportAnkiText('Headers', points);
    expect(text.split('\n').slice(5)).toEqual(['"#html:true"\t', '"#separator:Comma"\t', '"# capital of France"\tParis', '"two', 'lines with a\ttab"\t', '']);
    expect(parseAnkiText(text)).toEqual({ ok: true, value: { name: 'Headers', points: points.map((point) => asImported(point, (value) => value)), skipped: [] } });
  });

  it('keeps cloze-like text literal in a Basic note type, as Anki does', () => {
    const text = '#separator:tab\n#notetype:Basic\n{{c1::Lima}} is a capital\tof Peru\n';
    expect(parseAnkiText(text)).toEqual({ ok: true, value: { name: null, points: [{ content: 'of Peru', context: '{{c1::Lima}} is a capital' }], skipped: [] } });
  });

  it('CSV export guards formula cells, and the CSV import drops exactly the guard', () => {
    const points = [
      { content: '=HYPERLINK("http://evil.example","click")', context: '+1' },
      { content: '-5 °C is cold', context: '@home' },
      { content: "'=already quoted by the author", context: null },
    ];
    const csv = exportCsv(points);
    expect(csv).toBe(`content,context,due,stability,difficulty,reps,lapses\r\n"'=HYPERLINK(""http://evil.example"",""click"")","'+1",,,,,\r\n"'-5 °C is cold","'@home",,,,,\r\n"''=already quoted by the author",,,,,,\r\n`);
    expect(parseCsv(csv)).toEqual({ ok: true, value: { name: null, description: null, points: points.map((point) => asImported(point, (value) => value)) } });
  });
});
