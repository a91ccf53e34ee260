import { cardStateLabels, formatDecimal, formatPercent, formatRelativeDue, type ScheduleRow } from '../store/schedule';

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A value a never-reviewed point does not have yet. */
function Missing() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">not yet</span>
    </>
  );
}

/** The FSRS state of every point of a set: what is due when, and how well it is known. */
export function ScheduleTable({
  rows,
  now,
  labelledBy,
  desiredRetention,
}: {
  rows: ScheduleRow[];
  now: Date;
  labelledBy: string;
  /** Points whose predicted recall is below it are marked. */
  desiredRetention: number;
}) {
  return (
    // A focusable scroll region, so a keyboard can scroll the table if it ever overflows. On a
    // phone each row is a card instead (styles.css), every value under its column's `data-label`.
    <div className="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className="data-table schedule-table" data-testid="schedule-table">
        <thead>
          <tr>
            <th scope="col">Point</th>
            <th scope="col">State</th>
            <th scope="col">Next due</th>
            <th scope="col" className="numeric">
              Recall now
            </th>
            <th scope="col" className="numeric">
              Stability (days)
            </th>
            <th scope="col" className="numeric">
              Difficulty
            </th>
            <th scope="col" className="numeric">
              Reps
            </th>
            <th scope="col" className="numeric">
              Lapses
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            // The server's status decides "due now", as it does for every count on the page.
            const relative = row.status === 'scheduled' ? formatRelativeDue(row.due, now) : 'due now';
            const below = row.retrievability !== null && row.retrievability < desiredRetention;
            return (
              <tr key={row.pointId} data-testid="schedule-row" data-point-id={row.pointId} data-state={row.state}>
                <th scope="row" className="point-cell">
                  {row.content}
                </th>
                <td data-label="State">
                  <span className={`state-pill state-${row.state}`}>{cardStateLabels[row.state]}</span>
                </td>
                <td className={relative === 'due now' ? 'due-cell due' : 'due-cell'} data-label="Next due">
                  <time dateTime={row.due} title={formatDate(row.due)}>
                    {relative}
                  </time>
                </td>
                <td
                  className={below ? 'numeric below-retention' : 'numeric'}
                  data-label="Recall now"
                  data-testid="retrievability"
                  data-value={row.retrievability ?? ''}
                >
                  {row.retrievability === null ? (
                    <Missing />
                  ) : (
                    <>
                      {formatPercent(row.retrievability)}
                      {below ? <span className="visually-hidden"> (below your desired retention)</span> : null}
                    </>
                  )}
                </td>
                <td className="numeric" data-label="Stability (days)">{row.stability === null ? <Missing /> : formatDecimal(row.stability)}</td>
                <td className="numeric" data-label="Difficulty">{row.difficulty === null ? <Missing /> : formatDecimal(row.difficulty)}</td>
                <td className="numeric" data-label="Reps">{row.reps}</td>
                <td className="numeric" data-label="Lapses">{row.lapses}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
