import { Limits, apkgMaxBytes, skipReasonLabels, type ImportFormat, type ImportPreview, type ImportSourceBody } from '@tutorloop/shared';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { http } from '../services';

type TextFormat = Exclude<ImportFormat, 'apkg'>;

const examples: Record<TextFormat, string> = {
  markdown: `# Photosynthesis
- Plants turn light, water and CO2 into glucose and oxygen — the overall reaction
- Chlorophyll absorbs mostly red and blue light :: why leaves look green`,
  csv: `content,context
"Plants turn light, water and CO2 into glucose and oxygen",the overall reaction
Chlorophyll absorbs mostly red and blue light,why leaves look green`,
  anki_text: `#separator:tab
#html:true
#columns:Front\tBack
#deck:Photosynthesis
What do plants make from light?\tglucose and <b>oxygen</b>`,
};

const formatLabels: Record<ImportFormat, string> = {
  markdown: 'Markdown',
  csv: 'CSV',
  anki_text: 'Anki text export (.txt)',
  apkg: 'Anki package (.apkg)',
};

/** How many points the preview lists before "and N more". */
const previewRows = 50;

/** The file's bytes as base64, for an .apkg sent in JSON. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/**
 * A new recall set from Markdown, CSV or Anki (its text export or an .apkg package): a
 * preview lists what will be created and what is skipped and why, then Import creates it.
 */
export function ImportPage() {
  const [format, setFormat] = useState<ImportFormat>('markdown');
  const [text, setText] = useState('');
  const [apkg, setApkg] = useState<{ name: string; data: string } | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  useDocumentTitle('Import a recall set');

  function source(): ImportSourceBody | null {
    const override = name.trim() ? { name: name.trim() } : {};
    if (format === 'apkg') return apkg ? { format, data: apkg.data, ...override } : null;
    return text.trim() ? { format, text, ...override } : null;
  }

  function changed() {
    setPreview(null);
    setError(null);
  }

  async function handleFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    changed();
    if (!file) return;
    if (format === 'apkg') {
      if (file.size > apkgMaxBytes) {
        setError(`That file is larger than ${apkgMaxBytes / 1024 / 1024} MB.`);
        return;
      }
      setApkg({ name: file.name, data: await base64Of(file) });
      return;
    }
    setText(await file.text());
  }

  async function handlePreview(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const body = source();
    if (!body) {
      setError(format === 'apkg' ? 'Choose an .apkg file to import.' : 'Paste some text or choose a file to import.');
      return;
    }
    setBusy(true);
    setError(null);
    const result = await http.previewImport(body);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setPreview(result.value);
  }

  async function handleImport() {
    const body = source();
    if (!body || busy) return;
    setBusy(true);
    setError(null);
    const result = await http.importFromSource(body);
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    navigate({ name: 'set-detail', recallSetId: result.value.id });
  }

  return (
    <form className="page import-page" onSubmit={(event) => void handlePreview(event)} noValidate aria-labelledby="import-title">
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
              onChange={(event) => {
                setFormat(event.target.value as ImportFormat);
                changed();
              }}
            >
              {(Object.keys(formatLabels) as ImportFormat[]).map((value) => (
                <option key={value} value={value}>
                  {formatLabels[value]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="import-file">{format === 'apkg' ? 'Package file' : 'File (optional)'}</label>
            <input
              id="import-file"
              key={format}
              className="input"
              type="file"
              accept={format === 'apkg' ? '.apkg' : format === 'csv' ? '.csv,text/csv' : format === 'markdown' ? '.md,.markdown,.txt' : '.txt,.tsv,.csv'}
              onChange={(event) => void handleFile(event)}
              data-testid="import-file"
            />
            {format === 'apkg' && apkg ? <p className="field-hint">{apkg.name}</p> : null}
          </div>
          {format !== 'apkg' ? (
            <div className="field">
              <label htmlFor="import-text">Text</label>
              <textarea
                id="import-text"
                className="input mono"
                rows={12}
                value={text}
                maxLength={Limits.importTextMaxLength}
                placeholder={examples[format]}
                onChange={(event) => {
                  setText(event.target.value);
                  changed();
                }}
                spellCheck={false}
              />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="import-name">Name</label>
            <input
              id="import-name"
              className="input"
              value={name}
              maxLength={Limits.setNameMaxLength}
              aria-describedby="import-name-hint"
              onChange={(event) => {
                setName(event.target.value);
                changed();
              }}
            />
            <p id="import-name-hint" className="field-hint">
              Optional. Replaces the name found in the source (a heading, an Anki deck).
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
            <button type="submit" className={preview ? 'button' : 'button primary'} disabled={busy} aria-busy={busy && !preview}>
              Preview
            </button>
            {preview ? (
              <button type="button" className="button primary" disabled={busy} aria-busy={busy} onClick={() => void handleImport()} data-testid="import-confirm">
                Import {preview.points.length} {preview.points.length === 1 ? 'point' : 'points'}
              </button>
            ) : null}
          </div>
          {preview ? <PreviewView preview={preview} /> : null}
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
          <h3>Anki</h3>
          <p>
            In Anki, <em>File → Export → Notes in Plain Text</em> (its <code>#separator</code>, <code>#html</code> and{' '}
            <code>#columns</code> headers are read; HTML becomes plain text), or <em>Anki Deck Package (.apkg)</em>. The
            first field (Front) becomes the point’s context — the cue — and the second (Back) what to recall; a cloze
            note becomes its full sentence. Media are not imported.
          </p>
        </aside>
      </div>
    </form>
  );
}

function PreviewView({ preview }: { preview: ImportPreview }) {
  const shown = preview.points.slice(0, previewRows);
  return (
    <section className="import-preview" aria-labelledby="import-preview-title" data-testid="import-preview">
      <h2 id="import-preview-title">Preview: “{preview.name}”</h2>
      <p role="status" data-testid="import-preview-summary">
        {preview.points.length} {preview.points.length === 1 ? 'point' : 'points'} will be created
        {preview.skipped.length ? `, ${preview.skipped.length} ${preview.skipped.length === 1 ? 'row' : 'rows'} skipped` : ''}.
      </p>
      <table>
        <caption className="visually-hidden">Points to create</caption>
        <thead>
          <tr>
            <th scope="col">To recall</th>
            <th scope="col">Context</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((point, index) => (
            <tr key={index} data-testid="import-preview-point">
              <td>{point.content}</td>
              <td>{point.context ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {preview.points.length > shown.length ? <p className="muted">…and {preview.points.length - shown.length} more.</p> : null}
      {preview.skipped.length ? (
        <>
          <h3>Skipped</h3>
          <table>
            <caption className="visually-hidden">Rows that will not be imported, and why</caption>
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">Why</th>
                <th scope="col">What it held</th>
              </tr>
            </thead>
            <tbody>
              {preview.skipped.map((row, index) => (
                <tr key={index} data-testid="import-preview-skipped">
                  <td>{row.where}</td>
                  <td>{skipReasonLabels[row.reason]}</td>
                  <td>{row.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
