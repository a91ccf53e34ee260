import { StudyPlanContent } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import {
  describePlanField,
  formatOfFile,
  learningSessionLabel,
  lineOffset,
  parsePlanProblems,
  planBadges,
  planTemplates,
  stepLabel,
  stepRatio,
} from './learning';

describe('parsePlanProblems (the server’s `field: message` list, SPEC §4.4)', () => {
  it('splits a create/update refusal into one problem per field, named for people', () => {
    expect(parsePlanProblems('plan.steps.2.concept: is empty; plan.objectives: a plan needs at least one learning objective')).toEqual([
      { field: 'plan.steps.2.concept', label: 'Step 3 › Concept', message: 'is empty', line: null },
      { field: 'plan.objectives', label: 'Objectives', message: 'a plan needs at least one learning objective', line: null },
    ]);
  });

  it('keeps the line of a Markdown import and a "; " inside one problem’s own message', () => {
    expect(
      parsePlanProblems(
        'steps.1.questions.0.expectedAnswer: is missing; write it on an "A:" line under the question (line 14); front matter: must be the plan’s fields as YAML (line 2)',
      ),
    ).toEqual([
      {
        field: 'steps.1.questions.0.expectedAnswer',
        label: 'Step 2 › Question 1 › Expected answer',
        message: 'is missing; write it on an "A:" line under the question',
        line: 14,
      },
      { field: 'front matter', label: 'Front matter', message: 'must be the plan’s fields as YAML', line: 2 },
    ]);
  });

  it('says how many more problems the server left out, and keeps a message that names no field', () => {
    expect(parsePlanProblems('plan.title: is empty; and 3 more').map((problem) => problem.message)).toEqual(['is empty', '…and 3 more problems']);
    expect(parsePlanProblems('Built-in study plans cannot be changed; import a copy to edit it.')).toEqual([
      { field: null, label: null, message: 'Built-in study plans cannot be changed; import a copy to edit it.', line: null },
    ]);
  });

  it('names list entries from 1 and the plan or body itself', () => {
    expect(describePlanField('body.plan.misconceptions.0.description')).toBe('Misconception 1 › Description');
    expect(describePlanField('plan.steps.4.skillBlueprintId')).toBe('Step 5 › Skill blueprint');
    expect(describePlanField('plan.steps.0.questions.1.acceptedAnswers.2')).toBe('Step 1 › Question 2 › Accepted answer 3');
    expect(describePlanField('plan')).toBe('Plan');
    expect(describePlanField('text')).toBe('Text');
  });
});

describe('lineOffset', () => {
  it('selects a whole line, and the end for a line past the text', () => {
    const text = 'one\ntwo\nthree';
    expect(lineOffset(text, 2)).toEqual({ start: 4, end: 7 });
    expect(text.slice(lineOffset(text, 3).start, lineOffset(text, 3).end)).toBe('three');
    expect(lineOffset(text, 9)).toEqual({ start: text.length, end: text.length });
  });
});

describe('plans', () => {
  it('reads the format from a file name', () => {
    expect(formatOfFile('fractions.JSON')).toBe('json');
    expect(formatOfFile('plan.md')).toBe('markdown');
    expect(formatOfFile('plan.markdown')).toBe('markdown');
    expect(formatOfFile('plan.txt')).toBeNull();
  });

  it('badges built-in, own and shared plans', () => {
    expect(planBadges({ builtIn: true, owned: false, shared: true }).map((badge) => badge.label)).toEqual(['Built-in']);
    expect(planBadges({ builtIn: false, owned: true, shared: true }).map((badge) => badge.label)).toEqual(['Yours', 'Shared']);
    expect(planBadges({ builtIn: false, owned: false, shared: true }).map((badge) => badge.label)).toEqual(['Shared']);
    expect(planBadges({ builtIn: false, owned: true, shared: false }).map((badge) => badge.label)).toEqual(['Yours']);
  });

  it('starts the editor from templates the shared schema accepts', () => {
    expect(StudyPlanContent.safeParse(JSON.parse(planTemplates.json)).success).toBe(true);
    expect(planTemplates.markdown).toMatch(/^---\ntitle: Two-digit addition\n/);
    expect(planTemplates.markdown).toContain('## 3. practice: carrying\n\nblueprint: MATH.ARITH.ADD.2DIGIT');
  });
});

describe('learning progress wording', () => {
  const steps = [
    { number: 1, type: 'explain' as const, concept: 'a', status: 'done' as const },
    { number: 2, type: 'check' as const, concept: 'a', status: 'current' as const },
    { number: 3, type: 'practice' as const, concept: 'b', status: 'upcoming' as const },
  ];

  it('says which step of how many, and the share done', () => {
    expect(stepLabel({ step: 2, totalSteps: 3, steps, extension: false })).toBe('Step 2 of 3');
    expect(stepRatio({ totalSteps: 3, steps })).toBeCloseTo(1 / 3);
  });

  it('says the plan is complete once every step is done, or in the extension', () => {
    const done = steps.map((step) => ({ ...step, status: 'done' as const }));
    expect(stepLabel({ step: 3, totalSteps: 3, steps: done, extension: false })).toBe('Plan complete');
    expect(stepLabel({ step: 3, totalSteps: 3, steps: done, extension: true })).toBe('Plan complete · extra practice');
  });

  it('words a learning session of the list by its status and steps done', () => {
    expect(learningSessionLabel({ status: 'active', recalledCount: 3, totalPoints: 8 })).toBe('In progress · 3 of 8 steps done');
    expect(learningSessionLabel({ status: 'awaiting_client_action', recalledCount: 0, totalPoints: 1 })).toBe('In progress · 0 of 1 step done');
    expect(learningSessionLabel({ status: 'completed', recalledCount: 8, totalPoints: 8 })).toBe('Completed · all 8 steps');
    expect(learningSessionLabel({ status: 'completed', recalledCount: 2, totalPoints: 8 })).toBe('Ended · 2 of 8 steps done');
    expect(learningSessionLabel({ status: 'abandoned', recalledCount: 2, totalPoints: 8 })).toBe('Ended early · 2 of 8 steps done');
  });
});
