import type { RunExamplesBody, Widget, WidgetAnswer } from '@tutorloop/shared';
import { useCallback, useState } from 'react';
import { closeReasonMessages } from '../api/session-socket';
import { Composer } from '../components/composer';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Transcript } from '../components/transcript';
import { useDocumentTitle } from '../hooks/use-document-title';
import { DraftScope } from '../hooks/use-draft';
import { useMediaQuery } from '../hooks/use-media-query';
import { navigate } from '../hooks/use-route';
import { useSessionConnection, useSessionView } from '../hooks/use-session';
import { http, sessionStore, signOut } from '../services';
import { sessionTypeFor } from '../sessions/registry';
import { UnsupportedSession } from '../sessions/unsupported-session';
import {
  selectFinished,
  selectCanStop,
  selectProgressLabel,
  selectReplying,
  selectRetryableMessageId,
  selectScoringSince,
} from '../store/session-store';
import { RunExamplesContext } from '../widgets/run-examples';

/** One session; what the learner is typing there is kept as drafts of this session (issue 18). */
export default function SessionPage({ sessionId }: { sessionId: string }) {
  return (
    <DraftScope scope={sessionId}>
      <SessionView sessionId={sessionId} />
    </DraftScope>
  );
}

/**
 * The chat, the pending widget, progress, and the completion screen at the end. What differs by
 * session type (header parts, rail, completion screen, "start again") comes from the registry.
 */
