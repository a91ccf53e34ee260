/**
 * CSV text as RFC 4180 writes it: fields separated by commas, records by CRLF; a field that
 * holds a comma, a double quote, a CR or an LF is enclosed in double quotes, with each double
 * quote inside doubled. Nothing else is quoted, so simple values stay readable.
 */

export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The records as CSV text, each ending with CRLF. */
export function toCsv(records: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return records.map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
