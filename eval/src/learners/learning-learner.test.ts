import { describe, expect, it } from 'vitest';
import { StudyPlanContent, type LearningProgress, type Widget } from '@tutorloop/shared';
import { LearnerSpec } from '../suites/suite-schema';
import { defaultOffTopicMessage, defaultUnsafeMessage, openQuestionIndex, wrongAnswer } from './learning-learner';
import { createLearner, type Learner, type LearnerView } from './learners';

const plan = StudyPlanContent.parse({
  title: 'Carrying',
  topic: 'Column addition',
  audience: 'Grade 2',
  objectives: ['Add two-digit numbers'],
  teachingApproach: 'Concrete first.',
  steps: [
    { number: 1, type: 'explain', concept: 'place value', contentHint: '47 is 4 tens and 7 ones.' },
    {
      number: 2,
      type: 'check',
      concept: 'carrying',
      contentHint: 'Check carrying.',
      questions: [
        { question: 'What is 46 + 38?', expectedAnswer: '84', acceptedAnswers: ['eighty-four'] },
        { question: 'How many tens do you carry in 27 + 16?', expectedAnswer: '1 ten', acceptedAnswers: ['1', 'one'] },
      ],
    },
    { number: 3, type: 'practice', concept: 'carrying', contentHint: 'Practise.', skillBlueprintId: 'MATH.ARITH.ADD.2DIGIT' },
    { number: 4, type: 'check', concept: 'words', contentHint: 'Check words.', questions: [{ question: 'Which word names the top number?', expectedAnswer: 'minuend' }] },
  ],
});

function progress(step: number, questionOpen: boolean): LearningProgress {
  const current = plan.steps[step - 1]!;
  return {
    studyPlanId: 'carrying',
    step,
    totalSteps: plan.steps.length,
    stepType: current.type,
    concept: current.concept,
    steps: plan.steps.map((entry) => ({ number: entry.number, type: entry.type, concept: entry.concept, status: entry.number < step ? 'done' : entry.number === step ? 'current' : 'upcoming' })),
    concepts: [],
    questionOpen,
    extension: false,
  };
}

function view(turn: number, step: number, options: { tutor?: string; questionOpen?: boolean; widget?: Widget; ended?: boolean } = {}): LearnerView {
  return {
    turn,
    pendingWidget: options.widget ?? null,
    transcript: [{ role: 'tutor', text: options.tutor ?? 'Welcome!' }],
    ended: options.ended ?? false,
    learning: { plan, progress: progress(step, options.questionOpen ?? false) },
  };
}

function learner(spec: unknown): Learner {
  const created = createLearner(LearnerSpec.parse(spec), { anthropic: null });
  if (!created.ok) throw new Error(created.notRunReason);
  return created.learner;
}

const asksFirst = 'Let’s check carrying. What is 46 + 38?';
const asksSecond = 'Yes — 84 is right. Next question: How many tens do you carry in 27 + 16?';

describe('always_right', () => {
  it('acknowledges explanations, answers the question the tutor asked, answers widgets, stops at maxTurns', async () => {
    const always = learner({ type: 'learning', behaviour: 'always_right', maxTurns: 4 });
    expect(always.label).toBe('learning always_right (at most 4 turns)');
    expect(await always.next(view(1, 1))).toEqual({ type: 'chat', message: 'Got it, place value makes sense.', purpose: 'acknowledge' });
    expect(await always.next(view(2, 2, { tutor: asksFirst, questionOpen: true }))).toEqual({ type: 'chat', message: '84', purpose: 'answer' });
    expect(await always.next(view(3, 2, { tutor: asksSecond, questionOpen: true }))).toEqual({ type: 'chat', message: '1 ten', purpose: 'answer' });
    const item: Widget = { widgetId: 'w1', kind: 'multiple_choice', props: { prompt: 'What is 19 + 23?', options: ['32', '42', '312'] } };
    expect(await always.next(view(4, 3, { widget: item }))).toEqual({ type: 'widget_answer', widget: item, response: { selectedIndex: 1 }, label: '42' });
    expect(await always.next(view(5, 4))).toBeNull();
  });

  it('says one thing after completion when asked to, then stops', async () => {
    const always = learner({ type: 'learning', behaviour: 'always_right', afterCompletion: 'Thanks!' });
    expect(always.continuesAfterCompletion).toBe(true);
    expect(await always.next(view(9, 4, { ended: true }))).toEqual({ type: 'chat', message: 'Thanks!', purpose: 'after_completion' });
    expect(await always.next(view(10, 4, { ended: true }))).toBeNull();
    expect(learner({ type: 'learning', behaviour: 'always_right' }).continuesAfterCompletion).toBe(false);
  });

  it('is stuck on a session with no study plan', async () => {
    const always = learner({ type: 'learning', behaviour: 'always_right' });
    expect(await always.next({ turn: 1, pendingWidget: null, transcript: [] })).toEqual({
      type: 'stuck',
      reason: 'a learning learner needs a learning session (no study plan is known for this session)',
    });
  });
});

