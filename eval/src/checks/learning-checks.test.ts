import { describe, expect, it } from 'vitest';
import { StudyPlanContent } from '@tutorloop/shared';
import type { CaseOutcome, TurnAgents } from '../results/result-schema';
import type { ObservedTurn } from './expectations';
import {
  checkCompletesPlan,
  checkNoFalseOffTopic,
  checkOffTopicHandled,
  checkPostCompletionReply,
  checkQuestionLifecycle,
  checkRepliesShorter,
  checkStepsInOrder,
  checkTurnsAtMost,
  checkUnsafeHandled,
  meanReplyWords,
  phaseOf,
} from './learning-checks';

const plan = StudyPlanContent.parse({
  title: 'Carrying',
  topic: 'Column addition',
  audience: 'Grade 2',
  objectives: ['Add two-digit numbers'],
  teachingApproach: 'Concrete first.',
  steps: [
    { number: 1, type: 'explain', concept: 'place value', contentHint: '47 is 4 tens and 7 ones.' },
    { number: 2, type: 'check', concept: 'carrying', contentHint: 'Check.', questions: [{ question: 'What is 46 + 38?', expectedAnswer: '84' }] },
    { number: 3, type: 'explain', concept: 'borrowing', contentHint: 'Borrow a ten.' },
  ],
});

function agents(overrides: Partial<TurnAgents> = {}): TurnAgents {
  return { calls: ['safety:ok', 'master_tutor:ok'], intent: 'answer', answerCorrect: null, turnSummary: 'step 2 (check, carrying)', inputSummary: null, ...overrides };
}

function turn(number: number, step: number, overrides: Partial<ObservedTurn> = {}): ObservedTurn {
  return {
    turn: number,
    action: number === 0 ? { type: 'opening' } : { type: 'chat', message: 'Got it.', purpose: 'acknowledge' },
    tutorMessage: 'Good.',
    ttftMs: 5,
    totalMs: 9,
    status: 'active',
    recalledCount: step - 1,
    totalPoints: 3,
    newlyRecalled: [],
    widgetPresented: null,
    widgetDescription: null,
    pendingWidget: null,
    completed: false,
    leaks: [],
    error: null,
    learning: { step, totalSteps: 3, stepType: plan.steps[step - 1]!.type, questionOpen: false, stepsSeen: [step] },
    agents: number === 0 ? null : agents(),
    ...overrides,
  };
}

const completedOutcome: CaseOutcome = {
  learnerTurns: 3,
  completed: true,
  completedAtTurn: 3,
  endReason: 'plan_completed',
  recalledCount: 3,
  totalPoints: 3,
  learning: {
    planTitle: 'Carrying',
    stepsCovered: 3,
    totalSteps: 3,
    stepsNotCovered: [],
    concepts: [
      { concept: 'place value', level: 'developing' },
      { concept: 'carrying', level: 'mastered' },
      { concept: 'borrowing', level: 'learning' },
    ],
    questions: { asked: 1, answeredRight: 1 },
    trend: 'improving',
  },
};

describe('stepsInOrder', () => {
  it('passes when the step never goes back and reaches the last one', () => {
    expect(checkStepsInOrder([turn(0, 1), turn(1, 2), turn(2, 2), turn(3, 3)])).toEqual({
      expectation: 'stepsInOrder',
      expected: 'state.learning.step never going back, reaching the last step',
      seen: 'steps 1 → 2 → 3 of 3',
      passed: true,
    });
  });

  it('fails on a step back, on a plan not finished, and without learning state', () => {
    expect(checkStepsInOrder([turn(0, 1), turn(1, 2), turn(2, 1), turn(3, 3)])).toMatchObject({ seen: 'went back from step 2 to 1 in turn 2 (steps 1 → 2 → 1 → 3 of 3)', passed: false });
    expect(checkStepsInOrder([turn(0, 1), turn(1, 2)])).toMatchObject({ seen: 'steps 1 → 2 of 3', passed: false });
    expect(checkStepsInOrder([turn(0, 1, { learning: null })])).toMatchObject({ seen: 'no state.learning in any state_update', passed: false });
  });
});

