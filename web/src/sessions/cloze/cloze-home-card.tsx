import { useState } from 'react';
import type { HomeCardProps } from '../session-type';
import { drillInProgress, setToDrill } from './cloze-rules';
import './cloze.css';

/**
 * A slim strip under the home page's first row: one click to drill the most due set. It spans
 * the row and comes after the other cards, so the first row keeps its three cards at any width.
 */
export function ClozeHomeCard({ sets, recent, session, openSession }: HomeCardProps) {
  // The page's start request is shared by its cards: this one shows only an error of its own.
  const [startedHere, setStartedHere] = useState(false);
  const set = setToDrill(sets);
  if (!set) return null;
  const open = drillInProgress(recent, set.id);
  return (
    <section className="card dashboard-card cloze-home-card" aria-labelledby="cloze-card-title" data-testid="cloze-card">
      <div className="cloze-home-text">
        <h2 id="cloze-card-title">Cloze drill</h2>
        <p className="small" id="cloze-card-note">
          Fill in the missing word of each point of <strong>{set.name}</strong>
          {set.dueCount > 0 ? ` · ${set.dueCount} due` : ' · nothing due, so every point comes up'}
        </p>
      </div>
      <button
        type="button"
        className="button"
        onClick={() => {
          if (open) {
            openSession(open.id);
            return;
          }
          setStartedHere(true);
          void session.start({ type: 'cloze', recallSetId: set.id });
        }}
        disabled={session.busy}
        aria-busy={session.busy}
        aria-describedby="cloze-card-note"
        data-testid="cloze-card-start"
      >
        {open ? 'Resume the drill' : 'Start a drill'}
      </button>
      {startedHere && session.error ? (
        <p className="form-error" role="alert">
          {session.error}
        </p>
      ) : null}
    </section>
  );
}
