/**
 * Anki notes into a recall set draft (issue 18): Anki's text export ("Notes in Plain Text")
 * and the notes read out of an `.apkg` package (by server/src/db/apkg-reader.ts).
 *
 * Text export headers honoured (Anki manual, "Importing → File headers"): `#separator:` (Tab,
 * Comma, Semicolon, Space, Pipe, Colon or a literal character), `#html:` (true: fields are
 * HTML and are stripped to text), `#columns:` (column names, split by the separator),
 * `#deck:` (names the set), `#notetype:` (a Basic note type: no cloze detection), and
 * `#notetype column:`, `#deck column:`, `#tags column:`, `#guid column:` (1-based; those
 * columns are not note fields). Other `#key:value` lines at the top are read and skipped;
 * fields may be quoted as in CSV (a quoted field may hold the separator, quotes, line breaks,
 * or start with `#`).
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
import { toCsv } from '../csv/csv';

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

/*
 * Every field is learner input, so each scan here reads a character a bounded number of times
 * (SPEC §8). The patterns these replace — /<[^>]*>/g, /\[sound:[^\]]*\]/g,
 * /<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, /\{\{c\d+::([\s\S]*?)(?:::[\s\S]*?)?\}\}/g,
 * /<\/?[a-z][^>]*>/i — retried from every "<" (or "[sound:", "<style", "{{c1::") of a field
 * with no closing mark and scanned to its end each time: one field of "<<<…" held the server
 * for seconds (issue 22). The functions remove exactly what those patterns removed.
 */

/** Removes each span from `open` to the first `close` after it, as /open[^close]*close/g does. */
function removeSpans(text: string, open: string, close: string): string {
  let out = '';
  let from = 0;
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, from)) {
    const end = text.indexOf(close, start + open.length);
    // No `close` after this `open`, so none after a later one either.
    if (end < 0) break;
    out += text.slice(from, start);
    from = end + close.length;
  }
  return out + text.slice(from);
}

/** `<script …>…</script>` and `<style …>…</style>` (any case) become a space. */
function removeScriptsAndStyles(html: string): string {
  const opening = /<(script|style)/gi;
  const closing = { script: /<\/script>/gi, style: /<\/style>/gi };
  // Where a search for the closing tag found none: none at or after it either.
  const closeMissingFrom = { script: Infinity, style: Infinity };
  let out = '';
  let from = 0;
  // The first ">" at or after the last tag asked about, reused while it is still ahead.
  let tagEnd = -1;
  for (let open = opening.exec(html); open; open = opening.exec(html)) {
    const name = open[1]!.toLowerCase() as 'script' | 'style';
    const afterName = open.index + open[0].length;
    if (tagEnd < afterName) tagEnd = html.indexOf('>', afterName);
    if (tagEnd < 0) break;
    let close: RegExpExecArray | null = null;
    if (tagEnd + 1 < closeMissingFrom[name]) {
      closing[name].lastIndex = tagEnd + 1;
      close = closing[name].exec(html);
      if (!close) closeMissingFrom[name] = tagEnd + 1;
    }
    if (!close) {
      opening.lastIndex = open.index + 1;
      continue;
    }
    out += `${html.slice(from, open.index)} `;
    from = close.index + close[0].length;
    opening.lastIndex = from;
  }
  return out + html.slice(from);
}

