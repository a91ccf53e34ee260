/** The scorecard and concept map (SPEC §6), each figure from hand-built data. */
import { describe, expect, it } from 'vitest';
import { StudyPlanContent } from '@tutorloop/shared';
import type { AbilityEstimateRecord } from '../storage/assessments';
import type { RecallPointRecord, RecallSetRecord } from '../storage/recall-sets';
import { LearningSessionState } from '../learning/learning-state';
import { assessmentScores, recallSetScores, studyPlanScores, subtopicProgress, type AssessmentAttempt, type LearningSessionRecord } from './scorecard';

const now = new Date('2026-03-10T15:00:00.000Z');
const created = new Date('2026-03-01T00:00:00.000Z');

describe('recallSetScores', () => {
  const set = (id: string, name: string): RecallSetRecord => ({ id, learnerId: 'ada', name, description: null, createdAt: created, updatedAt: created });
  const point = (id: string, recallSetId: string, position: number): RecallPointRecord => ({ id, recallSetId, content: id, context: null, position, createdAt: created });

  it('gives recall rate from the review log, mean stability of reviewed points and due now per set', () => {
    const sets = [set('A', 'Capitals'), set('B', 'Rivers')];
    const points = [point('a1', 'A', 0), point('a2', 'A', 1), point('a3', 'A', 2), point('b1', 'B', 0)];
    const cards = new Map([
      ['a1', { state: 'review' as const, due: new Date('2026-03-09T00:00:00Z'), stability: 4 }], // due
      ['a2', { state: 'review' as const, due: new Date('2026-03-20T00:00:00Z'), stability: 10 }], // scheduled
    ]);
    const logs = [
      { pointId: 'a1', rating: 'good' as const },
      { pointId: 'a1', rating: 'again' as const },
      { pointId: 'a2', rating: 'easy' as const },
      { pointId: 'gone', rating: 'good' as const }, // a point of no set given: ignored
    ];
    expect(recallSetScores(sets, points, cards, logs, now)).toEqual([
      // 2 of 3 reviews recalled → 0.6667; stability (4 + 10) / 2 = 7; due: a1 (due) + a3 (new)
      { recallSetId: 'A', name: 'Capitals', pointCount: 3, reviewedPoints: 2, dueNow: 2, reviews: 3, recalled: 2, recallRate: 0.6667, meanStability: 7 },
      { recallSetId: 'B', name: 'Rivers', pointCount: 1, reviewedPoints: 0, dueNow: 1, reviews: 0, recalled: 0, recallRate: null, meanStability: null },
    ]);
  });
});

function plan(title: string, concepts: string[]): StudyPlanContent {
  return StudyPlanContent.parse({
    title,
    topic: title,
    audience: 'Grade 2',
    objectives: ['Learn it'],
    teachingApproach: 'One idea at a time.',
    steps: concepts.map((concept, index) => ({ number: index + 1, type: 'explain', concept, contentHint: `About ${concept}.` })),
  });
}

function learning(id: string, day: number, studyPlanId: string, content: StudyPlanContent, mastery: Record<string, number>, planComplete = false): LearningSessionRecord {
  return {
    id,
    createdAt: new Date(Date.UTC(2026, 2, day, 9)),
    typeState: LearningSessionState.parse({ type: 'learning', studyPlanId, plan: content, mastery, planComplete }),
  };
}

describe('studyPlanScores', () => {
  const placeValue = plan('Place value', ['tens', 'ones', 'carrying']);
  const fractions = plan('Fractions', ['halves', 'tens']);
  const sessions = [
    learning('s1', 2, 'pv', placeValue, { tens: 0.9, ones: 0.3 }, true),
    learning('s2', 5, 'pv', placeValue, { tens: 0.5 }),
    learning('s3', 7, 'fr', fractions, { tens: 0.85 }),
  ];

  it('takes each concept from the most recent session of the plan with evidence for it', () => {
    expect(studyPlanScores(sessions)).toEqual([
      {
        studyPlanId: 'fr',
        title: 'Fractions',
        sessions: 1,
        completed: false,
        lastStudiedAt: '2026-03-07T09:00:00.000Z',
        meanMastery: 0.425, // (0 + 0.85) / 2
        concepts: [
          { concept: 'halves', mastery: null, level: 'not_started' },
          { concept: 'tens', mastery: 0.85, level: 'mastered' },
        ],
      },
      {
        studyPlanId: 'pv',
        title: 'Place value',
        sessions: 2,
        completed: true, // s1 completed it
        lastStudiedAt: '2026-03-05T09:00:00.000Z',
        meanMastery: 0.267, // (0.5 + 0.3 + 0) / 3
        concepts: [
          { concept: 'tens', mastery: 0.5, level: 'developing' }, // s2's 0.5, not s1's 0.9
          { concept: 'ones', mastery: 0.3, level: 'learning' }, // s2 has no evidence: s1's
          { concept: 'carrying', mastery: null, level: 'not_started' },
        ],
      },
    ]);
  });

  it('maps every concept studied to its latest evidence across plans', () => {
    expect(subtopicProgress(sessions)).toEqual({
      halves: { mastery: null, level: 'not_started', studyPlanIds: ['fr'] },
      tens: { mastery: 0.85, level: 'mastered', studyPlanIds: ['fr', 'pv'] }, // s3 is the newest evidence
      ones: { mastery: 0.3, level: 'learning', studyPlanIds: ['pv'] },
      carrying: { mastery: null, level: 'not_started', studyPlanIds: ['pv'] },
    });
    expect(subtopicProgress([])).toEqual({});
  });
});

describe('assessmentScores', () => {
  const estimate = (domain: string, ability: number): AbilityEstimateRecord => ({ domain, ability, standardError: 0.5, responses: 4, updatedAt: created });
  const attempt = (sessionId: string, day: number, credits: number[], abilities: AbilityEstimateRecord[] = []): AssessmentAttempt => ({
    sessionId,
    blueprintId: 'MATH-L1',
    title: 'Math fundamentals',
    createdAt: new Date(Date.UTC(2026, 2, day, 9)),
    endedAt: new Date(Date.UTC(2026, 2, day, 10)),
    maxScore: 4,
    responses: credits.map((credit) => ({ credit })),
    abilities,
  });

  it('keeps the best score (the earlier attempt on a tie) and the latest attempt’s abilities', () => {
    const scores = assessmentScores([
      attempt('x1', 1, [1, 1, 0.5]), // 2.5
      attempt('x2', 2, [1, 1, 0.5, 0]), // 2.5 again: x1 stays the best
      attempt('x3', 3, [1, 0, 0], [estimate('*', 0.4), estimate('arithmetic', 0.7)]), // 1, the latest
    ]);
    expect(scores).toEqual([
      {
        blueprintId: 'MATH-L1',
        title: 'Math fundamentals',
        attempts: 3,
        best: { sessionId: 'x1', score: 2.5, maxScore: 4, percent: 0.625, endedAt: '2026-03-01T10:00:00.000Z' },
        abilities: {
          sessionId: 'x3',
          overall: { ability: 0.4, standardError: 0.5, responses: 4 },
          domains: [{ domain: 'arithmetic', ability: 0.7, standardError: 0.5, responses: 4 }],
        },
      },
    ]);
  });

  it('reports no abilities when the latest attempt stored none', () => {
    const [score] = assessmentScores([attempt('x1', 1, [])]);
    expect(score?.best).toEqual({ sessionId: 'x1', score: 0, maxScore: 4, percent: 0, endedAt: '2026-03-01T10:00:00.000Z' });
    expect(score?.abilities).toEqual({ sessionId: 'x1', overall: null, domains: [] });
  });
});
