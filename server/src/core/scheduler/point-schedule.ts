/**
 * The schedule of a learner's points, decided once (SPEC §4.1): every count of due and new
 * points — the sets list, a set's page, its forecast, `GET /api/cards`, a new session's
 * checklist — comes from `pointStatus` (core/scheduler/fsrs.ts) through here, so no two views
 * can disagree. Pure.
 */
import { pointStatus, retrievability, type PointStatus, type SchedulerSettings } from '../scheduler/fsrs';
import type { StoredCard } from '../storage/cards';

/** One point with its card (null when never reviewed), what it needs now, and its predicted recall. */
export interface ScheduledPoint {
  pointId: string;
  card: StoredCard | null;
  status: PointStatus;
  /** Probability of recall at `now`; null when never reviewed. */
  retrievability: number | null;
}

export function schedulePoints(pointIds: readonly string[], cardsByPoint: ReadonlyMap<string, StoredCard>, now: Date, settings: SchedulerSettings): ScheduledPoint[] {
  return pointIds.map((pointId) => {
    const card = cardsByPoint.get(pointId) ?? null;
    return { pointId, card, status: pointStatus(card, now), retrievability: retrievability(card, now, settings) };
  });
}

/** `dueCount` = new + due (what a session would review now), `newCount` = never reviewed. */
export function countStatuses(points: ReadonlyArray<Pick<ScheduledPoint, 'status'>>): { dueCount: number; newCount: number } {
  let dueCount = 0;
  let newCount = 0;
  for (const point of points) {
    if (point.status === 'new') newCount += 1;
    if (point.status !== 'scheduled') dueCount += 1;
  }
  return { dueCount, newCount };
}

/** Reviewed points whose predicted recall is below the learner's desired retention now. */
export function countBelowRetention(points: ReadonlyArray<Pick<ScheduledPoint, 'retrievability'>>, desiredRetention: number): number {
  return points.filter((point) => point.retrievability !== null && point.retrievability < desiredRetention).length;
}
