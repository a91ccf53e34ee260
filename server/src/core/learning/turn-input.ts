/**
 * The master tutor's input for one turn (SPEC §4.4 step 4), built fresh from the snapshot: the
 * step and the plan's questions not asked yet, mastery, misconceptions, the timeline, the
 * pacing directive and learner style, the open question, the practice view and the last 10
 * messages; and the one line that sums it up in the agent logs.
 */
import type { StoredMessage } from '../storage/messages';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { LearningSessionState } from './learning-state';
import type { MasterTurnInput, PracticeView } from './learning-port';
import { meanMastery, planConcepts, stepOf } from './learning-rules';
import { recentOf } from './learning-view';
import { learnerStyle, pacingDirective } from './signals';

export function masterTurnInput(sessionId: string, snapshot: SessionSnapshot, state: LearningSessionState, message: StoredMessage, practice: PracticeView | null): MasterTurnInput {
  const step = stepOf(state);
  const learnerTexts = snapshot.messages.filter((stored) => stored.role === 'learner' && stored.seq <= message.seq).map((stored) => stored.content);
  const mean = meanMastery(state.plan, state.mastery);
  return {
    sessionId: sessionId,
    studyPlanId: state.studyPlanId,
    plan: state.plan,
    turn: snapshot.session.turn,
    step,
    unaskedQuestions: step.type === 'check' ? step.questions.map((_, index) => index).filter((index) => !state.planQuestionsAsked.includes(`${step.number}:${index}`)) : [],
    mastery: planConcepts(state.plan).map((concept) => ({ concept, score: state.mastery[concept] ?? null })),
    misconceptions: state.misconceptions,
    timeline: state.timeline.map((entry) => `turn ${entry.turn}, step ${entry.step}: ${entry.summary || entry.intent}`),
    pacing: pacingDirective({ turn: snapshot.session.turn, meanMastery: mean, anyEvidence: Object.keys(state.mastery).length > 0, timeline: state.timeline, planComplete: state.planComplete }),
    style: learnerStyle(learnerTexts),
    openQuestion: state.openQuestion,
    recentMessages: recentOf(snapshot.messages, message),
    learnerMessage: message.role === 'learner' ? message.content : null,
    practice,
    extension: state.extensionTurns !== null,
    planComplete: state.planComplete,
  };
}

export function describeInput(input: MasterTurnInput): string {
  const open = input.openQuestion ? `; open question (${input.openQuestion.phase}, ${input.openQuestion.wrongAttempts} wrong)` : '';
  const what = input.learnerMessage !== null ? `learner: "${input.learnerMessage.slice(0, 80)}"` : `practice answer${input.practice?.outcome ? (input.practice.outcome.correct ? ' (right)' : ' (wrong)') : ''}`;
  return `turn ${input.turn}, step ${input.step.number} [${input.step.type}] ${input.step.concept}; pacing ${input.pacing}; style ${input.style.level}${input.style.disengaged ? ' (disengaging)' : ''}${open}; ${what}`;
}