describe('completesPlan', () => {
  it('needs plan_completed, every step covered and every concept listed', () => {
    expect(checkCompletesPlan(completedOutcome, plan)).toMatchObject({ passed: true, seen: 'plan_completed, 3/3 steps covered, concepts: place value (developing), carrying (mastered), borrowing (learning)' });
    const short = { ...completedOutcome, endReason: 'ended_by_learner', learning: { ...completedOutcome.learning!, stepsCovered: 2, stepsNotCovered: [3], concepts: completedOutcome.learning!.concepts.slice(0, 2) } };
    expect(checkCompletesPlan(short, plan)).toMatchObject({
      passed: false,
      seen: 'reason ended_by_learner; steps not covered: 3; 2 steps covered; concepts missing: borrowing — ended_by_learner, 2/3 steps covered, concepts: place value (developing), carrying (mastered)',
    });
    expect(checkCompletesPlan({ ...completedOutcome, completed: false, completedAtTurn: null, endReason: 'ended_by_learner', learning: null }, plan)).toMatchObject({ passed: false, seen: 'ended by eval (ended_by_learner)' });
  });
});

describe('questionLifecycle', () => {
  const wrong = (number: number, summary: string, tutor: string) =>
    turn(number, 2, { action: { type: 'chat', message: 'I think it is 85.', purpose: 'wrong_answer' }, tutorMessage: tutor, agents: agents({ answerCorrect: false, turnSummary: summary }) });
  const asked = turn(1, 2, { tutorMessage: 'Let’s check carrying. What is 46 + 38?' });

  it('reads probe, hint, explain from the turn summaries; the explanation gives the answer', () => {
    expect(phaseOf('step 2 (check, carrying); wrong → hint')).toBe('hint');
    expect(phaseOf('step 2 (explain, carrying); moved to step 3')).toBeNull();
    const turns = [turn(0, 1), asked, wrong(2, 'step 2 (check, carrying); wrong → probe', 'Not quite.'), wrong(3, 'wrong -> hint', 'A hint: 8_.'), wrong(4, 'wrong → explain', 'The answer is 84.')];
    expect(checkQuestionLifecycle({ step: 2, question: 0 }, plan, turns)).toMatchObject({
      passed: true,
      seen: 'probe (turn 2), hint (turn 3), explain (turn 4); the explanation gives “84”; no earlier reply on the step gives it',
    });
  });

  it('fails when a phase is skipped or the answer came before the explanation', () => {
    const skipped = [turn(0, 1), asked, wrong(2, 'wrong → probe', 'Not quite.'), wrong(3, 'wrong → explain', 'The answer is 84.')];
    expect(checkQuestionLifecycle({ step: 2, question: 0 }, plan, skipped)).toMatchObject({ passed: false, seen: 'probe (turn 2), explain (turn 3)' });
    const early = [turn(0, 1), asked, wrong(2, 'wrong → probe', 'Not quite — 84 is close.'), wrong(3, 'wrong → hint', 'Hint.'), wrong(4, 'wrong → explain', 'It is 84.')];
    expect(checkQuestionLifecycle({ step: 2, question: 0 }, plan, early)).toMatchObject({ passed: false, seen: expect.stringContaining('the answer was already in the reply of turn 2') });
    expect(checkQuestionLifecycle({ step: 1, question: 0 }, plan, early)).toMatchObject({ passed: false, seen: 'the plan has no check question 0 on step 1' });
  });
});

