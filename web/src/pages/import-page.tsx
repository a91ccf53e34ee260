import { Limits, type ImportRecallSetBody } from '@tutorloop/shared';
import { useState, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';

type Format = ImportRecallSetBody['format'];

const examples: Record<Format, string> = {
  markdown: `# Photosynthesis
- Plants turn light, water and CO2 into glucose and oxygen — the overall reaction
- Chlorophyll absorbs mostly red and blue light :: why leaves look green`,
  csv: `content,context
"Plants turn light, water and CO2 into glucose and oxygen",the overall reaction
Chlorophyll absorbs mostly red and blue light,why leaves look green`,
};

/** A new recall set from Markdown or CSV text. */
export function ImportPage() {
  const [format, setFormat] = useState<Format>('markdown');
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Import a recall set');

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!text.trim()) {
      setError('Paste some text to import.');
      return;
    }
    setBusy(true);
    setError(null);
    const result = await http.importRecallSet({ format, text, ...(name.trim() && { name: name.trim() }) });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    navigate({ name: 'sets' });
  }

  return (
    <form className="page import-page" onSubmit={handleSubmit} noValidate aria-labelledby="import-title">
      <div className="page-heading">
        <h1 id="import-title" tabIndex={-1}>
          Import a recall set
        </h1>
      </div>

      <div className="import-layout">
        <div className="card">
          <div className="field">
            <label htmlFor="import-format">Format</label>
            <select
              id="import-format"
              className="input"
              value={format}
              onChange={(event) => setFormat(event.target.value as Format)}
            >
              <option value="markdown">Markdown</option>
              <option value="csv">CSV</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="import-text">Text</label>
            <textarea
              id="import-text"
              className="input mono"
              rows={12}
              value={text}
              maxLength={Limits.importTextMaxLength}
              placeholder={examples[format]}
              onChange={(event) => setText(event.target.value)}
              spellCheck={false}
            />
          </div>
          <div className="field">
            <label htmlFor="import-name">Name</label>
            <input
              id="import-name"
              className="input"
              value={name}
              maxLength={Limits.setNameMaxLength}
              aria-describedby="import-name-hint"
              onChange={(event) => setName(event.target.value)}
            />
            <p id="import-name-hint" className="field-hint">
              Optional. Replaces the name found in the text.
            </p>
          </div>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="actions">
            <button type="button" className="button" onClick={() => navigate({ name: 'sets' })}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
              Import
            </button>
          </div>
        </div>

        <aside className="card format-help" aria-labelledby="format-help-title">
          <h2 id="format-help-title">Syntax</h2>
          <h3>Markdown</h3>
          <p>
            An optional <code># Title</code> heading names the set, then one point per <code>- </code> bullet. Text after{' '}
            <code> — </code> or <code> :: </code> becomes the point’s context.
          </p>
          <pre className="code-block">{examples.markdown}</pre>
          <h3>CSV</h3>
          <p>
            Columns <code>content,context</code>, one point per row; the header row is optional. Quote a cell that
            contains a comma.
          </p>
          <pre className="code-block">{examples.csv}</pre>
        </aside>
      </div>
    </form>
  );
}
