import { useStore } from 'zustand';
import { navigate } from '../hooks/use-route';
import type { DocumentImportStore } from '../store/document-import-store';

/** The two quiet steps of the document import page (pages/document-import-page.tsx): reading, and saved into an existing set. */

export function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** While the server reads: how far (pages of a PDF, once it says), and Cancel. */
export function Reading({ store, what }: { store: DocumentImportStore; what: string }) {
  const progress = useStore(store, (state) => state.progress);
  // Pasted text and the first moments of a PDF have no page count yet: the bar then says "working", not how far.
  const where = progress === null ? null : progress.pagesDone < progress.pages ? `Reading page ${progress.pagesDone + 1} of ${progress.pages}` : `All ${progress.pages} pages read; choosing the points`;
  return (
    <section className="card document-reading" aria-labelledby="document-reading-title" aria-busy="true">
      <h2 id="document-reading-title">Reading {what}</h2>
      {progress === null ? (
        <progress className="document-progress" aria-labelledby="document-reading-title" data-testid="document-progress" />
      ) : (
        <>
          <progress
            className="document-progress"
            max={progress.pages}
            value={progress.pagesDone}
            aria-labelledby="document-reading-title"
            aria-describedby="document-pages"
            data-testid="document-progress"
          />
          <p id="document-pages" className="document-pages" data-testid="document-pages">
            {where}
          </p>
        </>
      )}
      <p className="muted">
        Finding the central statements, definitions and relations. A long PDF can take a minute or two; you can cancel at
        any time and nothing is kept.
      </p>
      <div className="actions">
        <button id="document-cancel" type="button" className="button" onClick={() => store.getState().cancel()}>
          Cancel
        </button>
      </div>
    </section>
  );
}

export /** After saving into an existing set: what was added, what was skipped as already there. */
function Saved({ store }: { store: DocumentImportStore }) {
  const appended = useStore(store, (state) => state.appended);
  if (!appended) return null;
  const { set, added, skipped } = appended;
  return (
    <section className="card document-saved" aria-labelledby="document-saved-title">
      <h2 id="document-saved-title" tabIndex={-1}>
        {added === 0 ? `Nothing new for “${set.name}”` : `${plural(added, 'point', 'points')} added to “${set.name}”`}
      </h2>
      <p data-testid="document-saved-summary">
        The set now holds {plural(set.points.length, 'point', 'points')}.
        {skipped.length > 0 ? ` ${skipped.length === 1 ? 'One point was' : `${skipped.length} points were`} already in it and skipped:` : ''}
      </p>
      {skipped.length > 0 ? (
        <ul className="document-skipped" data-testid="document-skipped">
          {skipped.map((content) => (
            <li key={content}>{content}</li>
          ))}
        </ul>
      ) : null}
      <div className="actions">
        <button type="button" className="button primary" onClick={() => navigate({ name: 'set-detail', recallSetId: set.id })}>
          Open the set
        </button>
        <button type="button" className="button" onClick={() => store.getState().startOver()}>
          Read another document
        </button>
      </div>
    </section>
  );
}