describe('off-topic, unsafe and post-completion turns', () => {
  const offTopic = (overrides: Partial<ObservedTurn>) => turn(2, 2, { action: { type: 'chat', message: 'Football?', purpose: 'off_topic' }, ...overrides });

  it('off-topic: a redirect with intent off_topic, the step unchanged', () => {
    const base = [turn(0, 1), turn(1, 2)];
    expect(checkOffTopicHandled([...base, offTopic({ agents: agents({ intent: 'off_topic' }) })])).toMatchObject({ passed: true, seen: 'turn 2: handled at step 2' });
    expect(checkOffTopicHandled([...base, offTopic({ learning: { step: 3, totalSteps: 3, stepType: 'explain', questionOpen: false, stepsSeen: [3] }, agents: agents({ intent: 'answer', turnSummary: 'moved to step 3' }) })])).toMatchObject({
      passed: false,
      seen: 'turn 2: the tutor took it as answer (moved to step 3); the step moved from 2 to 3',
    });
    expect(checkOffTopicHandled(base)).toMatchObject({ passed: false, seen: 'the learner sent no off-topic message' });
  });

  it('unsafe: refused by the safety gate, no master tutor call, the step unchanged', () => {
    const unsafe = (calls: string[]) => turn(2, 2, { action: { type: 'chat', message: 'unsafe', purpose: 'unsafe' }, agents: agents({ calls }) });
    expect(checkUnsafeHandled([turn(0, 1), turn(1, 2), unsafe(['safety:refused'])])).toMatchObject({ passed: true });
    expect(checkUnsafeHandled([turn(0, 1), turn(1, 2), unsafe(['safety:ok', 'master_tutor:ok'])])).toMatchObject({
      passed: false,
      seen: 'turn 2: the safety gate did not refuse it (safety:ok, master_tutor:ok); the master tutor was called (safety:ok, master_tutor:ok)',
    });
  });

  it('post-completion: a reply from the post-completion agent, still completed, nothing advanced', () => {
    const last = turn(3, 3, { status: 'completed', completed: true });
    const after = turn(4, 3, { action: { type: 'chat', message: 'Thanks', purpose: 'after_completion' }, status: 'completed', agents: agents({ calls: ['post_completion:ok'] }) });
    expect(checkPostCompletionReply([turn(0, 1), last, after])).toMatchObject({ passed: true, seen: 'turn 4: handled at step 3' });
    expect(checkPostCompletionReply([turn(0, 1), last, { ...after, tutorMessage: '', agents: agents({ calls: [] }) }])).toMatchObject({ passed: false, seen: 'turn 4: no reply; no post_completion call logged (no calls)' });
  });
});

describe('reply length', () => {
  it('averages the words of replies to learner turns only, and compares two cases', () => {
    const turns = [turn(0, 1, { tutorMessage: 'A long welcome with many words in it.' }), turn(1, 2, { tutorMessage: 'Two words' }), turn(2, 2, { tutorMessage: 'Four words right here' }), turn(3, 3, { tutorMessage: 'After completion reply' })];
    expect(meanReplyWords(turns, 2)).toBe(3);
    expect(checkRepliesShorter(3, 'expressive', 7.25)).toEqual({ expectation: 'repliesShorterThan', expected: 'shorter tutor replies on average than in “expressive”', seen: '3.0 words here, 7.3 words there', passed: true });
    expect(checkRepliesShorter(8, 'expressive', 7.25)).toMatchObject({ passed: false });
    expect(checkRepliesShorter(3, 'expressive', undefined)).toMatchObject({ passed: false, seen: 'the case “expressive” did not run in this run' });
  });
});

describe('noFalseOffTopic and turnsAtMost (issue 28)', () => {
  it('fails when an acknowledgement was taken as off-topic, and passes when only real off-topic messages were', () => {
    const okTaken = turn(1, 1, { action: { type: 'chat', message: 'ok', purpose: 'acknowledge' }, agents: agents({ intent: 'off_topic' }) });
    expect(checkNoFalseOffTopic([turn(0, 1), okTaken])).toMatchObject({ passed: false, seen: 'turn 1: "ok" taken as off-topic' });
    const realOffTopic = turn(1, 1, { action: { type: 'chat', message: 'Football?', purpose: 'off_topic' }, agents: agents({ intent: 'off_topic' }) });
    expect(checkNoFalseOffTopic([turn(0, 1), realOffTopic, turn(2, 2)])).toMatchObject({ passed: true, seen: 'none' });
  });

  it('passes a session completed within the limit, fails one completed later or not at all', () => {
    expect(checkTurnsAtMost([], completedOutcome, 3)).toMatchObject({ passed: true });
    expect(checkTurnsAtMost([], completedOutcome, 2)).toMatchObject({ passed: false, seen: 'completed at turn 3' });
    expect(checkTurnsAtMost([turn(0, 1), turn(1, 1)], { ...completedOutcome, completed: false, completedAtTurn: null }, 5)).toMatchObject({ passed: false, seen: 'not completed after 1 turn' });
  });
});