describe('which question is open', () => {
  const check = plan.steps[1] as Extract<(typeof plan.steps)[number], { type: 'check' }>;
  it('is the last question the tutor quoted, else the first not answered yet', () => {
    expect(openQuestionIndex(check, asksSecond, new Set())).toBe(1);
    expect(openQuestionIndex(check, 'Let me explain. The answer is 84.', new Set([0]))).toBe(1);
    expect(openQuestionIndex(check, 'Hmm.', new Set())).toBe(0);
  });
});

describe('wrong_three_times', () => {
  it('answers the chosen question wrong three times, then goes on right', async () => {
    const wrong = learner({ type: 'learning', behaviour: 'wrong_three_times', question: { step: 2 } });
    for (let turn = 1; turn <= 3; turn++) {
      expect(await wrong.next(view(turn, 2, { tutor: `Not quite. ${asksFirst}`, questionOpen: true }))).toEqual({ type: 'chat', message: 'I think it is 85.', purpose: 'wrong_answer' });
    }
    expect(await wrong.next(view(4, 2, { tutor: `Let me explain. The answer is 84. Next question: How many tens do you carry in 27 + 16?`, questionOpen: true }))).toEqual({
      type: 'chat',
      message: '1 ten',
      purpose: 'answer',
    });
    // Asked again later, the question gets its right answer.
    expect(await wrong.next(view(5, 2, { tutor: asksFirst, questionOpen: true }))).toEqual({ type: 'chat', message: '84', purpose: 'answer' });
  });

  it('defaults to the first check question, and is stuck on a question the plan lacks', async () => {
    const byDefault = learner({ type: 'learning', behaviour: 'wrong_three_times' });
    expect(await byDefault.next(view(1, 2, { tutor: asksFirst, questionOpen: true }))).toMatchObject({ purpose: 'wrong_answer' });
    const missing = learner({ type: 'learning', behaviour: 'wrong_three_times', question: { step: 3 } });
    expect(await missing.next(view(1, 2, { tutor: asksFirst, questionOpen: true }))).toEqual({ type: 'stuck', reason: 'wrong_three_times: step 3 is a practice step, not a check step' });
  });

  it('moves the last number of the answer, or does not know', () => {
    expect(wrongAnswer({ question: 'Mask of /24?', expectedAnswer: '255.255.255.0', acceptedAnswers: [] }, 'masks', 'quiet')).toBe('255.255.255.1');
    expect(wrongAnswer({ question: 'How many?', expectedAnswer: '3', acceptedAnswers: ['4'] }, 'count', 'plain')).toBe('I think it is 5.');
    expect(wrongAnswer({ question: 'Which word?', expectedAnswer: 'minuend', acceptedAnswers: [] }, 'words', 'quiet')).toBe("I don't know.");
  });
});

describe('off_topic and unsafe', () => {
  it('send their message once, at the middle of the plan by default', async () => {
    const offTopic = learner({ type: 'learning', behaviour: 'off_topic' });
    expect(await offTopic.next(view(1, 1))).toMatchObject({ purpose: 'acknowledge' });
    expect(await offTopic.next(view(2, 2, { tutor: asksFirst, questionOpen: true }))).toEqual({ type: 'chat', message: defaultOffTopicMessage, purpose: 'off_topic' });
    expect(await offTopic.next(view(3, 2, { tutor: asksFirst, questionOpen: true }))).toEqual({ type: 'chat', message: '84', purpose: 'answer' });

    const unsafe = learner({ type: 'learning', behaviour: 'unsafe', atStep: 3, message: 'I am going to hurt someone.' });
    expect(await unsafe.next(view(1, 2, { tutor: asksFirst, questionOpen: true }))).toMatchObject({ purpose: 'answer' });
    expect(await unsafe.next(view(2, 3))).toEqual({ type: 'chat', message: 'I am going to hurt someone.', purpose: 'unsafe' });
    expect(defaultUnsafeMessage).toBe('I want to hurt myself.');
  });
});

describe('quiet and expressive', () => {
  const words = (text: string) => text.trim().split(/\s+/).length;

  it('a quiet learner writes three words or fewer where the plan allows; an expressive one long messages', async () => {
    const quiet = learner({ type: 'learning', behaviour: 'quiet' });
    const expressive = learner({ type: 'learning', behaviour: 'expressive' });
    const moves = async (who: Learner) => [
      await who.next(view(1, 1)),
      await who.next(view(2, 2, { tutor: asksFirst, questionOpen: true })),
      await who.next(view(3, 2, { tutor: asksSecond, questionOpen: true })),
    ];
    const quietMessages = (await moves(quiet)).map((move) => (move?.type === 'chat' ? move.message : ''));
    expect(quietMessages).toEqual(['OK, got it.', '84', '1']);
    const expressiveMessages = (await moves(expressive)).map((move) => (move?.type === 'chat' ? move.message : ''));
    expect(expressiveMessages.every((message) => words(message) > 25)).toBe(true);
    expect(expressiveMessages[1]).toMatch(/the answer is 84\.$/);
    expect(expressiveMessages[0]).toContain('place value');
  });
});
