import type { ProgressStats, RecallSetSummary, SessionHistoryItem, SessionStatus, SessionType, SubtopicProgress } from '@tutorloop/shared';
import { ActivityPanel } from '../components/activity-panel';
import { MasteryMeter } from '../components/mastery-meter';
import { useAuth } from '../hooks/use-auth';
import { useDashboard } from '../hooks/use-dashboard';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useRecallSets } from '../hooks/use-recall-sets';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { sessionInProgress } from '../store/session-in-progress';
import { WelcomePage } from './welcome-page';
import '../dashboard.css';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function percent(value: number) {
  return `${Math.round(value * 100)}%`;
}

const typeLabels: Record<SessionType, string> = {
  recall: 'Recall',
  assessment: 'Assessment',
  learning: 'Learning',
  thought: 'Thinking',
  survey: 'Survey',
};

const statusLabels: Record<SessionStatus, string> = {
  pending: 'Not started',
  active: 'In progress',
  awaiting_client_action: 'In progress',
  completed: 'Completed',
  abandoned: 'Ended early',
};

/** The set with the most points due now (ties: the most recently changed), or null when nothing is due. */
export function mostDueSet(sets: readonly RecallSetSummary[]): RecallSetSummary | null {
  let best: RecallSetSummary | null = null;
  for (const set of sets) {
    if (set.dueCount === 0) continue;
    if (!best || set.dueCount > best.dueCount || (set.dueCount === best.dueCount && set.updatedAt > best.updatedAt)) best = set;
  }
  return best;
}

