import { describe, expect, it } from 'vitest';
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
    expect(csv).toBe('content,context\r\n"Paris, on the Seine","Capital of ""France"""\r\nWater boils at 100 °C,\r\n');
    expect(parseCsv(csv)).toEqual({
      ok: true,
      value: { name: null, description: null, points: [{ content: 'Paris, on the Seine', context: 'Capital of "France"' }, { content: 'Water boils at 100 °C' }] },
    });
  });

  it('writes Anki text with its headers, which the Anki text import reads back to the same points', () => {
    const text = exportAnkiText('Geography', points);
    expect(text).toBe('#separator:tab\n#html:false\n#columns:Front\tBack\n#deck:Geography\n"Capital of ""France"""\tParis, on the Seine\nWater boils at 100 °C\t\n');
    expect(parseAnkiText(text)).toEqual({
      ok: true,
      value: { name: 'Geography', points: [{ content: 'Paris, on the Seine', context: 'Capital of "France"' }, { content: 'Water boils at 100 °C' }], skipped: [] },
    });
  });
});
