/**
 * The learner's scorecard and concept map (SPEC §6 `GET /api/sessions/scorecard`,
 * `GET /api/sessions/subtopic-progress`). Pure: over what was read through the storage port.
 *
 * - Recall sets: recall rate = reviews of the set's points not rated Again / all its reviews
 *   (review log, all time: a review is a point the tutor asked about, recalled or not);
 *   mean stability = mean FSRS stability of the points reviewed at least once; due now by
 *   the one definition of due.
 * - Study plans: a learning session keeps mastery per concept in its state (0–1, SPEC §4.4);
 *   each session starts without evidence, so a concept's mastery is the one of the most recent
 *   session of the plan that has evidence for it, and its level is `masteryLevel`'s.
 * - Assessments: ended attempts only — a running assessment shows no score (SPEC §4.3). Best
 *   score = the highest sum of credit (the earlier attempt on a tie); abilities = the stored
 *   estimates of the most recent ended attempt.
 */
import type { AssessmentScore, RecallSetScore, StudyPlanScore, SubtopicProgress } from '@tutorloop/shared';
import { masteryLevel, planConcepts } from '../learning/learning-rules';
import { pointStatus, type CardRecord } from '../scheduler/fsrs';
import { overallDomain, type AbilityEstimateRecord, type StoredResponse } from '../storage/assessments';
import type { LearnerReviewLog } from '../storage/cards';
import type { RecallPointRecord, RecallSetRecord } from '../storage/recall-sets';
import type { LearningSessionState } from '../learning/learning-state';
import { compareHistory } from './history';

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** One score per recall set, in the order the sets are given. */
export function recallSetScores(
  sets: readonly RecallSetRecord[],
  points: readonly RecallPointRecord[],
  cardsByPoint: ReadonlyMap<string, Pick<CardRecord, 'state' | 'due' | 'stability'> | null>,
  logs: readonly Pick<LearnerReviewLog, 'pointId' | 'rating'>[],
  now: Date,
): RecallSetScore[] {
  const setOfPoint = new Map(points.map((point) => [point.id, point.recallSetId]));
  const reviews = new Map<string, { reviews: number; recalled: number }>();
  for (const log of logs) {
    const setId = setOfPoint.get(log.pointId);
    if (!setId) continue;
    const entry = reviews.get(setId) ?? { reviews: 0, recalled: 0 };
    entry.reviews += 1;
    if (log.rating !== 'again') entry.recalled += 1;
    reviews.set(setId, entry);
  }
  return sets.map((set) => {
    const cards = points.filter((point) => point.recallSetId === set.id).map((point) => cardsByPoint.get(point.id) ?? null);
    const reviewed = cards.filter((card): card is NonNullable<typeof card> => card !== null && card.state !== 'new');
    const counts = reviews.get(set.id) ?? { reviews: 0, recalled: 0 };
    return {
      recallSetId: set.id,
      name: set.name,
      pointCount: cards.length,
      reviewedPoints: reviewed.length,
      dueNow: cards.filter((card) => pointStatus(card, now) !== 'scheduled').length,
      reviews: counts.reviews,
      recalled: counts.recalled,
      recallRate: counts.reviews > 0 ? round(counts.recalled / counts.reviews, 4) : null,
      meanStability: reviewed.length > 0 ? round(reviewed.reduce((sum, card) => sum + card.stability, 0) / reviewed.length, 2) : null,
    };
  });
}

/** A learning session as the scorecard reads it. */
export interface LearningSessionRecord {
  id: string;
  createdAt: Date;
  typeState: LearningSessionState;
}

/** Newest first (ties by id), the history's order. */
function newestFirst<S extends { id: string; createdAt: Date }>(sessions: readonly S[]): S[] {
  return [...sessions].sort(compareHistory);
}

/** Mastery of `concept` from the most recent session with evidence for it, or null. */
function latestEvidence(sessions: readonly LearningSessionRecord[], concept: string): number | null {
  for (const session of sessions) {
    const value = session.typeState.mastery[concept];
    if (value !== undefined) return value;
  }
  return null;
}

