/**
 * What is known of a session while a learner plays it: the latest state, the summary once
 * it ended, the visible transcript, which points are recalled — and the record of each
 * turn, with the leaks in what the learner saw. For a learning session it also keeps every
 * frame of each turn and, once the session is over, attaches the agent logs to the turns and
 * looks for leaks in all the frames (learning-leaks.ts).
 */
import type { AgentLogEntry, ServerEvent, SessionState, SessionSummary, Widget } from '@tutorloop/shared';
import type { ObservedTurn } from '../checks/expectations';
import { phaseOf } from '../checks/learning-checks';
import { learningLeaks } from '../checks/learning-leaks';
import { findLeaks } from '../checks/leaks';
import type { LearnerView } from '../learners/learners';
import { describeWidget } from '../learners/widget-answer';
import type { ApiClient } from '../protocol/api-client';
import type { Reply } from '../protocol/reply-events';
import type { CaseOutcome, LearnerAction, LearningTurn, TurnAgents } from '../results/result-schema';
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
    case 'rating':
      return [widget.props.prompt, ...Object.values(widget.props.labels ?? {})].join('\n');
    default: {
      const unreachable: never = widget;
      throw new Error(`unknown widget ${JSON.stringify(unreachable)}`);
    }
  }
}

function learningTurn(state: SessionState | null, frames: readonly ServerEvent[]): LearningTurn | null {
  const progress = state?.learning;
  if (!progress) return null;
  const stepsSeen = frames.flatMap((frame) => (frame.type === 'state_update' && frame.payload.state.learning ? [frame.payload.state.learning.step] : []));
  return { step: progress.step, totalSteps: progress.totalSteps, stepType: progress.stepType, questionOpen: progress.questionOpen, stepsSeen };
}

/** The agent-log entries of one turn, as recorded with it. */
export function summarizeAgentCalls(entries: readonly AgentLogEntry[]): TurnAgents {
  const master = entries.filter((entry) => entry.agent === 'master_tutor' && entry.outcome === 'ok').at(-1);
  const output = master?.output && typeof master.output === 'object' && !Array.isArray(master.output) ? (master.output as Record<string, unknown>) : {};
  return {
    calls: entries.map((entry) => `${entry.agent}:${entry.outcome}`),
    intent: typeof output.intent === 'string' ? output.intent : null,
    answerCorrect: typeof output.answer_correct === 'boolean' ? output.answer_correct : null,
    turnSummary: typeof output.turn_summary === 'string' ? output.turn_summary : null,
    inputSummary: master?.inputSummary ?? null,
  };
}

export class SessionTracker {
  readonly turns: ObservedTurn[] = [];
  /** Every frame of each turn (aligned with `turns`), for the learning leak rules. */
  private readonly frames: Array<readonly ServerEvent[]> = [];
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
    const plan = this.session.studyPlan?.plan;
    return {
      turn,
      pendingWidget: this.pendingWidget,
      transcript: this.transcript,
      ended: this.ended,
      learning: plan ? { plan, progress: this.state?.learning ?? null } : null,
    };
  }

  /** Which points are recalled now: the summary when the session ended, else the cards. */
  private async readRecalledIds(): Promise<Set<string>> {
    if (this.summary) return new Set(this.summary.points.filter((point) => point.recalled).map((point) => point.id));
    if (!this.session.recallSetId) return this.recalledIds;
    const cards = await this.api.cards(this.session.recallSetId);
    // The set is new, so a card reviewed while the session is open was recalled in it.
    return cards.ok ? new Set(cards.value.cards.filter((card) => card.lastReview !== null).map((card) => card.pointId)) : this.recalledIds;
  }

  async recordReply(turn: number, action: LearnerAction, learnerText: string, reply: Reply, frames: readonly ServerEvent[] = []): Promise<void> {
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
      learning: learningTurn(reply.state, frames),
    });
    this.frames.push(frames);
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
      learning: null,
    });
    this.frames.push([]);
  }

  /**
   * Learning sessions, once over: the agent logs go to their turns (by the session's turn
   * counter; a reply after completion does not move it, so those turns take the
   * post-completion calls in order), then the leak rules run over every frame.
   */
  finishLearning(entries: readonly AgentLogEntry[] | null): void {
    const plan = this.session.studyPlan?.plan;
    if (!plan) return;
    if (entries) {
      const afterCompletion = entries.filter((entry) => entry.agent === 'post_completion');
      let next = 0;
      for (const turn of this.turns) {
        if (this.completedAtTurn !== null && turn.turn > this.completedAtTurn) {
          const entry = afterCompletion[next++];
          turn.agents = summarizeAgentCalls(entry ? [entry] : []);
        } else {
          turn.agents = summarizeAgentCalls(entries.filter((entry) => entry.turn === turn.turn && entry.agent !== 'post_completion'));
        }
      }
    }
    const leaks = learningLeaks(
      plan,
      this.turns.map((turn, index) => ({
        turn: turn.turn,
        frames: this.frames[index] ?? [],
        learnerMessage: turn.action.type === 'chat' ? turn.action.message : null,
        stepAfter: turn.learning?.step ?? null,
        // The explain phase: named by the tutor's summary, or a third wrong answer after the hint (the engine's input summary).
        explained: turn.agents?.answerCorrect === false && (phaseOf(turn.agents.turnSummary) === 'explain' || /open question \(hint\b/.test(turn.agents.inputSummary ?? '')),
      })),
    );
    this.turns.forEach((turn, index) => {
      turn.leaks = leaks[index] ?? [];
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
      ...(this.session.studyPlan ? { learning: this.learningOutcome() } : {}),
    };
  }

  private learningOutcome(): CaseOutcome['learning'] {
    const learning = this.summary?.learning;
    if (!learning) return null;
    return {
      planTitle: learning.planTitle,
      stepsCovered: learning.stepsCovered,
      totalSteps: learning.totalSteps,
      stepsNotCovered: learning.steps.filter((step) => !step.covered).map((step) => step.number),
      concepts: learning.concepts.map((entry) => ({ concept: entry.concept, level: entry.level })),
      questions: learning.questions,
      trend: learning.trend,
    };
  }
}
