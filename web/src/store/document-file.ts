import { DocumentLimits, Limits, type DocumentFormat, type ProposeDocumentBody } from '@tutorloop/shared';

/**
 * The checks a chosen file passes before anything is sent (SPEC §4.7): its type by extension and
 * then by MIME type, its size, and that it is not empty; then the request body it becomes.
 */

/** The part of a browser `File` the page reads (a test passes a plain object). */
export interface DocumentFile {
  name: string;
  size: number;
  type: string;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The document format of a file, by its extension and then its type; null for anything else. */
export function formatOfFile(file: Pick<DocumentFile, 'name' | 'type'>): DocumentFormat | null {
  const extension = /\.(\w+)$/.exec(file.name)?.[1]?.toLowerCase();
  if (extension === 'pdf') return 'pdf';
  if (extension === 'md' || extension === 'markdown') return 'markdown';
  if (extension === 'txt' || extension === 'text') return 'text';
  if (extension === 'html' || extension === 'htm') return 'html';
  if (extension !== undefined) return null;
  const byType: Record<string, DocumentFormat> = {
    'application/pdf': 'pdf',
    'text/markdown': 'markdown',
    'text/plain': 'text',
    'text/html': 'html',
  };
  return byType[file.type] ?? null;
}

/** A set's name from a file's: `water-cycle_notes.pdf` → `water cycle notes`. */
export function nameFromFile(fileName: string): string {
  const stem = fileName.replace(/\.\w+$/, '').replace(/[-_]+/g, ' ').trim();
  return stem.slice(0, Limits.setNameMaxLength);
}

/** Bytes as base64 (a PDF travels in JSON, like an .apkg). */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** The request body for a file, or why the file cannot be read. */
export async function bodyOfFile(file: DocumentFile): Promise<{ ok: true; body: ProposeDocumentBody } | { ok: false; problem: string }> {
  const format = formatOfFile(file);
  const quoted = `“${file.name}”`;
  if (format === null) {
    return { ok: false, problem: `${quoted} is not a document this page reads. Choose a PDF, a Markdown (.md), text (.txt) or HTML file.` };
  }
  if (file.size === 0) return { ok: false, problem: `${quoted} is empty: there is nothing in it to read.` };
  try {
    if (format === 'pdf') {
      if (file.size > DocumentLimits.pdfMaxBytes) {
        return {
          ok: false,
          problem: `${quoted} is ${megabytes(file.size)}; the largest PDF this page reads is ${megabytes(DocumentLimits.pdfMaxBytes)}. Save the chapter you need as its own PDF, or paste its text.`,
        };
      }
      return { ok: true, body: { format, data: base64Of(new Uint8Array(await file.arrayBuffer())) } };
    }
    // A character takes at most four bytes: a larger file cannot fit the limit, so it is not read at all.
    if (file.size > DocumentLimits.textMaxCharacters * 4) return { ok: false, problem: tooLong(quoted) };
    const text = await file.text();
    if (!text.trim()) return { ok: false, problem: `${quoted} is empty: there is nothing in it to read.` };
    if (text.length > DocumentLimits.textMaxCharacters) return { ok: false, problem: tooLong(quoted) };
    return { ok: true, body: { format, text } };
  } catch {
    return { ok: false, problem: `${quoted} could not be read from your device. Choose it again.` };
  }
}

export function tooLong(what: string): string {
  const most = DocumentLimits.textMaxCharacters.toLocaleString('en');
  return `${what} is longer than ${most} characters, the most this page reads. Use the part you need.`;
}

