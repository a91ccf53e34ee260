/**
 * The learner's progress (SPEC §6): history, stats, scorecard and the concept map. Reads
 * through the storage port, one read unit per figure set, and hands the data to the pure
 * functions of core/progress. Every read is keyed by the requesting learner, so another
 * learner's sessions, cards or reviews never enter a figure.
 */
import type { ProgressStats, Scorecard, SessionHistory, SessionHistoryQuery, SessionListItem, SubtopicProgress } from '@tutorloop/shared';
import { decodeCursor, pageHistory, resolveRange, sessionSeconds } from '../core/progress/history';
import { assessmentScores, recallSetScores, studyPlanScores, subtopicProgress, type AssessmentAttempt, type LearningSessionRecord } from '../core/progress/scorecard';
import { belowRetention, dailyActivity, dueCounts, reviewStreak, sessionStats, trueRetention } from '../core/progress/stats';
import { sessionsOfType } from '../core/session/session-module';
import type { StoredSession } from '../core/storage/sessions';
import type { Storage, StorageReader } from '../core/storage/storage';
import { AppError } from './app-error';
import { loadSchedulerSettings } from '../core/scheduler/learner-settings';
import { scheduleOf } from './recall-sets';

export interface ProgressDeps {
  storage: Storage;
  /** A session as `GET /api/sessions` lists it (services/sessions.ts). */
  listItem(session: StoredSession): Promise<SessionListItem>;
  /** An assessment blueprint's item count, or null when the catalog no longer has it. */
  maxScoreOf(blueprintId: string): number | null;
}

const endedStatuses = new Set(['completed', 'abandoned']);

export class ProgressService {
  constructor(private readonly deps: ProgressDeps) {}

  /** One page of the learner's sessions, newest first, filtered. Refuses a bad cursor or range (`field: message`). */
  async history(learnerId: string, query: SessionHistoryQuery): Promise<SessionHistory> {
    const range = resolveRange(query);
    if (!range.ok) throw new AppError('invalid_payload', range.error);
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (cursor && !cursor.ok) throw new AppError('invalid_payload', cursor.error);
    const sessions = await this.deps.storage.read((reader) => reader.sessions.listByLearner(learnerId));
    const { page, nextCursor } = pageHistory(sessions, { type: query.type, status: query.status, ...range.value }, cursor?.value ?? null, query.limit);
    const items = [];
    for (const session of page) {
      items.push({ ...(await this.deps.listItem(session)), turns: session.turn, durationSeconds: sessionSeconds(session) });
    }
    return { sessions: items, nextCursor };
  }

  /** The figures, days counted in `timeZone` (an IANA name the caller has checked; days.ts). */
  stats(learnerId: string, now: Date, timeZone = 'UTC'): Promise<ProgressStats> {
    return this.deps.storage.read(async (reader) => {
      const sessions = await reader.sessions.listByLearner(learnerId);
      let pointsRecalled = 0;
      for (const session of sessionsOfType(sessions, 'recall')) {
        pointsRecalled += (await reader.checklists.list(session.id)).filter((entry) => entry.status === 'recalled').length;
      }
      const { scheduled, settings } = await this.learnerSchedule(reader, learnerId, now);
      const logs = await reader.cards.listReviewLogsByLearner(learnerId);
      const points = [...scheduled.values()];
      return {
        asOf: now.toISOString(),
        timeZone,
        sessions: sessionStats(sessions),
        pointsRecalled,
        reviews: {
          done: logs.length,
          ...dueCounts(points.map((point) => point.card), now, timeZone),
          belowDesiredRetention: belowRetention(points, settings.retention),
        },
        retention: { ...trueRetention(logs, now), desired: settings.retention },
        streak: reviewStreak(logs, now, timeZone),
        activity: dailyActivity(logs, sessions, now, timeZone),
      };
    });
  }

  scorecard(learnerId: string, now: Date): Promise<Scorecard> {
    return this.deps.storage.read(async (reader) => {
      const sessions = await reader.sessions.listByLearner(learnerId);
      const { sets, points, scheduled } = await this.learnerSchedule(reader, learnerId, now);
      const logs = await reader.cards.listReviewLogsByLearner(learnerId);
      const cards = new Map([...scheduled.values()].map((point) => [point.pointId, point.card]));
      const attempts: AssessmentAttempt[] = [];
      for (const session of sessionsOfType(sessions, 'assessment')) {
        if (!endedStatuses.has(session.status) || !session.endedAt) continue;
        const { blueprintId } = session.typeState;
        attempts.push({
          sessionId: session.id,
          blueprintId,
          title: session.title,
          createdAt: session.createdAt,
          endedAt: session.endedAt,
          maxScore: this.deps.maxScoreOf(blueprintId) ?? (await reader.assessments.listItems(session.id)).length,
          responses: await reader.assessments.listResponses(session.id),
          abilities: await reader.assessments.listAbilities(session.id),
        });
      }
      return {
        asOf: now.toISOString(),
        recallSets: recallSetScores(sets, points, cards, logs, now),
        studyPlans: studyPlanScores(learningSessions(sessions)),
        assessments: assessmentScores(attempts),
      };
    });
  }

  subtopicProgress(learnerId: string, now: Date): Promise<SubtopicProgress> {
    return this.deps.storage.read(async (reader) => ({
      asOf: now.toISOString(),
      concepts: subtopicProgress(learningSessions(await reader.sessions.listByLearner(learnerId))),
    }));
  }

  /** The learner's sets, their points and the one schedule query over them (services/recall-sets.ts). */
  private async learnerSchedule(reader: StorageReader, learnerId: string, now: Date) {
    const sets = await reader.recallSets.listByLearner(learnerId);
    const points = sets.length > 0 ? await reader.recallSets.listPointsOfSets(sets.map((set) => set.id)) : [];
    const settings = await loadSchedulerSettings(reader, learnerId);
    return { sets, points, scheduled: await scheduleOf(reader, learnerId, points, now, settings), settings };
  }
}

function learningSessions(sessions: readonly StoredSession[]): LearningSessionRecord[] {
  return sessionsOfType(sessions, 'learning').map((session) => ({ id: session.id, createdAt: session.createdAt, typeState: session.typeState }));
}
