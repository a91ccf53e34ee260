/**
 * Turns Markdown or CSV text into a recall set draft (SPEC §6 "Import from Markdown/CSV").
 *
 * Markdown: an optional `# Title` heading names the set; every list item (`-`, `*`, `+`
 * or `1.`) is a point; text after ` — `, ` -- ` or ` :: ` in an item is its context;
 * other paragraphs before the first item become the description.
 * CSV: columns `content[,context]`; a first row whose first cell is `content` (any case)
 * is a header. Quoted fields and embedded commas/newlines follow RFC 4180. A cell's leading
 * quote before `=`, `+`, `-`, `@`, tab or CR is the formula guard our CSV export adds, and is
 * dropped, so an exported set comes back as it was (core/csv/csv.ts); in a CSV from elsewhere
 * it is the text marker a spreadsheet user types, which means the same.
 */
import { parse } from 'csv-parse/sync';
import { Limits, type RecallPointInput } from '@tutorloop/shared';
import { unguardCell } from '../csv/csv';

export interface ImportDraft {
  name: string | null;
  description: string | null;
  points: Array<Omit<RecallPointInput, 'id'>>;
}

export type ImportResult = { ok: true; value: ImportDraft } | { ok: false; error: string };

const isSpace = (character: string | undefined) => character !== undefined && /\s/.test(character);

/**
 * The first ` — `, ` -- ` or ` :: ` (any whitespace around it), found in one pass. The regular
 * expression it replaces, /\s+(?:—|--|::)\s+/, tried every space of a long run as a start and
 * stalled the server for seconds on one line of spaces (issue 22).
 */
function contextSeparatorAt(text: string): { index: number; length: number } | null {
  for (let index = 1; index < text.length; index += 1) {
    if (!isSpace(text[index - 1])) continue;
    const length = text[index] === '—' ? 1 : text.startsWith('--', index) || text.startsWith('::', index) ? 2 : 0;
    if (length > 0 && isSpace(text[index + length])) return { index, length };
  }
  return null;
}

function splitContext(text: string): Omit<RecallPointInput, 'id'> {
  const separator = contextSeparatorAt(text);
  if (!separator) return { content: text.trim() };
  const content = text.slice(0, separator.index).trim();
  const context = text.slice(separator.index + separator.length).trim();
  return context ? { content, context } : { content };
}

function checkPoints(points: Array<Omit<RecallPointInput, 'id'>>, where: (index: number) => string): string | null {
  if (points.length === 0) return 'no points found';
  if (points.length > Limits.pointsPerSetMax) return `too many points (${points.length}; at most ${Limits.pointsPerSetMax})`;
  for (const [index, point] of points.entries()) {
    if (!point.content) return `${where(index)}: point content is empty`;
    if (point.content.length > Limits.pointContentMaxLength) {
      return `${where(index)}: point is longer than ${Limits.pointContentMaxLength} characters`;
    }
    if (point.context && point.context.length > Limits.pointContextMaxLength) {
      return `${where(index)}: context is longer than ${Limits.pointContextMaxLength} characters`;
    }
  }
  return null;
}

export function parseMarkdown(text: string): ImportResult {
  let name: string | null = null;
  const description: string[] = [];
  const points: Array<Omit<RecallPointInput, 'id'>> = [];
  const lines: number[] = [];
  const rows = text.replace(/\r\n?/g, '\n').split('\n');
  for (const [index, raw] of rows.entries()) {
    const line = raw.trim();
    if (!line) continue;
    // `\S` after the spaces: `\s+(.+)` traded spaces between the two and backtracked quadratically.
    const heading = /^#{1,6}\s+(\S.*)$/.exec(line);
    if (heading) {
      if (name === null && points.length === 0) name = heading[1]!.trim();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(\S.*)$/.exec(line);
    if (item) {
      points.push(splitContext(item[1]!));
      lines.push(index + 1);
      continue;
    }
    if (points.length === 0) description.push(line);
    else {
      // A continuation line belongs to the previous item.
      const last = points[points.length - 1]!;
      last.content = `${last.content} ${line}`;
    }
  }
  const problem = checkPoints(points, (index) => `line ${lines[index]}`);
  if (problem) return { ok: false, error: `Markdown import: ${problem}. Write one point per "- " list item.` };
  return {
    ok: true,
    value: { name: name?.slice(0, Limits.setNameMaxLength) ?? null, description: description.join(' ').slice(0, Limits.setDescriptionMaxLength) || null, points },
  };
}

export function parseCsv(text: string): ImportResult {
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
  } catch (error) {
    return { ok: false, error: `CSV import: ${(error as Error).message}` };
  }
  if (records.length > 0 && records[0]![0]?.toLowerCase() === 'content') records = records.slice(1);
  const points = records
    .filter((record) => record.some((cell) => cell !== ''))
    .map((record) => {
      const content = unguardCell(record[0] ?? '');
      const context = unguardCell(record[1] ?? '');
      return context ? { content, context } : { content };
    });
  const problem = checkPoints(points, (index) => `row ${index + 1}`);
  if (problem) return { ok: false, error: `CSV import: ${problem}. Use columns content,context.` };
  return { ok: true, value: { name: null, description: null, points } };
}

export function parseImport(format: 'markdown' | 'csv', text: string): ImportResult {
  return format === 'markdown' ? parseMarkdown(text) : parseCsv(text);
}
