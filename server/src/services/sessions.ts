/** Creating, listing and deleting sessions through the storage port; the turn-by-turn engine lives in core/session. */
import type { SessionListItem } from '@tutorloop/shared';
import type { Catalog } from '../core/assessment';
import { isDue } from '../core/scheduling/fsrs';
import { checklistProgress, modeOf, type SessionProgress } from '../core/session/session-view';
import { initialRecallState } from '../core/storage/session-type-state';
import type { StoredSession } from '../core/storage/sessions';
import type { Storage, StorageReader } from '../core/storage/storage';
import { AppError } from './app-error';
import { owned as ownedSet } from './recall-sets';

export class SessionService {
  constructor(
    private readonly storage: Storage,
    private readonly catalog?: Catalog,
  ) {}

  /**
   * A recall session's checklist holds the set's points that are due (never reviewed, or
   * FSRS due ≤ now); if none is due, all of them (SPEC §4.1).
   */
  async createRecall(learnerId: string, recallSetId: string, now: Date): Promise<string> {
    const id = crypto.randomUUID();
    await this.storage.transaction(async (tx) => {
      const set = await ownedSet(tx.recallSets, learnerId, recallSetId);
      const points = await tx.recallSets.listPoints(recallSetId);
      if (points.length === 0) throw new AppError('invalid_payload', 'This recall set has no points yet; add some first.');
      const cardsByPoint = await tx.cards.listFor(learnerId, points.map((point) => point.id));
      const due = points.filter((point) => isDue(cardsByPoint.get(point.id) ?? null, now));
      const checklist = due.length > 0 ? due : points;
      await tx.sessions.create({ id, learnerId, status: 'pending', title: set.name, recallSetId, typeState: initialRecallState(due.length === 0), createdAt: now });
      await tx.checklists.add(id, checklist.map((point) => point.id));
    });
    return id;
  }

  /**
   * An assessment session from a blueprint. Its seed drives item generation, so a restart
   * (or a replay of the same answers) yields the same items; the clock starts at the first item.
   */
  async createAssessment(learnerId: string, blueprint: { id: string; title: string; timeLimitMinutes: number }, now: Date): Promise<string> {
    const id = crypto.randomUUID();
    await this.storage.transaction((tx) =>
      tx.sessions.create({
        id,
        learnerId,
        status: 'pending',
        title: blueprint.title,
        recallSetId: null,
        typeState: { type: 'assessment', blueprintId: blueprint.id, seed: crypto.randomUUID(), timeLimitSeconds: blueprint.timeLimitMinutes * 60 },
        createdAt: now,
      }),
    );
    return id;
  }

  /** The session if the learner owns it; 404 when missing, 403 when another learner's. */
  async owned(learnerId: string, sessionId: string): Promise<StoredSession> {
    const session = await this.storage.read((reader) => reader.sessions.get(sessionId));
    if (!session) throw new AppError('not_found', 'No session with that id.');
    if (session.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
    return session;
  }

  list(learnerId: string): Promise<SessionListItem[]> {
    return this.storage.read(async (reader) => {
      const sessions = await reader.sessions.listByLearner(learnerId);
      const items: SessionListItem[] = [];
      for (const session of sessions) items.push(await this.listItem(reader, session));
      return items;
    });
  }

  toListItem(session: StoredSession): Promise<SessionListItem> {
    return this.storage.read((reader) => this.listItem(reader, session));
  }

  private async listItem(reader: StorageReader, session: StoredSession): Promise<SessionListItem> {
    const progress = session.type === 'assessment' ? await this.assessmentProgress(reader, session) : checklistProgress(await reader.checklists.list(session.id));
    return {
      id: session.id,
      type: session.type,
      status: session.status,
      mode: modeOf(session).mode,
      title: session.title,
      recallSetId: session.recallSetId,
      ...progress,
      createdAt: session.createdAt.toISOString(),
      endedAt: session.endedAt?.toISOString() ?? null,
    };
  }

  /** For an assessment the counts are items answered of the blueprint's items. */
  private async assessmentProgress(reader: StorageReader, session: StoredSession): Promise<SessionProgress> {
    if (!this.catalog || session.typeState.type !== 'assessment') return { recalledCount: 0, totalPoints: 0 };
    const answered = (await reader.assessments.listResponses(session.id)).length;
    const total = this.catalog.getAssessment(session.typeState.blueprintId)?.totalItems ?? answered;
    return { recalledCount: answered, totalPoints: total };
  }

  async delete(learnerId: string, sessionId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      const session = await tx.sessions.get(sessionId);
      if (!session) throw new AppError('not_found', 'No session with that id.');
      if (session.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
      await tx.sessions.delete(sessionId);
    });
  }
}
