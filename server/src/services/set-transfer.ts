/**
 * Recall sets in and out (SPEC §6, issue 18): a preview of what an import would create and
 * skip (nothing stored), the import itself, and a set's export as CSV or Anki text.
 * Markdown and CSV go through core/recall-sets/import-text.ts, Anki through import-anki.ts;
 * an `.apkg` is opened by the reader passed in (server/src/db/apkg-reader.ts).
 */
import type { ExportFormat, ImportPreview, ImportSourceBody, RecallSetDetail } from '@tutorloop/shared';
import { draftFromAnkiNotes, exportAnkiText, exportCsv, parseAnkiText, type AnkiNote, type AnkiResult } from '../core/recall-sets/import-anki';
import { parseImport } from '../core/recall-sets/import-text';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';
import type { RecallSetService } from './recall-sets';

/** Reads the notes of an `.apkg` file; a file that is not one is an expected failure. */
export type ApkgReader = (bytes: Uint8Array) => Promise<{ ok: true; value: AnkiNote[] } | { ok: false; error: string }>;

export interface SetExport {
  filename: string;
  contentType: string;
  body: string;
}

export class SetTransferService {
  constructor(
    private readonly storage: Storage,
    private readonly recallSets: RecallSetService,
    private readonly readApkg: ApkgReader,
  ) {}

  /** What importing `body` would create and skip; nothing is stored. */
  async preview(body: ImportSourceBody, now: Date): Promise<ImportPreview> {
    const draft = await this.draft(body);
    return { name: body.name ?? draft.name ?? `Imported set (${now.toISOString().slice(0, 10)})`, description: draft.description, points: draft.points, skipped: draft.skipped };
  }

  /** Creates the set the preview showed. */
  async import(learnerId: string, body: ImportSourceBody, now: Date): Promise<RecallSetDetail> {
    const preview = await this.preview(body, now);
    return this.recallSets.create(learnerId, { name: preview.name, description: preview.description ?? undefined, points: preview.points }, now);
  }

  /** The learner's own set as a file. */
  async export(learnerId: string, setId: string, format: ExportFormat): Promise<SetExport> {
    const { set, points, cards } = await this.storage.read(async (reader) => {
      const found = await reader.recallSets.get(setId);
      if (!found || found.learnerId !== learnerId) throw new AppError('not_found', 'No recall set with that id.');
      const listed = await reader.recallSets.listPoints(setId);
      return { set: found, points: listed, cards: format === 'csv' ? await reader.cards.listFor(learnerId, listed.map((point) => point.id)) : new Map() };
    });
    const base = set.name.replace(/[^\p{L}\p{N} _.-]+/gu, '').trim().replace(/\s+/g, '-') || 'recall-set';
    return format === 'csv'
      ? { filename: `${base}.csv`, contentType: 'text/csv; charset=utf-8', body: exportCsv(points, cards) }
      : { filename: `${base}.txt`, contentType: 'text/plain; charset=utf-8', body: exportAnkiText(set.name, points) };
  }

  private async draft(body: ImportSourceBody): Promise<{ name: string | null; description: string | null; points: ImportPreview['points']; skipped: ImportPreview['skipped'] }> {
    switch (body.format) {
      case 'markdown':
      case 'csv': {
        const parsed = parseImport(body.format, body.text);
        if (!parsed.ok) throw new AppError('invalid_payload', parsed.error);
        const points = parsed.value.points.map((point) => (point.context ? { content: point.content, context: point.context } : { content: point.content }));
        return { name: parsed.value.name, description: parsed.value.description, points, skipped: [] };
      }
      case 'anki_text':
        return fromAnki(parseAnkiText(body.text));
      case 'apkg': {
        const notes = await this.readApkg(Buffer.from(body.data, 'base64'));
        if (!notes.ok) throw new AppError('invalid_payload', `data: ${notes.error}`);
        return fromAnki(draftFromAnkiNotes(notes.value));
      }
      default: {
        const unreachable: never = body;
        throw new Error(`unknown import format ${JSON.stringify(unreachable)}`);
      }
    }
  }
}

function fromAnki(result: AnkiResult) {
  if (!result.ok) throw new AppError('invalid_payload', result.error);
  return { ...result.value, description: null };
}