/** HTML to plain text: line breaks and blocks become spaces, tags go, entities are decoded, media references dropped. */
export function htmlToText(html: string): string {
  const withoutTags = removeSpans(removeScriptsAndStyles(html).replace(/<br\s*\/?>|<\/(div|p|li|tr|h[1-6])>/gi, ' '), '<', '>');
  return removeSpans(withoutTags, '[sound:', ']')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
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
  const clozeStart = /\{\{c\d+::/g;
  let out = '';
  let from = 0;
  for (let start = clozeStart.exec(text); start; start = clozeStart.exec(text)) {
    const answerFrom = start.index + start[0].length;
    // A deletion ends at the first "}}"; its answer at the first "::" before that.
    const close = text.indexOf('}}', answerFrom);
    if (close < 0) break;
    const hint = text.slice(answerFrom, close).indexOf('::');
    out += text.slice(from, start.index) + text.slice(answerFrom, hint < 0 ? close : answerFrom + hint);
    from = close + 2;
    clozeStart.lastIndex = from;
  }
  return out + text.slice(from);
}

/** A field reads as HTML with a tag (`<b>`, `</div>`: a tag start with a ">" after it) or an entity (`&amp;`). */
function looksLikeHtml(field: string): boolean {
  const tag = /<\/?[a-z]/i.exec(field);
  return (tag !== null && field.includes('>', tag.index + tag[0].length)) || /&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i.test(field);
}

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
  /** `#notetype:`; a Basic one means its fields are literal text, never cloze deletions. */
  notetype: string | null;
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
  const headers: TextHeaders = { separator: null, html: null, columns: null, deck: null, notetype: null, metaColumns: new Set(), deckColumn: null };
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
      case 'notetype':
        headers.notetype = value.trim() || null;
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

  // Anki's Basic note types ("Basic", "Basic (and reversed card)", …) keep `{{c1::…}}` as text.
  const basicNotetype = headers.notetype?.toLowerCase().startsWith('basic') ?? false;
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
    const html = headers.html ?? noteFields.some(looksLikeHtml);
    const fields = noteFields.map((field) => (html ? htmlToText(field) : field.trim()));
    const cloze = !basicNotetype && /\{\{c\d+::/.test(fields[0] ?? '');
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

/**
 * CSV of a set: `content,context` with a header row, written by the shared CSV writer (RFC 4180
 * quoting, formula cells guarded), as the CSV import reads it back — guard quotes included.
 */
/** A point's schedule as the CSV export writes it (the learner's FSRS card), or absent for a point never reviewed. */
export interface ExportedSchedule {
  due: Date;
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
}

/**
 * A set as CSV: `content,context`, then the learner's schedule of each point (issue 25) — due
 * (ISO 8601), stability (days), difficulty (1–10), reps, lapses; empty for a point never
 * reviewed. The CSV import reads only the first two columns, so an export imports back as the
 * same points (a schedule belongs to a learner, not to a set).
 */
export function exportCsv(points: ReadonlyArray<{ id?: string; content: string; context: string | null }>, schedules: ReadonlyMap<string, ExportedSchedule> = new Map()): string {
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return toCsv([
    ['content', 'context', 'due', 'stability', 'difficulty', 'reps', 'lapses'],
    ...points.map((point) => {
      const card = point.id === undefined ? undefined : schedules.get(point.id);
      return [point.content, point.context ?? '', ...(card ? [card.due.toISOString(), round(card.stability), round(card.difficulty), card.reps, card.lapses] : ['', '', '', '', ''])];
    }),
  ]);
}

/**
 * Anki's text import format: headers (tab separator, plain text, the Basic note type, Front/Back
 * columns, the deck), then one note per record, Front (the cue: the point's context, else its
 * content) and Back (the content when there is a context). A field is quoted as in CSV when it
 * holds a tab, a double quote or a line break, or starts with `#`: a line starting with `#` is a
 * header or a comment to Anki and to parseAnkiText, so `#html:true` as a point would otherwise
 * change how the whole file is read (issue 22). So parseAnkiText reads back exactly the points
 * written, up to what it normalises on every file: each field trimmed, line breaks as LF,
 * duplicates (ignoring case) skipped.
 */
export function exportAnkiText(setName: string, points: ReadonlyArray<{ content: string; context: string | null }>): string {
  const oneLine = (value: string) => value.replace(/[\t\r\n]+/g, ' ').trim();
  const field = (value: string) => (/[\t"\r\n]/.test(value) || value.startsWith('#') ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = ['#separator:tab', '#html:false', '#notetype:Basic', '#columns:Front\tBack', `#deck:${oneLine(setName).replace(/::/g, ':')}`];
  for (const point of points) {
    const front = point.context ? point.context : point.content;
    const back = point.context ? point.content : '';
    lines.push(`${field(front)}\t${field(back)}`);
  }
  return `${lines.join('\n')}\n`;
}