function DueCard({ stats, sets, recent }: { stats: ProgressStats; sets: readonly RecallSetSummary[]; recent: readonly SessionHistoryItem[] }) {
  const session = useStartSession();
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
              if (open) navigate({ name: 'session', sessionId: open.id });
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

/** `today` is the stats' own today (`YYYY-MM-DD` in their time zone, like the streak's days). */
function StreakCard({ streak, today }: { streak: ProgressStats['streak']; today: string }) {
  const reviewedToday = streak.lastReviewDay === today;
  return (
    <section className="card dashboard-card" aria-labelledby="streak-title" data-testid="streak">
      <h2 id="streak-title">Streak</h2>
      <p className="dashboard-figure">
        <span data-testid="streak-days">{streak.current}</span>
        <span className="dashboard-figure-unit">{streak.current === 1 ? 'day' : 'days'}</span>
      </p>
      <p className="muted small">
        {streak.current === 0
          ? streak.lastReviewDay
            ? 'Review today to start a new streak.'
            : 'Review something today to start one.'
          : reviewedToday
            ? 'Reviewed today: the streak is safe.'
            : 'Review today to keep it going.'}
      </p>
      {streak.longest > 0 ? <p className="muted small">Longest: {plural(streak.longest, 'day', 'days')}</p> : null}
    </section>
  );
}

function RetentionCard({ retention }: { retention: ProgressStats['retention'] }) {
  const { rate, desired, reviews, windowDays } = retention;
  return (
    <section className="card dashboard-card" aria-labelledby="retention-title" data-testid="retention">
      <h2 id="retention-title">True retention</h2>
      <p className="dashboard-figure">
        <span data-testid="retention-rate">{rate === null ? '–' : percent(rate)}</span>
        <span className="dashboard-figure-unit">goal {percent(desired)}</span>
      </p>
      {rate === null ? (
        <p className="muted small">Measured once points come back for a second review.</p>
      ) : (
        <>
          <div className="retention-meter" aria-hidden="true">
            <span className="retention-meter-fill" style={{ width: percent(rate) }} />
            <span className="retention-meter-goal" style={{ left: percent(desired) }} />
          </div>
          <p className="muted small">
            {rate >= desired ? 'At or above your goal' : 'Below your goal'}: remembered in {reviews === 1 ? 'the one review' : `${reviews} reviews`} of
            the last {windowDays} days.
          </p>
        </>
      )}
    </section>
  );
}

function RecentSessions({ sessions }: { sessions: readonly SessionHistoryItem[] }) {
  const date = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
  return (
    <section className="card dashboard-card" aria-labelledby="recent-title" data-testid="recent-sessions">
      <h2 id="recent-title">Recent sessions</h2>
      {sessions.length === 0 ? (
        <p className="muted small">Your sessions will be listed here.</p>
      ) : (
        <ul className="dashboard-list">
          {sessions.map((session) => (
            <li key={session.id} data-testid="recent-session">
              <span className={`session-type session-type-${session.type}`}>{typeLabels[session.type]}</span>
              <a href={`#/sessions/${encodeURIComponent(session.id)}`} className="dashboard-session-title">
                {session.title}
              </a>
              <span className="muted small">
                {statusLabels[session.status]}
                {session.type === 'recall' && session.totalPoints > 0 ? ` · ${session.recalledCount} of ${session.totalPoints}` : ''} ·{' '}
                {date.format(new Date(session.createdAt))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ConceptMastery({ concepts }: { concepts: SubtopicProgress['concepts'] }) {
  // In the server's order: plan order, the most recently studied plan first.
  const entries = Object.entries(concepts);
  return (
    <section className="card dashboard-card" aria-labelledby="mastery-title" data-testid="concept-mastery">
      <h2 id="mastery-title">Mastery by concept</h2>
      {entries.length === 0 ? (
        <p className="muted small">
          Concepts appear here as you work through a <a href="#/study-plans">study plan</a>.
        </p>
      ) : (
        <ul className="dashboard-list">
          {entries.map(([concept, progress]) => (
            <li key={concept} data-testid="concept">
              <span>{concept}</span>
              <MasteryMeter level={progress.level} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The home dashboard (issue 13): what is due today across every set with one click to review
 * the most due one, the streak, true retention against the learner's goal, 30 days of activity,
 * recent sessions of every type (each opens its replay or results) and mastery per concept.
 * A learner with nothing yet — no set, no session — gets the first-run welcome instead.
 */
export function HomePage() {
  const username = useAuth((state) => state.learner?.username ?? null);
  const { state, reload } = useDashboard();
  const sets = useRecallSets((store) => store.recallSets);
  const setsStatus = useRecallSets((store) => store.status);
  useDocumentTitle('Home');

  if (state.status === 'error') {
    return (
      <div className="page">
        <h1 tabIndex={-1}>Home</h1>
        <p className="form-error" role="alert">
          Your progress could not be loaded: {state.message}
        </p>
        <button type="button" className="button" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  if (state.status === 'loading' || setsStatus === 'idle' || (setsStatus === 'loading' && sets.length === 0)) {
    return (
      <p className="page muted" role="status">
        Loading…
      </p>
    );
  }
  const { stats, recent, concepts } = state.data;
  if (stats.sessions.total === 0 && sets.length === 0) return <WelcomePage />;

  return (
    <div className="page dashboard" data-testid="dashboard">
      <h1 tabIndex={-1}>{username ? `Hello, ${username}` : 'Home'}</h1>
      <div className="dashboard-grid">
        <DueCard stats={stats} sets={sets} recent={recent} />
        <StreakCard streak={stats.streak} today={stats.activity.at(-1)?.day ?? stats.asOf.slice(0, 10)} />
        <RetentionCard retention={stats.retention} />
      </div>
      <section className="card dashboard-activity" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity</h2>
        <ActivityPanel days={stats.activity} />
      </section>
      <div className="dashboard-grid two">
        <RecentSessions sessions={recent} />
        <ConceptMastery concepts={concepts} />
      </div>
      <p className="dashboard-more">
        <a href="#/sets">All recall sets</a> · <a href="#/study-plans">Study plans</a> · <a href="#/assessments">Assessments</a> ·{' '}
        <a href="#/welcome">Getting started</a>
      </p>
    </div>
  );
}
