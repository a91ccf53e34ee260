import { describe, expect, it } from 'vitest';
import { decodeEntities, readHtml, readMarkdown, readPlainText } from './markup-text';

describe('pasted text read into headings and paragraphs (SPEC §4.7)', () => {
  it('reads Markdown headings, paragraphs and list items, without emphasis, links, images or code', () => {
    expect(
      readMarkdown('Minerals\n========\n\nA **mineral** is a [natural](https://example.org) solid. ![map](m.png)\n\n## Uses\n\n- Quartz makes glass.\n- Talc makes pow-\n  der.\n\n```\nnot = "text"\n```\n| a | b |\n'),
    ).toEqual([
      { kind: 'heading', text: 'Minerals', level: 1 },
      { kind: 'paragraph', text: 'A mineral is a natural solid.' },
      { kind: 'heading', text: 'Uses', level: 2 },
      { kind: 'paragraph', text: 'Quartz makes glass.' },
      { kind: 'paragraph', text: 'Talc makes powder.' },
    ]);
  });

  it('reads HTML text and headings, dropping scripts, styles, comments and the head whole', () => {
    expect(
      readHtml('<head><title>T</title></head><h1 class="x">Ice &amp; snow</h1><!-- <p>hidden</p> --><p>Ice <b>floats</b>.<script>if (a < b) document.write("<p>no</p>")</script></p><STYLE>p{}</STYLE><p>Snow&#x2019;s white.</p>'),
    ).toEqual([
      { kind: 'heading', text: 'Ice & snow', level: 1 },
      { kind: 'paragraph', text: 'Ice floats.' },
      { kind: 'paragraph', text: 'Snow’s white.' },
    ]);
  });

  it('reads plain text paragraphs, a lone short line as a heading', () => {
    expect(readPlainText('Rocks\n\nBasalt is dark.\nIt is volcanic.\n\nGranite is light.')).toEqual([
      { kind: 'heading', text: 'Rocks', level: 2 },
      { kind: 'paragraph', text: 'Basalt is dark. It is volcanic.' },
      { kind: 'paragraph', text: 'Granite is light.' },
    ]);
  });

  it('stays linear on hostile input: 200,000 unclosed brackets, ampersands and tags', () => {
    const many = (piece: string) => piece.repeat(200_000);
    expect(readMarkdown(many('[')).map((block) => block.text.length)).toEqual([200_000]);
    expect(decodeEntities(many('&'))).toHaveLength(200_000);
    expect(readHtml(`<p>${many('&')}`)).toEqual([{ kind: 'paragraph', text: many('&') }]);
  });
});
