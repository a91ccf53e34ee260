/**
 * Markdown, plain text and HTML pasted from a web page, read into headings and paragraphs
 * (SPEC §4.7). Learner text: every reader here is a scan over the input or a pattern whose
 * quantifiers cannot trade characters (SPEC §8 "parsers of learner input are linear"). The
 * server's dependencies have no HTML parser, so HTML is read by a small tokenizer that keeps
 * text and headings only: scripts, styles, templates, SVG and the head are dropped whole.
 */
import { collapseSpaces, type DocumentBlock } from './document-model';

const hyphenBreak = new Set(['-', '\u2010', '\u00ad']);

/** Lines of one paragraph joined, mending a word cut by a hyphen at a line end. */
function joinParagraph(lines: readonly string[]): string {
  let text = '';
  for (const raw of lines) {
    const line = collapseSpaces(raw);
    if (line === '') continue;
    const last = text.at(-1) ?? '';
    if (text !== '' && hyphenBreak.has(last) && /\p{L}/u.test(text.at(-2) ?? '') && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text = text === '' ? line : `${text} ${line}`;
  }
  return text;
}

/** Inline Markdown made plain: emphasis marks and code ticks dropped, links kept as their text, images dropped. */
export function plainInline(text: string): string {
  // The next `]` and `)` at or after a position, cached: a line of `[[[[…` looks ahead once, not once per `[`.
  const next: Record<string, number> = {};
  const nextOf = (character: ']' | ')', from: number): number => {
    const known = next[character];
    if (known !== undefined && (known >= from || known < 0)) return known;
    next[character] = text.indexOf(character, from);
    return next[character];
  };
  let out = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    if (character === '!' && text[index + 1] === '[') {
      const close = nextOf(']', index + 2);
      if (close > 0 && text[close + 1] === '(') {
        const end = nextOf(')', close + 2);
        if (end > 0) {
          index = end + 1;
          continue;
        }
      }
    }
    if (character === '[') {
      const close = nextOf(']', index + 1);
      if (close > 0 && text[close + 1] === '(') {
        const end = nextOf(')', close + 2);
        if (end > 0) {
          out += text.slice(index + 1, close);
          index = end + 1;
          continue;
        }
      }
    }
    // Emphasis and code marks; an underscore inside a word (snake_case) stays.
    const wordBefore = /[\p{L}\p{N}]/u.test(text[index - 1] ?? '');
    const wordAfter = /[\p{L}\p{N}]/u.test(text[index + 1] ?? '');
    if (character === '*' || character === '`' || (character === '_' && !(wordBefore && wordAfter))) {
      index += 1;
      continue;
    }
    out += character;
    index += 1;
  }
  return out;
}

/** Markdown: `#` headings (and underlined ones), paragraphs, list items one each; code blocks and tables left out. */
export function readMarkdown(text: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const joined = joinParagraph(paragraph.map(plainInline));
    if (joined !== '') blocks.push({ kind: 'paragraph', text: joined });
    paragraph = [];
  };
  let fence: string | null = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trimEnd();
    const trimmed = line.trimStart();
    if (fence !== null) {
      if (trimmed.startsWith(fence)) fence = null;
      continue;
    }
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      flush();
      fence = trimmed.slice(0, 3);
      continue;
    }
    if (trimmed === '') {
      flush();
      continue;
    }
    let level = 0;
    while (level < trimmed.length && trimmed[level] === '#') level += 1;
    if (level >= 1 && level <= 6 && (trimmed[level] === ' ' || trimmed.length === level)) {
      flush();
      let heading = trimmed.slice(level).trim();
      while (heading.endsWith('#')) heading = heading.slice(0, -1);
      heading = collapseSpaces(plainInline(heading));
      if (heading !== '') blocks.push({ kind: 'heading', text: heading, level });
      continue;
    }
    // An underline (=== or ---) turns the paragraph line above it into a heading.
    if (paragraph.length === 1 && trimmed.length >= 2 && (/^=+$/u.test(trimmed) || /^-+$/u.test(trimmed))) {
      const heading = collapseSpaces(plainInline(paragraph[0] ?? ''));
      paragraph = [];
      if (heading !== '') blocks.push({ kind: 'heading', text: heading, level: trimmed.startsWith('=') ? 1 : 2 });
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      continue;
    }
    let content = trimmed;
    while (content.startsWith('>')) content = content.slice(1).trimStart();
    const listItem = /^(?:[-*+]|\d{1,9}[.)])\s/u.exec(content);
    if (listItem) {
      flush();
      content = content.slice(listItem[0].length);
    }
    paragraph.push(content);
  }
  flush();
  return blocks;
}