/** One score per study plan the learner has a session of, most recently studied first. */
export function studyPlanScores(sessions: readonly LearningSessionRecord[]): StudyPlanScore[] {
  const byPlan = new Map<string, LearningSessionRecord[]>();
  for (const session of newestFirst(sessions)) {
    const list = byPlan.get(session.typeState.studyPlanId) ?? [];
    list.push(session);
    byPlan.set(session.typeState.studyPlanId, list);
  }
  return [...byPlan.entries()].map(([studyPlanId, planSessions]) => {
    const latest = planSessions[0]!;
    const concepts = planConcepts(latest.typeState.plan).map((concept) => {
      const mastery = latestEvidence(planSessions, concept);
      return { concept, mastery, level: masteryLevel(mastery ?? undefined) };
    });
    const meanMastery = concepts.length > 0 ? round(concepts.reduce((sum, concept) => sum + (concept.mastery ?? 0), 0) / concepts.length, 3) : 0;
    return {
      studyPlanId,
      title: latest.typeState.plan.title,
      sessions: planSessions.length,
      completed: planSessions.some((session) => session.typeState.planComplete),
      lastStudiedAt: latest.createdAt.toISOString(),
      meanMastery,
      concepts,
    };
  });
}

/**
 * Concept → mastery and level over every plan studied; a concept several plans name takes the
 * most recent evidence of any of them. Concepts in the order first met, newest session first.
 */
export function subtopicProgress(sessions: readonly LearningSessionRecord[]): SubtopicProgress['concepts'] {
  const ordered = newestFirst(sessions);
  const concepts: SubtopicProgress['concepts'] = {};
  for (const session of ordered) {
    for (const concept of planConcepts(session.typeState.plan)) {
      const entry = concepts[concept];
      if (!entry) {
        const mastery = latestEvidence(ordered.filter((other) => planConcepts(other.typeState.plan).includes(concept)), concept);
        concepts[concept] = { mastery, level: masteryLevel(mastery ?? undefined), studyPlanIds: [session.typeState.studyPlanId] };
      } else if (!entry.studyPlanIds.includes(session.typeState.studyPlanId)) {
        entry.studyPlanIds.push(session.typeState.studyPlanId);
      }
    }
  }
  return concepts;
}

/** One ended assessment attempt with what it stored. */
export interface AssessmentAttempt {
  sessionId: string;
  blueprintId: string;
  title: string;
  createdAt: Date;
  endedAt: Date;
  /** The blueprint's item count (the score's maximum). */
  maxScore: number;
  responses: readonly Pick<StoredResponse, 'credit'>[];
  abilities: readonly AbilityEstimateRecord[];
}

/** One score per blueprint, the most recently attempted first. */
export function assessmentScores(attempts: readonly AssessmentAttempt[]): AssessmentScore[] {
  const byBlueprint = new Map<string, AssessmentAttempt[]>();
  for (const attempt of [...attempts].sort((a, b) => compareHistory({ id: a.sessionId, createdAt: a.createdAt }, { id: b.sessionId, createdAt: b.createdAt }))) {
    const list = byBlueprint.get(attempt.blueprintId) ?? [];
    list.push(attempt);
    byBlueprint.set(attempt.blueprintId, list);
  }
  return [...byBlueprint.entries()].map(([blueprintId, list]) => {
    const scored = list.map((attempt) => ({ attempt, score: round(attempt.responses.reduce((sum, response) => sum + response.credit, 0), 2) }));
    // Oldest first, so on a tie the attempt that first reached the score stays the best.
    const best = [...scored].reverse().reduce((top, entry) => (entry.score > top.score ? entry : top));
    const latest = list[0]!;
    const overall = latest.abilities.find((estimate) => estimate.domain === overallDomain);
    return {
      blueprintId,
      title: latest.title,
      attempts: list.length,
      best: {
        sessionId: best.attempt.sessionId,
        score: best.score,
        maxScore: best.attempt.maxScore,
        percent: best.attempt.maxScore > 0 ? Math.min(1, round(best.score / best.attempt.maxScore, 4)) : 0,
        endedAt: best.attempt.endedAt.toISOString(),
      },
      abilities: {
        sessionId: latest.sessionId,
        overall: overall ? { ability: overall.ability, standardError: overall.standardError, responses: overall.responses } : null,
        domains: latest.abilities
          .filter((estimate) => estimate.domain !== overallDomain)
          .map((estimate) => ({ domain: estimate.domain, ability: estimate.ability, standardError: estimate.standardError, responses: estimate.responses })),
      },
    };
  });
}
