/**
 * What is known of a session while a learner plays it: the latest state, the summary once
 * it ended, the visible transcript, which points are recalled — and the record of each
 * turn, with the leaks in what the learner saw.
 */
import type { SessionState, SessionSummary, Widget } from '@tutorloop/shared';
import type { ObservedTurn } from '../checks/expectations';
import { findLeaks } from '../checks/leaks';
import type { LearnerView } from '../learners/learners';
import { describeWidget } from '../learners/widget-answer';
import type { ApiClient } from '../protocol/api-client';
import type { Reply } from '../protocol/reply-events';
import type { CaseOutcome, LearnerAction } from '../results/result-schema';
import type { OpenedSession } from './open-session';

function pendingWidgetOf(state: SessionState | null): Widget | null {
  return state?.status === 'awaiting_client_action' ? state.pendingWidget : null;
}

/** The learner-visible text of a widget, options excluded (they show candidates by design). */
function widgetText(widget: Widget): string {
  switch (widget.kind) {
    case 'multiple_choice':
      return [widget.props.prompt, widget.props.context ?? ''].join('\n');
    case 'free_text':
      return [widget.props.prompt, widget.props.context ?? '', widget.props.placeholder ?? ''].join('\n');
    case 'code_editor':
      return [widget.props.prompt, widget.props.starterCode ?? ''].join('\n');
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

export class SessionTracker {
  readonly turns: ObservedTurn[] = [];
  readonly transcript: Array<{ role: 'tutor' | 'learner'; text: string }> = [];
  state: SessionState | null = null;
  summary: SessionSummary | null = null;
  completedAtTurn: number | null = null;
  private recalledIds = new Set<string>();
  private learnerText = '';

  constructor(
    private readonly session: OpenedSession,
    private readonly api: ApiClient,
  ) {}

  get pendingWidget(): Widget | null {
    return pendingWidgetOf(this.state);
  }

  get ended(): boolean {
    return this.summary !== null || this.state?.status === 'completed' || this.state?.status === 'abandoned';
  }

  view(turn: number): LearnerView {
    return { turn, pendingWidget: this.pendingWidget, transcript: this.transcript };
  }

  /** Which points are recalled now: the summary when the session ended, else the cards. */
  private async readRecalledIds(): Promise<Set<string>> {
    if (this.summary) return new Set(this.summary.points.filter((point) => point.recalled).map((point) => point.id));
    if (!this.session.recallSetId) return this.recalledIds;
    const cards = await this.api.cards(this.session.recallSetId);
    // The set is new, so a card reviewed while the session is open was recalled in it.
    return cards.ok ? new Set(cards.value.cards.filter((card) => card.lastReview !== null).map((card) => card.pointId)) : this.recalledIds;
  }

  async recordReply(turn: number, action: LearnerAction, learnerText: string, reply: Reply): Promise<void> {
    const widgetBefore = this.pendingWidget;
    if (reply.state) this.state = reply.state;
    if (reply.summary) {
      this.summary = reply.summary;
      this.completedAtTurn = turn;
    }
    if (learnerText) {
      this.learnerText += `\n${learnerText}`;
      this.transcript.push({ role: 'learner', text: learnerText });
    }
    if (reply.tutorMessage) this.transcript.push({ role: 'tutor', text: reply.tutorMessage });

    const recalledBefore = this.recalledIds;
    this.recalledIds = await this.readRecalledIds();
    const widget = this.pendingWidget;
    const presented = widget && widget.widgetId !== widgetBefore?.widgetId ? widget : null;
    const visibleText = [reply.tutorMessage, presented ? widgetText(presented) : ''].join('\n');
    const leaks = findLeaks(visibleText, {
      pointIds: this.session.points.map((point) => point.id),
      unrecalledContents: this.session.points.filter((point) => !this.recalledIds.has(point.id)).map((point) => point.content),
      learnerText: this.learnerText,
    });
    this.turns.push({
      turn,
      action,
      tutorMessage: reply.tutorMessage,
      ttftMs: reply.ttftMs,
      totalMs: reply.totalMs,
      status: this.state?.status ?? null,
      recalledCount: reply.summary?.recalledCount ?? reply.state?.recalledCount ?? null,
      totalPoints: reply.summary?.totalPoints ?? reply.state?.totalPoints ?? null,
      newlyRecalled: this.session.points.filter((point) => this.recalledIds.has(point.id) && !recalledBefore.has(point.id)).map((point) => point.content),
      widgetPresented: presented?.kind ?? null,
      widgetDescription: presented ? describeWidget(presented) : null,
      pendingWidget: widget?.kind ?? null,
      completed: reply.summary !== null,
      leaks,
      error: reply.error ? `error event ${reply.error.code}: ${reply.error.message}` : null,
    });
  }

  recordFailedTurn(turn: number, action: LearnerAction, error: string): void {
    this.turns.push({
      turn,
      action,
      tutorMessage: '',
      ttftMs: null,
      totalMs: null,
      status: this.state?.status ?? null,
      recalledCount: null,
      totalPoints: null,
      newlyRecalled: [],
      widgetPresented: null,
      widgetDescription: null,
      pendingWidget: this.pendingWidget?.kind ?? null,
      completed: false,
      leaks: [],
      error,
    });
  }

  outcome(): CaseOutcome {
    return {
      learnerTurns: this.turns.filter((turn) => turn.turn > 0).length,
      completed: this.completedAtTurn !== null,
      completedAtTurn: this.completedAtTurn,
      endReason: this.summary?.reason ?? null,
      recalledCount: this.summary?.recalledCount ?? this.state?.recalledCount ?? null,
      totalPoints: this.summary?.totalPoints ?? this.state?.totalPoints ?? null,
    };
  }
}
