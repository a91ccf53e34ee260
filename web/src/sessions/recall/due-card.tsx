import type { RecallSetSummary } from '@tutorloop/shared';
import { sessionInProgress } from './session-in-progress';
import type { HomeCardProps } from '../session-type';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function percent(value: number) {
  return `${Math.round(value * 100)}%`;
}

/** The set with the most points due now (ties: the most recently changed), or null when nothing is due. */
export function mostDueSet(sets: readonly RecallSetSummary[]): RecallSetSummary | null {
  let best: RecallSetSummary | null = null;
  for (const set of sets) {
    if (set.dueCount === 0) continue;
    if (!best || set.dueCount > best.dueCount || (set.dueCount === best.dueCount && set.updatedAt > best.updatedAt)) best = set;
  }
  return best;
}

/** The home page's "Due today": what is due across every set, with one click to review the most due one. */
export function DueCard({ stats, sets, recent, session, openSession }: HomeCardProps) {
  const { dueNow, dueToday, dueNext7Days, newPoints, belowDesiredRetention } = stats.reviews;
  const top = mostDueSet(sets);
  const others = sets.filter((set) => set.dueCount > 0 && set.id !== top?.id).slice(0, 3);
  return (
    <section className="card dashboard-card dashboard-due" aria-labelledby="due-title" data-testid="due-today">
      <h2 id="due-title">Due today</h2>
      <p className="dashboard-figure">
        <span data-testid="due-count">{dueToday}</span>
        <span className="dashboard-figure-unit">{dueToday === 1 ? 'point' : 'points'}</span>
      </p>
      <p className="muted small" data-testid="due-detail">
        {dueNow} due now · {dueNext7Days} this week{newPoints > 0 ? ` · ${newPoints} never reviewed` : ''}
      </p>
      {belowDesiredRetention > 0 ? (
        <p className="small" data-testid="below-retention">
          {plural(belowDesiredRetention, 'point is', 'points are')} below your {percent(stats.retention.desired)} retention goal.
        </p>
      ) : null}
      {top ? (
        <div className="dashboard-next">
          <p className="small" id="most-due" data-testid="most-due">
            Most due: <strong>{top.name}</strong> · {top.dueCount} due
          </p>
          <button
            type="button"
            className="button primary"
            onClick={() => {
              const open = sessionInProgress(recent, top.id);
              if (open) openSession(open.id);
              else void session.start({ type: 'recall', recallSetId: top.id });
            }}
            disabled={session.busy}
            aria-busy={session.busy}
            aria-describedby="most-due"
            data-testid="review-most-due"
          >
            Review now
          </button>
        </div>
      ) : (
        <p className="dashboard-calm" data-testid="nothing-due">
          {sets.length === 0 ? 'No recall sets yet.' : 'Nothing is due now. Come back later, or add a set.'}
        </p>
      )}
      {session.error ? (
        <p className="form-error" role="alert">
          {session.error}
        </p>
      ) : null}
      {others.length > 0 ? (
        <ul className="dashboard-list compact">
          {others.map((set) => (
            <li key={set.id}>
              <a href={`#/sets/${encodeURIComponent(set.id)}`}>{set.name}</a>
              <span className="muted small">{set.dueCount} due</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
