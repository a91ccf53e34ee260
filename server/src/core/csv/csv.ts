/**
 * Every CSV the product writes (survey results, recall set exports) goes through here, so
 * every one of them is inert in a spreadsheet (SPEC §8 "Exports are inert").
 *
 * RFC 4180: fields separated by commas, records by CRLF; a field that holds a comma, a double
 * quote, a CR or an LF is enclosed in double quotes, with each double quote inside doubled.
 * Nothing else is quoted but a guarded cell (below), so simple values stay readable.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
 * `+`, `-` or `@` as a formula (tab and CR too, which some spreadsheets skip before looking),
 * so a learner's answer `=HYPERLINK(…)` would run in the author's spreadsheet. Such a text
 * cell gets a single quote in front and is quoted: `"'=HYPERLINK(…)"`, which a spreadsheet
 * shows as text. A text that already starts with quotes before one of those characters
 * (`'=x`) gets one more (`''=x`), so `unguardCell` can always undo exactly one and our own
 * CSV import gives back every text as it was. Numbers are written as they are: `-3` is a
 * number to a spreadsheet, not a formula, and a number cannot carry one.
 */

/** A text a spreadsheet would read as a formula, or one with quotes before such a start. */
const formulaStart = /^'*[=+\-@\t\r]/;

/** The text with a guard quote in front when a spreadsheet would run it as a formula (or it looks guarded already). */
export function guardCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/**
 * Undoes `guardCell` on a cell read back from CSV: one leading quote is dropped where it
 * stands before quotes and a formula character, which is where `guardCell` puts one (and
 * where a spreadsheet's own text marker stands). Any other text is returned as it is.
 */
export function unguardCell(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/** One field: guarded against formulas, then quoted when RFC 4180 or the guard needs it. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  // A finite number prints as a numeric literal; `-Infinity` or `NaN` would be text.
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const raw = String(value);
  const text = guardCell(raw);
  return text !== raw || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The records as CSV text, each ending with CRLF. */
export function toCsv(records: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return records.map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
