import type { ClozeResult, SessionSummary } from '@tutorloop/shared';
import { Fragment } from 'react';
import { CompletionActions } from '../completion-actions';
import { completionMeta, useFocusOnMount } from '../completion-parts';
import type { CompletionProps } from '../session-type';
import { drillTitle, ratingWords, splitAtBlanks } from './cloze-rules';
import './cloze.css';

function formatDue(iso: string | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

function quoted(tries: readonly string[]): string {
  return tries.map((given) => `“${given}”`).join(', then ');
}

function ResultItem({ result, nextDue }: { result: ClozeResult; nextDue: string | null }) {
  const pieces = splitAtBlanks(result.prompt);
  const words = ratingWords[result.rating];
  return (
    <li className={`cloze-result cloze-result-${result.rating}`} data-testid="cloze-result" data-rating={result.rating}>
      <p className="cloze-sentence">
        {pieces.map((piece, index) => (
          // The pieces of one fixed prompt never move, so their place is their key.
          <Fragment key={index}>
            {index > 0 ? (
              // Each blank, filled: marked so the term stands out.
              <mark className="cloze-term" data-testid="cloze-term">
                {result.answer}
              </mark>
            ) : null}
            {piece}
          </Fragment>
        ))}
      </p>
      <p className="cloze-given small">
        {result.given.length > 0 ? (
          <>
            You wrote <span data-testid="cloze-given">{quoted(result.given)}</span>
          </>
        ) : (
          <span className="muted">No answer given</span>
        )}
      </p>
      <p className="cloze-rating small" data-testid="cloze-rating">
        <span className="cloze-rating-label">{words.label}</span> · {words.meaning}
        {nextDue ? <span className="muted"> · next review {nextDue}</span> : null}
      </p>
    </li>
  );
}

const endNotes: Partial<Record<SessionSummary['reason'], string>> = {
  ended_by_learner: 'You ended this drill early. The points you did not reach keep their schedule.',
  deleted: 'This session was deleted.',
};

/** The end of a cloze drill (SPEC §4.6): each point with its blank filled, what the learner gave, and the rating. */
export function ClozeCompletion({ summary, startAgain, onBack }: CompletionProps) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const results = summary.cloze?.results ?? [];
  const dueOf = new Map(summary.points.map((point) => [point.id, point.nextDue]));
  const note = endNotes[summary.reason];
  return (
    <section className="completion" aria-labelledby="completion-title" data-testid="completion-screen">
      <h1 id="completion-title" ref={headingRef} tabIndex={-1}>
        {drillTitle(summary)}
      </h1>
      <p className="completion-score" data-testid="cloze-score">
        {summary.recalledCount} of {summary.totalPoints} {summary.totalPoints === 1 ? 'point' : 'points'} right
      </p>
      {summary.cloze ? (
        <p className="muted" data-testid="cloze-counts">
          {summary.cloze.good} right first time · {summary.cloze.hard} at the second try · {summary.cloze.again} missed
        </p>
      ) : null}
      <p className="muted">{completionMeta(summary)}</p>
      {note ? <p className="notice">{note}</p> : null}
      {results.length > 0 ? (
        <ol className="cloze-results" aria-label="Points">
          {results.map((result) => (
            <ResultItem key={result.pointId} result={result} nextDue={formatDue(dueOf.get(result.pointId))} />
          ))}
        </ol>
      ) : null}
      <CompletionActions startAgain={startAgain} onBack={onBack} backLabel="Back to the set" againLabel="Drill again" />
    </section>
  );
}
