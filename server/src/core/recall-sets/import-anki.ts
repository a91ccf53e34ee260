/**
 * Anki notes into a recall set draft (issue 18): Anki's text export ("Notes in Plain Text")
 * and the notes read out of an `.apkg` package (by server/src/db/apkg-reader.ts).
 *
 * Text export headers honoured (Anki manual, "Importing → File headers"): `#separator:` (Tab,
 * Comma, Semicolon, Space, Pipe, Colon or a literal character), `#html:` (true: fields are
 * HTML and are stripped to text), `#columns:` (column names, split by the separator),
 * `#deck:` (names the set), and `#notetype column:`, `#deck column:`, `#tags column:`,
 * `#guid column:` (1-based; those columns are not note fields). Other `#key:value` lines at
 * the top are read and skipped; fields may be quoted as in CSV.
 *
 * Mapping: Anki shows the first field and asks for the second, so a two-field note becomes
 * a point whose content is the second field (what to recall) and whose context is the first
 * (the cue). A note with one field (or an empty second field, or a cloze) becomes a point
 * with that field as its content; cloze markup `{{c1::answer::hint}}` keeps the answer.
 * Skipped, each with its reason: blank rows, header lines, rows empty once HTML is stripped,
 * duplicates of an earlier point, points too long, and rows past the set's size limit.
 */
import { parse } from 'csv-parse/sync';
import { Limits, type SkippedRow } from '@tutorloop/shared';

export interface AnkiDraft {
  name: string | null;
  points: Array<{ content: string; context?: string }>;
  skipped: SkippedRow[];
}

export type AnkiResult = { ok: true; value: AnkiDraft } | { ok: false; error: string };

/** One note as read from a package: its fields in order and, if known, its deck. */
export interface AnkiNote {
  fields: string[];
  /** The note type is a cloze type: the first field holds `{{c1::…}}` deletions. */
  cloze?: boolean;
  deck?: string | null;
}

const separatorNames: Record<string, string> = { tab: '\t', comma: ',', semicolon: ';', space: ' ', pipe: '|', colon: ':' };

const entities: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** HTML to plain text: line breaks and blocks become spaces, tags go, entities are decoded, media references dropped. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(div|p|li|tr|h[1-6])>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/\[sound:[^\]]*\]/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (whole, entity: string) => {
      const lower = entity.toLowerCase();
      if (lower.startsWith('#x')) return safeCodePoint(Number.parseInt(lower.slice(2), 16)) ?? whole;
      if (lower.startsWith('#') && lower !== '#39') return safeCodePoint(Number.parseInt(lower.slice(1), 10)) ?? whole;
      return entities[lower] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : undefined;
}

/** Cloze deletions `{{c1::answer}}` / `{{c1::answer::hint}}` become their answer. */
export function unCloze(text: string): string {
  return text.replace(/\{\{c\d+::([\s\S]*?)(?:::[\s\S]*?)?\}\}/g, '$1');
}

