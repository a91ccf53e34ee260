import { describe, expect, it } from 'vitest';
import { parseSuite } from './load-suites';

const session = { type: 'learning', studyPlanId: 'carrying-and-borrowing' };
const learner = { type: 'learning', behaviour: 'always_right' };

function parsed(suite: unknown) {
  return parseSuite('eval/suites/learning.json', JSON.stringify(suite));
}

function errorsOf(suite: unknown): string[] {
  const result = parsed(suite);
  return result.ok ? [] : result.errors;
}

/** A plan written inline in a suite (created with POST /api/study-plans for the case). */
const inlinePlan = {
  title: 'Halves',
  topic: 'Fractions',
  audience: 'Grade 3',
  objectives: ['Know what a half is'],
  teachingApproach: 'Concrete first.',
  steps: [
    { number: 1, type: 'explain', concept: 'halves', contentHint: 'A half is one of two equal parts.' },
    { number: 2, type: 'check', concept: 'halves', contentHint: 'Check it.', questions: [{ question: 'What is half of 10?', expectedAnswer: '5' }] },
  ],
};

describe('learning sessions in suites', () => {
  it('accepts a built-in plan by id, a plan-following learner with its defaults, and the learning expectations', () => {
    const result = parsed({
      session,
      cases: [
        {
          name: 'wrong',
          learner: { type: 'learning', behaviour: 'wrong_three_times', question: { step: 4 } },
          expect: { questionLifecycle: { step: 4 }, stepsInOrder: true, completesPlan: true, offTopicHandled: true, unsafeHandled: true, postCompletionReply: true, repliesShorterThan: 'right' },
        },
        { name: 'right', learner: { ...learner, afterCompletion: 'Thanks!' }, expect: { completesPlan: true } },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [wrong, right] = result.value.cases;
    expect(wrong?.session).toEqual(session);
    // Defaults: the step's first question, and at most 80 turns.
    expect(wrong?.learner).toEqual({ type: 'learning', behaviour: 'wrong_three_times', question: { step: 4, question: 0 }, maxTurns: 80 });
    expect(wrong?.expect?.questionLifecycle).toEqual({ step: 4, question: 0 });
    expect(right?.learner).toEqual({ type: 'learning', behaviour: 'always_right', afterCompletion: 'Thanks!', maxTurns: 80 });
  });

  it('accepts a plan written in the suite, validated by the shared study plan schema', () => {
    const result = parsed({ session: { type: 'learning', plan: inlinePlan }, cases: [{ name: 'one', learner }] });
    expect(result.ok && result.value.cases[0]?.session).toMatchObject({ type: 'learning', plan: { title: 'Halves', allowExtension: false } });
    expect(errorsOf({ session: { type: 'learning', plan: { ...inlinePlan, steps: [{ ...inlinePlan.steps[0], number: 2 }] } }, cases: [{ name: 'one', learner }] })).toEqual([
      'eval/suites/learning.json: session.plan.steps[0].number: must be 1: steps are numbered 1..N in order',
    ]);
  });

  it('needs exactly one of studyPlanId or plan', () => {
    expect(errorsOf({ session: { type: 'learning' }, cases: [{ name: 'one', learner }] })).toEqual([
      'eval/suites/learning.json: session: a learning session needs exactly one of "studyPlanId" or "plan"',
    ]);
    expect(errorsOf({ session: { type: 'learning', studyPlanId: 'x', plan: inlinePlan }, cases: [{ name: 'one', learner }] })).toEqual([
      'eval/suites/learning.json: session: a learning session needs exactly one of "studyPlanId" or "plan"',
    ]);
  });

  it('names the field of a misspelt key, an unknown behaviour or an option of another behaviour', () => {
    expect(errorsOf({ session, cases: [{ name: 'one', learner: { ...learner, behavior: 'quiet' }, expect: { stepsInorder: true } }] })).toEqual([
      'eval/suites/learning.json: cases[0].learner: Unrecognized key: "behavior"',
      'eval/suites/learning.json: cases[0].expect: Unrecognized key: "stepsInorder"',
    ]);
    expect(errorsOf({ session, cases: [{ name: 'one', learner: { type: 'learning', behaviour: 'sleepy' } }] })).toEqual([
      'eval/suites/learning.json: cases[0].learner.behaviour: Invalid option: expected one of "always_right"|"wrong_three_times"|"off_topic"|"unsafe"|"quiet"|"expressive"|"natural"',
    ]);
    expect(errorsOf({ session, cases: [{ name: 'one', learner: { ...learner, question: { step: 2 }, atStep: 3, message: 'hi' } }] })).toEqual([
      'eval/suites/learning.json: cases[0].learner.question: only the wrong_three_times behaviour answers a question wrong',
      'eval/suites/learning.json: cases[0].learner.atStep: only the off_topic and unsafe behaviours send a message of their own',
      'eval/suites/learning.json: cases[0].learner.message: only the off_topic and unsafe behaviours send a message of their own',
    ]);
  });

  it('refuses a learning learner on another kind of session, and a comparison with no other case', () => {
    const recall = { type: 'recall', recallSet: { name: 'Set', points: [{ content: 'Paris is the capital of France' }] } };
    expect(
      errorsOf({
        session: recall,
        cases: [
          { name: 'one', learner, expect: { repliesShorterThan: 'two' } },
          { name: 'self', session, learner, expect: { repliesShorterThan: 'self' } },
        ],
      }),
    ).toEqual([
      'eval/suites/learning.json: cases[0].learner.type: a learning learner follows a study plan: it needs a learning session, not recall',
      'eval/suites/learning.json: cases[0].expect.repliesShorterThan: must name another case of this suite (there is no case "two")',
      'eval/suites/learning.json: cases[1].expect.repliesShorterThan: must name another case of this suite, not this one',
    ]);
  });
});
