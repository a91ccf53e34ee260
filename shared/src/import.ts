/**
 * Importing a recall set with a preview first, and exporting one (SPEC §6 "Import from
 * Markdown/CSV", issue 18: Anki). Formats: Markdown, CSV, Anki's text export (its `#separator`,
 * `#html`, `#columns`… headers honoured, HTML stripped to text) and Anki's `.apkg` package.
 */
import { z } from 'zod';
import { Limits } from './limits';

export const importFormats = ['markdown', 'csv', 'anki_text', 'apkg'] as const;
export type ImportFormat = (typeof importFormats)[number];

/** Largest `.apkg` accepted, in bytes (its base64 is a third larger). Media are not imported. */
export const apkgMaxBytes = 8 * 1024 * 1024;

const name = z.string().trim().min(1).max(Limits.setNameMaxLength).optional();
const text = z.string().min(1, 'text is empty').max(Limits.importTextMaxLength);

/**
 * What to import: text for Markdown, CSV and Anki text; for `.apkg`, the file's bytes as base64.
 * `name` overrides the name found in the source (a heading, a deck).
 */
export const ImportSourceBody = z.discriminatedUnion('format', [
  z.object({ format: z.literal('markdown'), text, name }),
  z.object({ format: z.literal('csv'), text, name }),
  z.object({ format: z.literal('anki_text'), text, name }),
  z.object({
    format: z.literal('apkg'),
    data: z
      .string()
      .min(1, 'data is empty')
      .max(Math.ceil(apkgMaxBytes / 3) * 4, `the file is larger than ${apkgMaxBytes / 1024 / 1024} MB`)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'data must be the file in base64'),
    name,
  }),
]);
export type ImportSourceBody = z.infer<typeof ImportSourceBody>;

/** A row of the source that will not become a point, and why. */
export const SkippedRow = z.object({
  /** Where it is: "line 4", "row 2", "note 17". */
  where: z.string(),
  reason: z.enum(['blank', 'header', 'duplicate', 'empty_after_html', 'too_long', 'set_full', 'unsupported']),
  /** What the row held (cut short), so the learner recognises it. */
  text: z.string(),
});
export type SkippedRow = z.infer<typeof SkippedRow>;

/** Why a row is skipped, in words. */
export const skipReasonLabels: Record<SkippedRow['reason'], string> = {
  blank: 'blank',
  header: 'header line',
  duplicate: 'duplicate of an earlier point',
  empty_after_html: 'empty once HTML is stripped',
  too_long: `longer than ${Limits.pointContentMaxLength} characters`,
  set_full: `a set holds at most ${Limits.pointsPerSetMax} points`,
  unsupported: 'not a note this import reads',
};

/** `POST /api/recall-sets/import/preview`: what importing would create, and what it would skip. Nothing is stored. */
export const ImportPreview = z.object({
  name: z.string(),
  description: z.string().nullable(),
  points: z.array(z.object({ content: z.string(), context: z.string().optional() })),
  skipped: z.array(SkippedRow),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

/** `GET /api/recall-sets/{id}/export?format=`: CSV (`content,context`) or Anki's text import format. */
export const ExportFormat = z.enum(['csv', 'anki']);
export type ExportFormat = z.infer<typeof ExportFormat>;