const looksLikeHtml = /<\/?[a-z][^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i;

/** Collects points, skipping duplicates, over-long points and rows past the set's limit. */
class DraftBuilder {
  readonly points: AnkiDraft['points'] = [];
  readonly skipped: SkippedRow[] = [];
  private readonly seen = new Set<string>();

  skip(where: string, reason: SkippedRow['reason'], text: string): void {
    this.skipped.push({ where, reason, text: text.length > 80 ? `${text.slice(0, 79)}…` : text });
  }

  /** `fields` already stripped to text; the original row is shown when the row is skipped. */
  add(where: string, fields: string[], original: string, cloze = false): void {
    const [first = '', second = ''] = fields.map((field) => (cloze ? unCloze(field) : field).trim());
    if (!first && !second) return this.skip(where, original.trim() ? 'empty_after_html' : 'blank', original);
    const point = second && !cloze ? { content: second, ...(first ? { context: first } : {}) } : { content: first || second };
    const key = `${point.content}\u0000${point.context ?? ''}`.toLowerCase();
    if (this.seen.has(key)) return this.skip(where, 'duplicate', point.content);
    if (point.content.length > Limits.pointContentMaxLength || (point.context?.length ?? 0) > Limits.pointContextMaxLength) return this.skip(where, 'too_long', point.content);
    if (this.points.length >= Limits.pointsPerSetMax) return this.skip(where, 'set_full', point.content);
    this.seen.add(key);
    this.points.push(point);
  }

  result(name: string | null, source: string): AnkiResult {
    if (this.points.length === 0) {
      const reasons = this.skipped.length ? ` (${this.skipped.length} rows skipped)` : '';
      return { ok: false, error: `${source}: no notes to import${reasons}.` };
    }
    return { ok: true, value: { name, points: this.points, skipped: this.skipped } };
  }
}

interface TextHeaders {
  separator: string | null;
  html: boolean | null;
  columns: string[] | null;
  deck: string | null;
  /** 0-based indexes of columns that are not note fields. */
  metaColumns: Set<number>;
  deckColumn: number | null;
}

/** The deck's own name: the last part of `Parent::Child`. */
function deckName(deck: string): string {
  return deck.split('::').at(-1)!.trim();
}

/** Parses Anki's text export into a draft. */
export function parseAnkiText(text: string): AnkiResult {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const builder = new DraftBuilder();
  const headers: TextHeaders = { separator: null, html: null, columns: null, deck: null, metaColumns: new Set(), deckColumn: null };
  let first = 0;
  const rawColumns: string[] = [];
  for (; first < lines.length; first += 1) {
    const line = lines[first]!;
    if (!line.startsWith('#')) break;
    const header = /^#([a-z ]+):(.*)$/i.exec(line);
    if (!header) {
      builder.skip(`line ${first + 1}`, 'header', line);
      continue;
    }
    const key = header[1]!.trim().toLowerCase();
    const value = header[2]!;
    switch (key) {
      case 'separator':
        headers.separator = separatorNames[value.trim().toLowerCase()] ?? (value.length === 1 ? value : value.trim().slice(0, 1) || null);
        break;
      case 'html':
        headers.html = value.trim().toLowerCase() === 'true';
        break;
      case 'columns':
        rawColumns.push(value);
        break;
      case 'deck':
        headers.deck = value.trim() || null;
        break;
      case 'notetype column':
      case 'deck column':
      case 'tags column':
      case 'guid column': {
        const column = Number.parseInt(value.trim(), 10);
        if (Number.isInteger(column) && column >= 1) {
          headers.metaColumns.add(column - 1);
          if (key === 'deck column') headers.deckColumn = column - 1;
        }
        break;
      }
      default:
        // #notetype:, #tags:, #if matches: … change nothing a recall set keeps.
        break;
    }
  }
  const body = lines.slice(first);
  // Without a #separator header Anki guesses from the first line: a tab, else a semicolon, else a comma.
  const sample = body.find((line) => line.trim()) ?? '';
  const separator = headers.separator ?? (sample.includes('\t') ? '\t' : sample.includes(';') ? ';' : sample.includes(',') ? ',' : '\t');
  if (rawColumns.length) headers.columns = rawColumns[0]!.split(separator).map((column) => column.trim());

  let records: Array<{ fields: string[]; line: number; raw: string }>;
  try {
    const parsed = parse(body.join('\n'), { delimiter: separator, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, info: true, quote: '"' }) as unknown as Array<{
      record: string[];
      info: { lines: number };
    }>;
    records = parsed.map(({ record, info }) => ({ fields: record, line: first + info.lines, raw: record.join(separator === '\t' ? ' ' : separator) }));
  } catch (error) {
    return { ok: false, error: `Anki text import: ${(error as Error).message}` };
  }

  let deckFromColumn: string | null = null;
  // Blank lines at the end (a final newline, trailing space) are not worth listing.
  const isBlank = (record: { fields: string[] }) => record.fields.every((field) => field.trim() === '');
  while (records.length && isBlank(records.at(-1)!)) records.pop();
  for (const record of records) {
    const where = `line ${record.line}`;
    if (isBlank(record)) {
      builder.skip(where, 'blank', '');
      continue;
    }
    if (headers.deckColumn !== null && deckFromColumn === null) deckFromColumn = record.fields[headers.deckColumn]?.trim() || null;
    const noteFields = record.fields.filter((_field, index) => !headers.metaColumns.has(index));
    const html = headers.html ?? noteFields.some((field) => looksLikeHtml.test(field));
    const fields = noteFields.map((field) => (html ? htmlToText(field) : field.trim()));
    const cloze = /\{\{c\d+::/.test(fields[0] ?? '');
    builder.add(where, fields, record.raw, cloze);
  }
  const deck = headers.deck ?? deckFromColumn;
  return builder.result(deck ? deckName(deck) : null, 'Anki text import');
}

/** Turns the notes read out of an `.apkg` into a draft; the deck most notes are in names the set. */
export function draftFromAnkiNotes(notes: readonly AnkiNote[]): AnkiResult {
  const builder = new DraftBuilder();
  const decks = new Map<string, number>();
  for (const [index, note] of notes.entries()) {
    const fields = note.fields.map(htmlToText);
    builder.add(`note ${index + 1}`, fields, note.fields.filter((field) => field.trim()).join(' · '), note.cloze ?? /\{\{c\d+::/.test(fields[0] ?? ''));
    if (note.deck) decks.set(note.deck, (decks.get(note.deck) ?? 0) + 1);
  }
  const deck = [...decks].sort((left, right) => right[1] - left[1])[0]?.[0];
  return builder.result(deck ? deckName(deck) : null, '.apkg import');
}

/** CSV of a set: `content,context` with a header row (RFC 4180 quoting), as the CSV import reads it. */
export function exportCsv(points: ReadonlyArray<{ content: string; context: string | null }>): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return ['content,context', ...points.map((point) => `${cell(point.content)},${cell(point.context ?? '')}`)].join('\r\n') + '\r\n';
}

/**
 * Anki's text import format: headers (tab separator, plain text, Front/Back columns, the deck),
 * then one note per line, Front (the cue: the point's context, else its content) and Back (the
 * content when there is a context). Tabs and line breaks inside a field become spaces.
 */
export function exportAnkiText(setName: string, points: ReadonlyArray<{ content: string; context: string | null }>): string {
  const clean = (value: string) => value.replace(/[\t\r\n]+/g, ' ').trim();
  const quote = (value: string) => (value.includes('"') ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = ['#separator:tab', '#html:false', '#columns:Front\tBack', `#deck:${clean(setName).replace(/::/g, ':')}`];
  for (const point of points) {
    const front = point.context ? clean(point.context) : clean(point.content);
    const back = point.context ? clean(point.content) : '';
    lines.push(`${quote(front)}\t${quote(back)}`);
  }
  return `${lines.join('\n')}\n`;
}
