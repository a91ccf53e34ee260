/** The state-update rules of a learning turn (SPEC §4.4 step 6), pure. */
import { describe, expect, it } from 'vitest';
import { applyTurn, blendMastery, initialLearningState, learningProgress, masteryLevel, phaseAfterWrong, practiceOwed } from './learning-rules';
import { additionPlan } from './test-fixtures';
import type { TutorTurn } from './tutor-turn';

const turn = (fields: Partial<TutorTurn> = {}): TutorTurn => ({
  response: 'ok',
  intent: 'answer',
  answerCorrect: null,
  misconceptions: [],
  masterySignal: 'adequate',
  masteryUpdates: [],
  advanceToStep: null,
  question: null,
  sessionComplete: false,
  turnSummary: '',
  reasoning: '',
  ...fields,
});
const facts = { turn: 1, learnerMessage: 'an answer', practiceCredit: null };
const start = initialLearningState('addition', additionPlan);
const withQuestion = applyTurn({ ...start, currentStep: 2 }, turn({ question: { text: 'How many tens are in 58?', expectedAnswer: 'whatever the model says', concept: 'place value' } }), facts).state;

describe('mastery (SPEC §4.4: documented update rule)', () => {
  it('moves halfway toward each piece of evidence, from 0', () => {
    expect(blendMastery(undefined, 1)).toBe(0.5);
    expect(blendMastery(0.5, 1)).toBe(0.75);
    expect(blendMastery(0.75, 0)).toBe(0.375);
    expect(blendMastery(0.2, 7)).toBe(0.6);
  });

  it('has coarse levels: not started, learning < 0.4 ≤ developing < 0.8 ≤ mastered', () => {
    expect([undefined, 0, 0.399, 0.4, 0.799, 0.8].map(masteryLevel)).toEqual(['not_started', 'learning', 'learning', 'developing', 'developing', 'mastered']);
  });

  it('ignores unknown concepts and counts a practice score over the model’s estimate', () => {
    const practice = { ...start, currentStep: 3 };
    const applied = applyTurn(practice, turn({ masteryUpdates: [{ concept: 'column addition', score: 1 }, { concept: 'astrology', score: 1 }] }), { ...facts, practiceCredit: 0 });
    expect(applied.state.mastery).toEqual({ 'column addition': 0 });
  });
});

describe('question lifecycle (SPEC §4.4: asked → probe → hint → explain)', () => {
  it('judges a plan question against the author’s answer, not the model’s', () => {
    expect(withQuestion.openQuestion).toMatchObject({ expectedAnswer: '5', acceptedAnswers: ['five tens'], planQuestion: 0, phase: 'asked' });
    expect(withQuestion.planQuestionsAsked).toEqual(['2:0']);
  });

  it('moves to probe, hint, then explain (which closes it) on wrong answers', () => {
    expect([1, 2, 3, 4].map(phaseAfterWrong)).toEqual(['probe', 'hint', 'explain', 'explain']);
    let state = withQuestion;
    const phases: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const applied = applyTurn(state, turn({ answerCorrect: false }), facts);
      phases.push(applied.state.openQuestion?.phase ?? `closed:${applied.closedQuestion?.outcome}`);
      state = applied.state;
    }
    expect(phases).toEqual(['probe', 'hint', 'closed:explained']);
    expect(state.mastery['place value']).toBe(0);
  });

  it('clears the question on a right answer and resolves the concept’s misconceptions', () => {
    const confused = applyTurn(withQuestion, turn({ answerCorrect: false, misconceptions: [{ concept: 'place value', description: 'reads digits as ones' }] }), facts).state;
    expect(confused.misconceptions).toEqual([{ concept: 'place value', description: 'reads digits as ones', timesSeen: 1, resolved: false }]);
    const right = applyTurn(confused, turn({ answerCorrect: true }), facts);
    expect(right.state.openQuestion).toBeNull();
    expect(right.closedQuestion?.outcome).toBe('right');
    expect(right.state.misconceptions[0]!.resolved).toBe(true);
    expect(right.state.questionsRight).toBe(1);
  });

  it('does not judge a turn that was not an answer', () => {
    const applied = applyTurn(withQuestion, turn({ answerCorrect: null, intent: 'question' }), facts);
    expect(applied.state.openQuestion).toEqual(withQuestion.openQuestion);
  });
});

