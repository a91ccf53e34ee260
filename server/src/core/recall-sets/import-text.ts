/**
 * Turns Markdown or CSV text into a recall set draft (SPEC §6 "Import from Markdown/CSV").
 *
 * Markdown: an optional `# Title` heading names the set; every list item (`-`, `*`, `+`
 * or `1.`) is a point; text after ` — `, ` -- ` or ` :: ` in an item is its context;
 * other paragraphs before the first item become the description.
 * CSV: columns `content[,context]`; a first row whose first cell is `content` (any case)
 * is a header. Quoted fields and embedded commas/newlines follow RFC 4180.
 */
import { parse } from 'csv-parse/sync';
import { Limits, type RecallPointInput } from '@tutorloop/shared';

export interface ImportDraft {
  name: string | null;
  description: string | null;
  points: Array<Omit<RecallPointInput, 'id'>>;
}

export type ImportResult = { ok: true; value: ImportDraft } | { ok: false; error: string };

const contextSeparator = /\s+(?:—|--|::)\s+/;

function splitContext(text: string): Omit<RecallPointInput, 'id'> {
  const match = contextSeparator.exec(text);
  if (!match) return { content: text.trim() };
  const content = text.slice(0, match.index).trim();
  const context = text.slice(match.index + match[0].length).trim();
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
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading) {
      if (name === null && points.length === 0) name = heading[1]!.trim();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line);
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
      const content = record[0] ?? '';
      const context = record[1] ?? '';
      return context ? { content, context } : { content };
    });
  const problem = checkPoints(points, (index) => `row ${index + 1}`);
  if (problem) return { ok: false, error: `CSV import: ${problem}. Use columns content,context.` };
  return { ok: true, value: { name: null, description: null, points } };
}

export function parseImport(format: 'markdown' | 'csv', text: string): ImportResult {
  return format === 'markdown' ? parseMarkdown(text) : parseCsv(text);
}
