import { Limits, type ProposalSource } from '@tutorloop/shared';
import type { DocumentImportStore, ProposalDraft } from '../store/document-import-store';
import type { FieldErrors } from '../store/form-errors';

/** Focuses an element once React has put it on the page. */
export function focusSoon(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

export interface ProposalRowProps {
  store: DocumentImportStore;
  point: ProposalDraft;
  number: number;
  last: boolean;
  errors: FieldErrors;
}

/** One proposed point: its text and context to edit, its source quoted beside it, Merge and Drop. */
export function ProposalRow({ store, point, number, last, errors }: ProposalRowProps) {
  const contentId = `${point.key}-content`;
  const contextId = `${point.key}-context`;
  return (
    <li className="card proposal" data-testid="proposal">
      <fieldset>
        <legend className="point-legend">Point {number}</legend>
        <div className="proposal-body">
          <div className="proposal-fields">
            <div className="field">
              <label htmlFor={contentId}>To recall</label>
              <textarea
                id={contentId}
                className="input"
                rows={3}
                value={point.content}
                maxLength={Limits.pointContentMaxLength}
                onChange={(event) => store.getState().updatePoint(point.key, { content: event.target.value })}
                {...errorProps(errors, contentId)}
              />
              <FieldError errors={errors} fieldId={contentId} />
            </div>
            <div className="field">
              <label htmlFor={contextId}>
                Context <span className="muted">(optional)</span>
              </label>
              <input
                id={contextId}
                className="input"
                value={point.context}
                maxLength={Limits.pointContextMaxLength}
                onChange={(event) => store.getState().updatePoint(point.key, { context: event.target.value })}
                {...errorProps(errors, contextId)}
              />
              <FieldError errors={errors} fieldId={contextId} />
            </div>
          </div>
          <Sources sources={point.sources} />
        </div>
        <div className="proposal-actions">
          <button
            type="button"
            className="button"
            disabled={last}
            onClick={() => {
              const key = store.getState().mergeWithNext(point.key);
              if (key) focusSoon(`${key}-content`);
            }}
          >
            Merge with next
          </button>
          <button
            type="button"
            className="button subtle danger-text"
            onClick={() => {
              store.getState().dropPoint(point.key);
              focusSoon('document-undo');
            }}
          >
            Drop
          </button>
        </div>
      </fieldset>
    </li>
  );
}

function whereOf(source: ProposalSource): string {
  const under = source.heading ? `under “${source.heading}”` : null;
  if (source.page !== undefined) return under ? `Page ${source.page}, ${under}` : `Page ${source.page}`;
  return under ? `Under “${source.heading}”` : 'From the text';
}

/** The passages a point was made from, quoted as extracted, so the learner can check it. */
function Sources({ sources }: { sources: readonly ProposalSource[] }) {
  if (sources.length === 0) return <p className="proposal-source muted small">Added by you: no source.</p>;
  return (
    <div className="proposal-sources">
      {sources.map((source, index) => (
        <figure key={index} className="proposal-source" data-testid="proposal-source">
          <figcaption>{whereOf(source)}</figcaption>
          <blockquote>{source.quote}</blockquote>
        </figure>
      ))}
    </div>
  );
}

/** `aria-invalid` and the error's id for a field with a problem. */
export function errorProps(errors: FieldErrors, fieldId: string) {
  return errors[fieldId] === undefined ? {} : { 'aria-invalid': true, 'aria-describedby': `${fieldId}-error` };
}

/** The field's problem in plain words, right under it. */
export function FieldError({ errors, fieldId }: { errors: FieldErrors; fieldId: string }) {
  const message = errors[fieldId];
  if (message === undefined) return null;
  return (
    <p id={`${fieldId}-error`} className="field-error" data-testid="field-error">
      {message}
    </p>
  );
}
