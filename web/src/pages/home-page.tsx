import type { ProgressStats, SessionHistoryItem, SessionStatus, SubtopicProgress } from '@tutorloop/shared';
import { ActivityPanel } from '../components/activity-panel';
import { MasteryMeter } from '../components/mastery-meter';
import { useAuth } from '../hooks/use-auth';
import { useDashboard } from '../hooks/use-dashboard';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useRecallSets } from '../hooks/use-recall-sets';
import { navigate } from '../hooks/use-route';
import { useStartSession } from '../hooks/use-start-session';
import { homeCards } from '../sessions/entry-parts';
import { sessionRulesFor } from '../sessions/rules';
import { WelcomePage } from './welcome-page';
import '../dashboard.css';

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

function percent(value: number) {
  return `${Math.round(value * 100)}%`;
}

const statusLabels: Record<SessionStatus, string> = {
  pending: 'Not started',
  active: 'In progress',
  awaiting_client_action: 'In progress',
  completed: 'Completed',
  abandoned: 'Ended early',
};

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
              <span className={`session-type session-type-${session.type}`}>{sessionRulesFor(session.type)?.label ?? session.type}</span>
              <a href={`#/sessions/${encodeURIComponent(session.id)}`} className="dashboard-session-title">
                {session.title}
              </a>
              <span className="muted small">
                {statusLabels[session.status]}
                {sessionRulesFor(session.type)?.recentDetail(session) ?? ''} ·{' '}
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
  const session = useStartSession();
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
  const greeting = <h1 tabIndex={-1}>{username ? `Hello, ${username}` : 'Home'}</h1>;
  if (state.status === 'loading' || setsStatus === 'idle' || (setsStatus === 'loading' && sets.length === 0)) {
    // The greeting (the name is known from the sign-in) shows at once and stays the same element
    // when the figures arrive: the page's first large paint does not wait for the API (issue 27
    // item 5), and a focused heading keeps its focus.
    return (
      <div className="page dashboard">
        {greeting}
        <p className="muted" role="status">
          Loading…
        </p>
      </div>
    );
  }
  const { stats, recent, concepts } = state.data;
  if (stats.sessions.total === 0 && sets.length === 0) return <WelcomePage />;

  return (
    <div className="page dashboard" data-testid="dashboard">
      {greeting}
      <div className="dashboard-grid">
        {homeCards.map(({ type, Card }) => (
          <Card key={type} stats={stats} sets={sets} recent={recent} session={session} openSession={(sessionId) => navigate({ name: 'session', sessionId })} />
        ))}
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
