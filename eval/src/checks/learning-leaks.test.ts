import { describe, expect, it } from 'vitest';
import { StudyPlanContent, type ServerEvent, type SessionState } from '@tutorloop/shared';
import { internalLeaks, learningLeaks, numericInternals, visibleStrings, type LearningLeakTurn } from './learning-leaks';

const plan = StudyPlanContent.parse({
  title: 'Subnets',
  topic: 'IPv4',
  audience: 'first year',
  objectives: ['Find network addresses'],
  teachingApproach: 'Binary first.',
  steps: [
    { number: 1, type: 'explain', concept: 'network address', contentHint: '192.168.1.77/24 is in network 192.168.1.0.' },
    {
      number: 2,
      type: 'check',
      concept: 'network address',
      contentHint: 'Check it.',
      questions: [
        { question: 'What is the network address of 192.168.1.77/24?', expectedAnswer: '192.168.1.0', acceptedAnswers: ['192.168.1.0/24'] },
        { question: 'How many host bits does a /26 leave?', expectedAnswer: '6' },
      ],
    },
  ],
});

const assistant = (message: string): ServerEvent => ({ type: 'assistant', payload: { messageId: 'm1', message } });

function turn(number: number, stepAfter: number, tutor: string, extra: Partial<LearningLeakTurn> = {}): LearningLeakTurn {
  return { turn: number, frames: [assistant(tutor)], learnerMessage: number === 0 ? null : 'Got it.', stepAfter, explained: false, ...extra };
}

describe('what a frame shows', () => {
  it('takes every string but ids, timestamps and multiple-choice options', () => {
    const widget: ServerEvent = { type: 'widget', payload: { widgetId: 'w-1', kind: 'multiple_choice', props: { prompt: 'Which one?', options: ['192.168.1.0', '192.168.1.1'], context: 'Practice' } } };
    expect(visibleStrings(widget)).toEqual(['multiple_choice', 'Which one?', 'Practice']);
  });

  it('finds numbers under mastery-like keys anywhere in a frame', () => {
    const state = { status: 'active', sessionId: 's', type: 'learning', mode: 'recall', turn: 2, recalledCount: 0, totalPoints: 2, learning: { mastery: 0.5, concepts: [{ concept: 'x', level: 'mastered', score: 1 }] } };
    expect(numericInternals({ type: 'state_update', payload: { state: state as unknown as SessionState } })).toEqual(['state.learning.mastery = 0.5', 'state.learning.concepts[0].score = 1']);
  });
});

describe('internal language in learning frames', () => {
  it('flags internal field names, a field-like reasoning and mastery numbers, not ordinary tutoring talk', () => {
    expect(internalLeaks([assistant('Nice reasoning! Your mastery of this is growing, and you have mastered subnets.')])).toEqual([]);
    expect(internalLeaks([assistant('turn_summary: wrong → probe. reasoning: lexical. expected_answer 84. Your mastery is 0.75 now.')]).map((leak) => leak.detail)).toEqual([
      'turn_summary',
      'expected_answer',
      'reasoning',
      'mastery number',
    ]);
    expect(internalLeaks([assistant('You reached 80% mastery!')])).toMatchObject([{ kind: 'internal_language', detail: 'mastery number' }]);
    expect(internalLeaks([assistant('Good — the student is doing well.')])).toMatchObject([{ detail: "the student's" }]);
  });
});

describe('expected answers before they are earned', () => {
  it('flags an answer shown on its own step before the learner gave it', () => {
    const leaks = learningLeaks(plan, [
      turn(0, 1, 'Welcome! 192.168.1.77/24 is in network 192.168.1.0.'),
      turn(1, 2, 'Let’s check. What is the network address of 192.168.1.77/24? (It is 192.168.1.0.)'),
      turn(2, 2, 'Yes — 192.168.1.0 is right.', { learnerMessage: '192.168.1.0' }),
    ]);
    // An earlier step may use the example on purpose; on the question's own step it gives the answer away.
    expect(leaks).toEqual([
      [],
      [{ kind: 'expected_answer', detail: 'step 2: What is the network address of 192.168.1.77/24?', excerpt: 'the answer “192.168.1.0”' }],
      [],
    ]);
  });

  it('lets the explanation give it, and does not police one-character answers', () => {
    const leaks = learningLeaks(plan, [
      turn(1, 2, 'What is the network address of 192.168.1.77/24?'),
      turn(2, 2, 'Let me explain. The answer is 192.168.1.0. Next: how many host bits does a /26 leave? Hint: 6 is close.', { learnerMessage: 'I think it is 192.168.1.2.', explained: true }),
    ]);
    expect(leaks).toEqual([[], []]);
  });
});