function SessionView({ sessionId }: { sessionId: string }) {
  const connection = useSessionConnection(sessionId);
  const status = useSessionView((view) => view.connection);
  const closeReason = useSessionView((view) => view.closeReason);
  const messages = useSessionView((view) => view.messages);
  const streaming = useSessionView((view) => view.streaming);
  const typing = useSessionView((view) => view.typing);
  const pendingWidget = useSessionView((view) => view.pendingWidget);
  const summary = useSessionView((view) => view.summary);
  const lastError = useSessionView((view) => view.lastError);
  const title = useSessionView((view) => view.state?.title ?? null);
  const mode = useSessionView((view) => view.state?.mode ?? 'recall');
  const rabbitholeTopic = useSessionView((view) => view.state?.rabbitholeTopic ?? null);
  const progressLabel = useSessionView(selectProgressLabel);
  const progressRatio = useSessionView((view) =>
    view.state && view.state.totalPoints > 0 ? view.state.recalledCount / view.state.totalPoints : 0,
  );
  const replying = useSessionView(selectReplying);
  const canStop = useSessionView(selectCanStop);
  const retryMessageId = useSessionView(selectRetryableMessageId);
  const finished = useSessionView(selectFinished);
  const state = useSessionView((view) => view.state);
  // A finished session that is opened again may only have its summary.
  const sessionType = useSessionView((view) => view.state?.type ?? view.summary?.type ?? null);
  const definition = sessionTypeFor(sessionType);
  const scoringSince = useSessionView(selectScoringSince);
  // "Run examples" of a code item: over REST, so the WebSocket protocol stays as it is (issue 25).
  const runExamples = useCallback((widgetId: string, body: RunExamplesBody) => http.runExamples(sessionId, widgetId, body), [sessionId]);
  // A survey's optional question may be skipped (SPEC §4.5).
  const canSkip = state !== null && pendingWidget !== null && definition?.canSkip(state) === true;
  const wideRail = useMediaQuery('(min-width: 1100px)');
  const [followUp, setFollowUp] = useState(false);
  const [timeUp, setTimeUp] = useState(false);
  const [confirmingEnd, setConfirmingEnd] = useState(false);
  const [review, setReview] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  useDocumentTitle(summary ? (definition?.resultsTitle(summary) ?? 'Session') : (title ?? 'Session'));

  const open = status === 'open';
  const fatal = status === 'closed' && closeReason !== null && closeReason !== 'client' && closeReason !== 'completed';

  function handleWidgetSubmit(widget: Widget, response: WidgetAnswer) {
    connection?.answerWidget(widget, response);
  }

  function handleEndConfirmed() {
    setConfirmingEnd(false);
    connection?.endSession();
  }

  async function startAgain() {
    if (!summary || !definition?.startAgain) return;
    setReview({ busy: true, error: null });
    const body = await definition.startAgain({ sessionId, summary, getSession: http.getSession });
    if (!body.ok) {
      setReview({ busy: false, error: body.error });
      return;
    }
    const created = await http.createSession(body.value);
    if (!created.ok) {
      setReview({ busy: false, error: created.error.message });
      return;
    }
    setReview({ busy: false, error: null });
    navigate({ name: 'session', sessionId: created.value.sessionId });
  }

  async function goBack() {
    if (!summary || !definition) return;
    const { backRoute } = definition;
    navigate(typeof backRoute === 'function' ? await backRoute({ sessionId, summary, getSession: http.getSession }) : backRoute);
  }

  if (fatal && closeReason) {
    return (
      <div className="page narrow">
        <h1 tabIndex={-1}>Session unavailable</h1>
        <p className="form-error" role="alert" data-testid="connection-closed">
          {closeReasonMessages[closeReason]}
        </p>
        <div className="actions">
          {closeReason === 'unauthorized' ? (
            <button type="button" className="button primary" onClick={signOut}>
              Sign in again
            </button>
          ) : (
            <button type="button" className="button primary" onClick={() => navigate({ name: 'sets' })}>
              Back to recall sets
            </button>
          )}
        </div>
      </div>
    );
  }

  if (sessionType !== null && !definition) {
    return <UnsupportedSession type={sessionType} onBack={() => navigate({ name: 'home' })} />;
  }

  // `summary` always names its type, so a known summary has its definition here.
  if (summary && definition) {
    const { Completion } = definition;
    return (
      <div className="page narrow">
        <Completion summary={summary} startAgain={{ ...review, start: () => void startAgain() }} onBack={() => void goBack()} />
        {definition.followUpAfter(summary) ? (
          followUp ? (
            <section className="follow-up" aria-labelledby="follow-up-heading" data-testid="follow-up">
              <h2 id="follow-up-heading">Questions about the plan</h2>
              <Transcript messages={messages} streaming={streaming} typing={typing} pendingWidget={null} widgetDisabled />
              <Composer
                blockedReason={replying ? 'The tutor is replying…' : open ? null : 'Disconnected.'}
                onSend={(message) => connection?.sendChat(message)}
              />
            </section>
          ) : (
            <div className="actions">
              <button type="button" className="button" onClick={() => setFollowUp(true)} disabled={!open}>
                Ask the tutor a question
              </button>
            </div>
          )
        ) : null}
        {messages.length > 0 && !followUp ? (
          <details className="past-conversation">
            <summary>Show the conversation</summary>
            <Transcript messages={messages} streaming={null} typing={false} pendingWidget={null} widgetDisabled />
          </details>
        ) : null}
      </div>
    );
  }

  const HeaderExtras = definition?.HeaderExtras ?? null;
  const rail = definition?.Rail ?? null;
  const blockedReason = finished
    ? 'This session has ended.'
    : replying
      ? 'The tutor is replying…'
      : status === 'closed'
        ? 'Disconnected.'
        : null;

  const body = (
    <div className="session-body">
      <RunExamplesContext.Provider value={runExamples}>
        <Transcript
          messages={messages}
          streaming={streaming}
          typing={typing}
          pendingWidget={pendingWidget}
          // Past the deadline the server no longer takes answers; it is finishing the assessment.
          widgetDisabled={!open || timeUp}
          onWidgetSubmit={handleWidgetSubmit}
          {...(canStop && open ? { onStop: () => connection?.stopReply() } : {})}
          retryMessageId={open ? retryMessageId : null}
          onRetry={(messageId) => connection?.retryReply(messageId)}
          scoringSince={open ? scoringSince : null}
        />
      </RunExamplesContext.Provider>
      {canSkip ? (
        <div className="actions">
          <button type="button" className="button subtle" data-testid="skip-question" disabled={!open} onClick={() => connection?.sendChat('skip')}>
            Skip this question
          </button>
        </div>
      ) : null}
      <Composer
        blockedReason={blockedReason}
        note={status === 'reconnecting' ? 'Messages are sent when the connection is back.' : null}
        onSend={(message) => connection?.sendChat(message)}
      />
    </div>
  );

  return (
    <div className="session-page">
      <div className="session-bar">
        <div className="session-bar-inner">
          <div className="session-title-group">
            <h1 className="session-title" tabIndex={-1}>
              {title ?? definition?.defaultTitle ?? 'Session'}
            </h1>
            {HeaderExtras && state ? <HeaderExtras state={state} finished={finished} onTimeUp={() => setTimeUp(true)} /> : null}
            {progressLabel ? (
              <div className="progress">
                <span className="progress-label" data-testid="progress">
                  {progressLabel}
                </span>
                <span className="progress-bar" aria-hidden="true">
                  <span style={{ width: `${Math.round(progressRatio * 100)}%` }} />
                </span>
              </div>
            ) : null}
          </div>
          {mode === 'rabbithole' ? (
            <div className="tangent" data-testid="rabbithole">
              <span className="badge">Tangent{rabbitholeTopic ? `: ${rabbitholeTopic}` : ''}</span>
              <button
                type="button"
                className="button subtle"
                onClick={() => connection?.exitRabbithole()}
                disabled={!open}
              >
                Back to recall
              </button>
            </div>
          ) : null}
          <button
            type="button"
            className="button subtle"
            onClick={() => setConfirmingEnd(true)}
            disabled={!open || finished}
          >
            End session
          </button>
        </div>
      </div>

      {status === 'reconnecting' ? (
        <div className="banner banner-warning" role="status" data-testid="connection-banner">
          Reconnecting…
        </div>
      ) : status === 'connecting' ? (
        <div className="banner banner-quiet" role="status" data-testid="connection-banner">
          Connecting…
        </div>
      ) : null}
      {lastError ? (
        <div className="banner banner-error" role="alert" data-testid="session-error">
          <span>{lastError.message}</span>
          <button type="button" className="button subtle" onClick={() => sessionStore.getState().setError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}

      {rail && state && rail.shown(state) ? (
        // The conversation keeps its place in the tree when the rail changes layout (resizing).
        <div className={rail.layoutClassName}>
          <rail.Component state={state} layout={wideRail ? 'side' : 'compact'} />
          {body}
        </div>
      ) : (
        body
      )}

      {confirmingEnd ? (
        <ConfirmDialog
          title="End this session?"
          confirmLabel="End now"
          cancelLabel="Keep going"
          onConfirm={handleEndConfirmed}
          onCancel={() => setConfirmingEnd(false)}
        >
          <p>{definition?.endNote ?? 'The session ends now.'}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

