import type { ExportFormat } from '@tutorloop/shared';
import { useState } from 'react';
import { http } from '../services';
import { saveFile } from './save-file';

/** Saves a recall set as CSV or as an Anki text file (File → Import in Anki reads its headers). */
export function ExportSetButtons({ recallSetId }: { recallSetId: string }) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function handleExport(format: ExportFormat) {
    setBusy(format);
    setError(null);
    const result = await http.exportRecallSet(recallSetId, format);
    setBusy(null);
    if (!result.ok) return setError(result.error.message);
    saveFile(result.value);
  }

  return (
    <>
      <button type="button" className="button" onClick={() => void handleExport('csv')} disabled={busy !== null} data-testid="export-csv">
        Export CSV
      </button>
      <button type="button" className="button" onClick={() => void handleExport('anki')} disabled={busy !== null} data-testid="export-anki">
        Export for Anki
      </button>
      {error ? (
        <span className="form-error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}
