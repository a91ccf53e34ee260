import type { Widget, WidgetAnswer } from '@tutorloop/shared';
import { useState } from 'react';
import { closeReasonMessages } from '../api/session-socket';
import { AssessmentBar } from '../components/assessment-bar';
import { AssessmentResults } from '../components/assessment-results';
import { CompletionScreen } from '../components/completion-screen';
import { Composer } from '../components/composer';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Transcript } from '../components/transcript';
import { useDocumentTitle } from '../hooks/use-document-title';
import { navigate } from '../hooks/use-route';
import { useSessionConnection, useSessionView } from '../hooks/use-session';
import { http, sessionStore, signOut } from '../services';
import {
  selectAssessmentProgress,
  selectFinished,
  selectProgressLabel,
  selectReplying,
} from '../store/session-store';

/** One session: the chat, the pending widget, progress, and the completion screen at the end. */
export default function SessionPage({ sessionId }: { sessionId: string }) {
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
  const finished = useSessionView(selectFinished);
  const isAssessment = useSessionView((view) => view.state?.type === 'assessment');
  const assessment = useSessionView(selectAssessmentProgress);
  const [timeUp, setTimeUp] = useState(false);
  const [confirmingEnd, setConfirmingEnd] = useState(false);
  const [review, setReview] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const isAssessmentSummary = summary?.type === 'assessment';
  useDocumentTitle(summary ? (isAssessmentSummary ? 'Assessment results' : 'Session complete') : (title ?? 'Session'));

  const open = status === 'open';
  const fatal = status === 'closed' && closeReason !== null && closeReason !== 'client' && closeReason !== 'completed';

  function handleWidgetSubmit(widget: Widget, response: WidgetAnswer) {
    connection?.answerWidget(widget, response);
  }

  function handleEndConfirmed() {
    setConfirmingEnd(false);
    connection?.endSession();
  }

  async function retake(blueprintId: string) {
    setReview({ busy: true, error: null });
    const created = await http.createSession({ type: 'assessment', blueprintId });
    if (!created.ok) {
      setReview({ busy: false, error: created.error.message });
      return;
    }
    setReview({ busy: false, error: null });
    navigate({ name: 'session', sessionId: created.value.sessionId });
  }

  async function reviewAgain() {
    setReview({ busy: true, error: null });
    const detail = await http.getSession(sessionId);
    const recallSetId = detail.ok ? detail.value.session.recallSetId : null;
    if (!detail.ok || !recallSetId) {
      setReview({ busy: false, error: detail.ok ? 'This session has no recall set to review.' : detail.error.message });
      return;
    }
    const created = await http.createSession({ type: 'recall', recallSetId });
    if (!created.ok) {
      setReview({ busy: false, error: created.error.message });
      return;
    }
    setReview({ busy: false, error: null });
    navigate({ name: 'session', sessionId: created.value.sessionId });
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

  if (summary) {
    return (
      <div className="page narrow">
        {isAssessmentSummary ? (
          <AssessmentResults
            summary={summary}
            retakeBusy={review.busy}
            retakeError={review.error}
            onBack={() => navigate({ name: 'assessments' })}
            onRetake={(blueprintId) => void retake(blueprintId)}
          />
        ) : (
          <CompletionScreen
            summary={summary}
            reviewBusy={review.busy}
            reviewError={review.error}
            onBack={() => navigate({ name: 'sets' })}
            onReviewAgain={() => void reviewAgain()}
          />
        )}
        {messages.length > 0 ? (
          <details className="past-conversation">
            <summary>Show the conversation</summary>
            <Transcript messages={messages} streaming={null} typing={false} pendingWidget={null} widgetDisabled />
          </details>
        ) : null}
      </div>
    );
  }

  const blockedReason = finished
    ? 'This session has ended.'
    : replying
      ? 'The tutor is replying…'
      : status === 'closed'
        ? 'Disconnected.'
        : null;

  return (
    <div className="session-page">
      <div className="session-bar">
        <div className="session-bar-inner">
          <div className="session-title-group">
            <h1 className="session-title" tabIndex={-1}>
              {title ?? (isAssessment ? 'Assessment' : 'Recall session')}
            </h1>
            {assessment ? (
              <AssessmentBar progress={assessment} finished={finished} onTimeUp={() => setTimeUp(true)} />
            ) : null}
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

      <div className="session-body">
        <Transcript
          messages={messages}
          streaming={streaming}
          typing={typing}
          pendingWidget={pendingWidget}
          // Past the deadline the server no longer takes answers; it is finishing the assessment.
          widgetDisabled={!open || timeUp}
          onWidgetSubmit={handleWidgetSubmit}
        />
        <Composer
          blockedReason={blockedReason}
          note={status === 'reconnecting' ? 'Messages are sent when the connection is back.' : null}
          onSend={(message) => connection?.sendChat(message)}
        />
      </div>

      {confirmingEnd ? (
        <ConfirmDialog
          title="End this session?"
          confirmLabel="End now"
          cancelLabel="Keep going"
          onConfirm={handleEndConfirmed}
          onCancel={() => setConfirmingEnd(false)}
        >
          {isAssessment ? (
            <p>Items you have not answered score zero. Your results are shown right away.</p>
          ) : (
            <p>Points you have not recalled yet will come back for review soon.</p>
          )}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

