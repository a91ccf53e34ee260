import { cardStateLabels, formatDecimal, formatRelativeDue, type ScheduleRow } from '../store/schedule';

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
export function ScheduleTable({ rows, now, labelledBy }: { rows: ScheduleRow[]; now: Date; labelledBy: string }) {
  return (
    // A focusable scroll region, so a keyboard can scroll the table on a narrow screen.
    <div className="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className="data-table" data-testid="schedule-table">
        <thead>
          <tr>
            <th scope="col">Point</th>
            <th scope="col">State</th>
            <th scope="col">Next due</th>
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
            const relative = formatRelativeDue(row.due, now);
            return (
              <tr key={row.pointId} data-testid="schedule-row" data-point-id={row.pointId} data-state={row.state}>
                <th scope="row" className="point-cell">
                  {row.content}
                </th>
                <td>
                  <span className={`state-pill state-${row.state}`}>{cardStateLabels[row.state]}</span>
                </td>
                <td className={relative === 'due now' ? 'due-cell due' : 'due-cell'}>
                  <time dateTime={row.due} title={formatDate(row.due)}>
                    {relative}
                  </time>
                </td>
                <td className="numeric">{row.stability === null ? <Missing /> : formatDecimal(row.stability)}</td>
                <td className="numeric">{row.difficulty === null ? <Missing /> : formatDecimal(row.difficulty)}</td>
                <td className="numeric">{row.reps}</td>
                <td className="numeric">{row.lapses}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