/**
 * Plain text: paragraphs split by blank lines; a lone short line without closing punctuation
 * (a title, a section name) is a heading.
 */
export function readPlainText(text: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const joined = joinParagraph(paragraph);
    const lineCount = paragraph.length;
    paragraph = [];
    if (joined === '') return;
    const words = joined.split(' ').length;
    const looksLikeHeading = lineCount <= 1 && words <= 10 && !/[.!?:;,]$/u.test(joined) && /^[\p{Lu}\p{N}]/u.test(joined);
    blocks.push(looksLikeHeading ? { kind: 'heading', text: joined, level: 2 } : { kind: 'paragraph', text: joined });
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

const droppedElements = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object', 'canvas', 'select', 'textarea', 'button', 'nav', 'footer']);
const blockElements = new Set([
  'p', 'div', 'br', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'tr', 'td', 'th', 'table', 'section', 'article', 'main', 'aside', 'header',
  'blockquote', 'pre', 'figure', 'figcaption', 'hr', 'body', 'html', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
const namedEntities: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '', mdash: '—', ndash: '–', hellip: '…',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', copy: '©', deg: '°', times: '×', middot: '·',
};

/** HTML entities decoded (named ones the web commonly uses, and numeric ones). */
export function decodeEntities(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    // An entity is short: look for its `;` in the next few characters only, so `&&&&…` stays linear.
    const end = character === '&' ? text.slice(index + 1, index + 12).indexOf(';') + index + 1 : -1;
    if (end > index && end - index <= 10) {
      const name = text.slice(index + 1, end);
      let decoded: string | undefined;
      if (name.startsWith('#x') || name.startsWith('#X')) decoded = codePoint(Number.parseInt(name.slice(2), 16));
      else if (name.startsWith('#')) decoded = codePoint(Number.parseInt(name.slice(1), 10));
      else decoded = namedEntities[name.toLowerCase()];
      if (decoded !== undefined) {
        out += decoded;
        index = end + 1;
        continue;
      }
    }
    out += character;
    index += 1;
  }
  return out;
}

function codePoint(value: number): string | undefined {
  return Number.isInteger(value) && value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff) ? String.fromCodePoint(value) : undefined;
}

/** The tag's lower-case name (and whether it closes) at `<`, or null when this `<` starts no tag. */
function tagAt(html: string, start: number): { name: string; closing: boolean; end: number } | null {
  let index = start + 1;
  const closing = html[index] === '/';
  if (closing) index += 1;
  let name = '';
  while (index < html.length && /[A-Za-z0-9]/u.test(html[index] ?? '')) name += html[index++];
  if (name === '') return null;
  const end = html.indexOf('>', index);
  return { name: name.toLowerCase(), closing, end: end < 0 ? html.length : end + 1 };
}

/** HTML: the text of its elements, block elements as paragraphs and `h1`–`h6` as headings. */
export function readHtml(html: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let text = '';
  let heading = 0;
  const flush = () => {
    const content = collapseSpaces(decodeEntities(text));
    text = '';
    if (content === '') return;
    blocks.push(heading > 0 ? { kind: 'heading', text: content, level: heading } : { kind: 'paragraph', text: content });
  };
  let index = 0;
  while (index < html.length) {
    const next = html.indexOf('<', index);
    if (next < 0) {
      text += html.slice(index);
      break;
    }
    text += html.slice(index, next);
    if (html.startsWith('<!--', next)) {
      const end = html.indexOf('-->', next + 4);
      index = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html[next + 1] === '!' || html[next + 1] === '?') {
      const end = html.indexOf('>', next);
      index = end < 0 ? html.length : end + 1;
      continue;
    }
    const tag = tagAt(html, next);
    if (!tag) {
      text += '<';
      index = next + 1;
      continue;
    }
    index = tag.end;
    if (!tag.closing && droppedElements.has(tag.name) && !html.slice(next, tag.end).endsWith('/>')) {
      // Everything up to the matching close tag goes, whatever it holds (a script's `<` included).
      let close = html.indexOf('</', index);
      while (close >= 0 && html.slice(close + 2, close + 2 + tag.name.length).toLowerCase() !== tag.name) close = html.indexOf('</', close + 2);
      const end = close < 0 ? -1 : html.indexOf('>', close);
      index = end < 0 ? html.length : end + 1;
      continue;
    }
    if (!blockElements.has(tag.name)) continue;
    flush();
    const level = /^h[1-6]$/u.test(tag.name) ? Number(tag.name[1]) : 0;
    heading = tag.closing ? 0 : level;
  }
  flush();
  return blocks;
}