describe('steps and completion (SPEC §4.4)', () => {
  it('advances forward, refuses to go back unless the plan allows it', () => {
    const at3 = applyTurn(start, turn({ advanceToStep: 3 }), facts).state;
    expect(at3.currentStep).toBe(3);
    expect(at3.stepsReached).toEqual([1, 3]);
    const back = applyTurn(at3, turn({ advanceToStep: 2 }), facts);
    expect(back.state.currentStep).toBe(3);
    expect(back.refused).toHaveLength(1);
    expect(applyTurn({ ...at3, plan: { ...additionPlan, allowBacktrack: true } }, turn({ advanceToStep: 2 }), facts).state.currentStep).toBe(2);
  });

  it('refuses session_complete before the final step', () => {
    const applied = applyTurn({ ...start, currentStep: 3 }, turn({ sessionComplete: true }), facts);
    expect(applied.completeSession).toBe(false);
    expect(applied.state.planComplete).toBe(false);
    expect(applied.refused[0]).toMatch(/only the final step/);
  });

  it('completes on the final step, or by stepping past it from there', () => {
    expect(applyTurn({ ...start, currentStep: 4 }, turn({ sessionComplete: true }), facts).completeSession).toBe(true);
    expect(applyTurn({ ...start, currentStep: 4 }, turn({ advanceToStep: 5 }), facts).completeSession).toBe(true);
    expect(applyTurn({ ...start, currentStep: 3 }, turn({ advanceToStep: 5 }), facts).completeSession).toBe(false);
  });

  it('gives an aced plan that allows it up to 10 extension turns', () => {
    const aced = { ...start, currentStep: 4, plan: { ...additionPlan, allowExtension: true }, mastery: { 'place value': 1, 'column addition': 1, carrying: 1 } };
    let applied = applyTurn(aced, turn({ sessionComplete: true }), facts);
    expect(applied.completeSession).toBe(false);
    expect(applied.state.extensionTurns).toBe(0);
    for (let extra = 1; extra < 10; extra++) {
      applied = applyTurn(applied.state, turn(), facts);
      expect(applied.completeSession).toBe(false);
    }
    expect(applyTurn(applied.state, turn(), facts).completeSession).toBe(true);
    const notAced = applyTurn({ ...aced, mastery: { 'place value': 0.5 } }, turn({ sessionComplete: true }), facts);
    expect(notAced.completeSession).toBe(true);
  });

  it('counts off-topic turns', () => {
    expect(applyTurn(start, turn({ intent: 'off_topic' }), facts).state.offTopicCount).toBe(1);
  });

  it('owes a practice item on a practice step until its items are presented', () => {
    expect(practiceOwed({ ...start, currentStep: 3 })).toBe(true);
    expect(practiceOwed({ ...start, currentStep: 3, practice: { step: 3, presented: 1, answered: 0 } })).toBe(false);
    expect(practiceOwed({ ...start, currentStep: 3, practice: { step: 3, presented: 1, answered: 1 } })).toBe(false);
    expect(practiceOwed({ ...start, currentStep: 2 })).toBe(false);
  });

  it('shows the learner the step, coarse mastery and whether a question is open — nothing else', () => {
    const progress = learningProgress(withQuestion);
    expect(progress).toMatchObject({ step: 2, totalSteps: 4, stepType: 'check', concept: 'place value', questionOpen: true, extension: false });
    expect(JSON.stringify(progress)).not.toMatch(/expected|58|whatever/);
  });
});
