/** Creating and listing sessions; the turn-by-turn engine lives in core/session. */
import { and, desc, eq } from 'drizzle-orm';
import type { SessionListItem } from '@tutorloop/shared';
import { isDue } from '../core/scheduling/fsrs';
import type { SessionRecord } from '../core/session/session-repository';
import { checklistProgress, type SessionProgress } from '../core/session/session-view';
import type { Catalog } from '../core/assessment';
import type { AssessmentRepository } from '../core/assessment-session/assessment-repository';
import type { Database } from '../db/database';
import { sessionPoints, sessions } from '../db/schema';
import { assessmentConfig } from '../db/assessment-store';
import { SqliteSessionRepository, toSessionRecord } from '../db/session-store';
import { AppError } from './app-error';
import type { RecallSetService } from './recall-sets';

export class SessionService {
  constructor(
    private readonly database: Database,
    private readonly repository: SqliteSessionRepository,
    private readonly recallSets: RecallSetService,
    private readonly assessments?: { repository: AssessmentRepository; catalog: Catalog },
  ) {}

  /**
   * A recall session's checklist holds the set's points that are due (never reviewed, or
   * FSRS due ≤ now); if none is due, all of them (SPEC §4.1).
   */
  createRecall(learnerId: string, recallSetId: string, now: Date): string {
    const set = this.recallSets.owned(learnerId, recallSetId);
    const points = this.recallSets.points(recallSetId);
    if (points.length === 0) throw new AppError('invalid_payload', 'This recall set has no points yet; add some first.');
    const cardsByPoint = this.repository.cardsFor(learnerId, points.map((point) => point.id));
    const due = points.filter((point) => isDue(cardsByPoint.get(point.id) ?? null, now));
    const checklist = due.length > 0 ? due : points;
    const id = crypto.randomUUID();
    this.database.$client.transaction(() => {
      this.database
        .insert(sessions)
        .values({
          id,
          learnerId,
          type: 'recall',
          status: 'pending',
          mode: 'recall',
          recallSetId,
          title: set.name,
          config: { allPoints: due.length === 0 },
          createdAt: now,
          updatedAt: now,
        })
        .run();
      checklist.forEach((point, position) => {
        this.database.insert(sessionPoints).values({ sessionId: id, pointId: point.id, position }).run();
      });
    })();
    return id;
  }

  /**
   * An assessment session from a blueprint. Its seed drives item generation, so a restart
   * (or a replay of the same answers) yields the same items; the clock starts at the first item.
   */
  createAssessment(learnerId: string, blueprint: { id: string; title: string; timeLimitMinutes: number }, now: Date): string {
    const id = crypto.randomUUID();
    this.database
      .insert(sessions)
      .values({
        id,
        learnerId,
        type: 'assessment',
        status: 'pending',
        mode: 'recall',
        title: blueprint.title,
        config: assessmentConfig(blueprint.id, crypto.randomUUID(), blueprint.timeLimitMinutes * 60),
        createdAt: now,
        updatedAt: now,
      })
      .run();
    return id;
  }

  /** The session if the learner owns it; 404 when missing, 403 when another learner's. */
  owned(learnerId: string, sessionId: string): SessionRecord {
    const row = this.database.select().from(sessions).where(eq(sessions.id, sessionId)).get();
    if (!row) throw new AppError('not_found', 'No session with that id.');
    if (row.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
    return toSessionRecord(row);
  }

  list(learnerId: string): SessionListItem[] {
    const rows = this.database.select().from(sessions).where(eq(sessions.learnerId, learnerId)).orderBy(desc(sessions.createdAt)).all();
    return rows.map((row) => this.toListItem(toSessionRecord(row)));
  }

  toListItem(session: SessionRecord): SessionListItem {
    const progress = session.type === 'assessment' ? this.assessmentProgress(session.id) : this.recallProgress(session.id);
    return {
      id: session.id,
      type: session.type,
      status: session.status,
      mode: session.mode,
      title: session.title,
      recallSetId: session.recallSetId,
      ...progress,
      createdAt: session.createdAt.toISOString(),
      endedAt: session.endedAt?.toISOString() ?? null,
    };
  }

  private recallProgress(sessionId: string): SessionProgress {
    return checklistProgress(this.repository.getChecklist(sessionId));
  }

  /** For an assessment the counts are items answered of the blueprint's items. */
  private assessmentProgress(sessionId: string): { recalledCount: number; totalPoints: number } {
    if (!this.assessments) return { recalledCount: 0, totalPoints: 0 };
    const config = this.assessments.repository.getConfig(sessionId);
    const answered = this.assessments.repository.listResponses(sessionId).length;
    const total = (config && this.assessments.catalog.getAssessment(config.blueprintId)?.totalItems) ?? answered;
    return { recalledCount: answered, totalPoints: total };
  }

  delete(learnerId: string, sessionId: string): void {
    this.owned(learnerId, sessionId);
    this.database.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.learnerId, learnerId))).run();
  }
}
