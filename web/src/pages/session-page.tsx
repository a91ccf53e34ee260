import type { RunExamplesBody, Widget, WidgetAnswer } from '@tutorloop/shared';
import { useCallback, useState } from 'react';
import { closeReasonMessages } from '../api/session-socket';
import { AssessmentBar } from '../components/assessment-bar';
import { AssessmentResults } from '../components/assessment-results';
import { CompletionScreen } from '../components/completion-screen';
import { Composer } from '../components/composer';
import { ConfirmDialog } from '../components/confirm-dialog';
import { LearningBar, LearningRail } from '../components/learning-rail';
import { ReflectionSummary } from '../components/reflection-summary';
import { Transcript } from '../components/transcript';
import { useDocumentTitle } from '../hooks/use-document-title';
import { DraftScope } from '../hooks/use-draft';
import { useMediaQuery } from '../hooks/use-media-query';
import { navigate } from '../hooks/use-route';
import { useSessionConnection, useSessionView } from '../hooks/use-session';
import { http, sessionStore, signOut } from '../services';
import {
  selectAssessmentProgress,
  selectFinished,
  selectLearningProgress,
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

/** The chat, the pending widget, progress, and the completion screen at the end. */
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
  const earlyReview = useSessionView((view) => view.state?.earlyReview === true);
  const progressLabel = useSessionView(selectProgressLabel);
  const progressRatio = useSessionView((view) =>
    view.state && view.state.totalPoints > 0 ? view.state.recalledCount / view.state.totalPoints : 0,
  );
  const replying = useSessionView(selectReplying);
  const canStop = useSessionView(selectCanStop);
  const retryMessageId = useSessionView(selectRetryableMessageId);
  const finished = useSessionView(selectFinished);
  const isAssessment = useSessionView((view) => view.state?.type === 'assessment');
  const assessment = useSessionView(selectAssessmentProgress);
  const learning = useSessionView(selectLearningProgress);
  const isLearning = useSessionView((view) => view.state?.type === 'learning');
  const sessionType = useSessionView((view) => view.state?.type ?? null);
  const scoringSince = useSessionView(selectScoringSince);
  // "Run examples" of a code item: over REST, so the WebSocket protocol stays as it is (issue 25).
  const runExamples = useCallback((widgetId: string, body: RunExamplesBody) => http.runExamples(sessionId, widgetId, body), [sessionId]);
  // A survey's optional question may be skipped (SPEC §4.5): the server reads the chat `skip`.
  const canSkip = useSessionView((view) => view.state?.type === 'survey' && view.state.survey?.required === false && view.pendingWidget !== null);
  // Wide screens show the plan's steps beside the conversation; narrow ones fold them above it.
  const wideRail = useMediaQuery('(min-width: 1100px)');
  const [followUp, setFollowUp] = useState(false);
  const [timeUp, setTimeUp] = useState(false);
  const [confirmingEnd, setConfirmingEnd] = useState(false);
  const [review, setReview] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const isAssessmentSummary = summary?.type === 'assessment';
  useDocumentTitle(summary ? (isAssessmentSummary ? 'Assessment results' : summary.reason === 'ended_by_learner' ? 'Session ended early' : 'Session complete') : (title ?? 'Session'));

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

  async function learnAgain(studyPlanId: string) {
    setReview({ busy: true, error: null });
    const created = await http.createSession({ type: 'learning', studyPlanId });
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
        {summary.thought || summary.survey ? (
          <ReflectionSummary summary={summary} onBack={() => navigate({ name: 'reflect' })} />
        ) : isAssessmentSummary ? (
          <AssessmentResults
            summary={summary}
            retakeBusy={review.busy}
            retakeError={review.error}
            onBack={() => navigate({ name: 'assessments' })}
            onRetake={(blueprintId) => void retake(blueprintId)}
          />
        ) : summary.learning ? (
          <CompletionScreen
            summary={summary}
            reviewBusy={review.busy}
            reviewError={review.error}
            onBack={() => navigate({ name: 'plans' })}
            onReviewAgain={() => void learnAgain(summary.learning!.studyPlanId)}
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
        {summary.learning && summary.reason === 'plan_completed' ? (
          // A completed plan still answers questions (SPEC §4.4 step 1: post-completion replies).
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
              {title ?? (isAssessment ? 'Assessment' : isLearning ? 'Learning session' : sessionType === 'survey' ? 'Survey' : sessionType === 'thought' ? 'Thinking it through' : 'Recall session')}
            </h1>
            {learning ? <LearningBar progress={learning} /> : null}
            {assessment ? (
              <AssessmentBar progress={assessment} finished={finished} onTimeUp={() => setTimeUp(true)} />
            ) : null}
            {earlyReview && !finished ? (
              <span className="badge" data-testid="early-review" title="Nothing in this set was due: every point is reviewed ahead of schedule.">
                Early review
              </span>
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

      {learning ? (
        // The conversation keeps its place in the tree when the rail changes layout (resizing).
        <div className="learning-layout">
          <LearningRail progress={learning} layout={wideRail ? 'side' : 'compact'} />
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
          {isAssessment ? (
            <p>Items you have not answered score zero. Your results are shown right away.</p>
          ) : isLearning ? (
            <p>You see a summary of the steps you covered. You can start the plan again at any time.</p>
          ) : sessionType === 'thought' ? (
            <p>You get a summary of where your thinking went.</p>
          ) : sessionType === 'survey' ? (
            <p>The answers you gave so far are kept; the questions left stay unanswered.</p>
          ) : (
            <p>Points you have not recalled yet will come back for review soon.</p>
          )}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

