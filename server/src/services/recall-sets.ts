/** Recall sets and their points, owned by one learner; due counts from the learner's cards. */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type {
  CardView,
  RecallSetDetail,
  RecallSetSummary,
  UpdateRecallSetBody,
} from '@tutorloop/shared';
import { parseImport } from '../core/recall-sets/import-text';
import { isDue } from '../core/scheduling/fsrs';
import type { Database } from '../db/database';
import { recallPoints, recallSets } from '../db/schema';
import type { StoredCard } from '../core/session/session-repository';
import { SqliteSessionRepository } from '../db/session-store';
import { AppError } from './app-error';

type SetRow = typeof recallSets.$inferSelect;
type PointRow = typeof recallPoints.$inferSelect;

export class RecallSetService {
  private readonly cardStore: SqliteSessionRepository;

  constructor(private readonly database: Database) {
    this.cardStore = new SqliteSessionRepository(database);
  }

  list(learnerId: string, now: Date): RecallSetSummary[] {
    const sets = this.database
      .select()
      .from(recallSets)
      .where(eq(recallSets.learnerId, learnerId))
      .orderBy(desc(recallSets.updatedAt))
      .all();
    if (sets.length === 0) return [];
    const points = this.database
      .select()
      .from(recallPoints)
      .where(inArray(recallPoints.recallSetId, sets.map((set) => set.id)))
      .all();
    const dueByPoint = this.dueMap(learnerId, points.map((point) => point.id));
    return sets.map((set) => this.summarize(set, points.filter((point) => point.recallSetId === set.id), dueByPoint, now));
  }

  get(learnerId: string, setId: string, now: Date): RecallSetDetail {
    const set = this.owned(learnerId, setId);
    const points = this.points(setId);
    const dueByPoint = this.dueMap(learnerId, points.map((point) => point.id));
    return {
      ...this.summarize(set, points, dueByPoint, now),
      points: points.map((point) => ({ id: point.id, content: point.content, context: point.context, position: point.position })),
    };
  }

  create(learnerId: string, body: { name: string; description?: string | undefined; points: Array<{ content: string; context?: string | undefined }> }, now: Date): RecallSetDetail {
    const id = crypto.randomUUID();
    this.database.$client.transaction(() => {
      this.database
        .insert(recallSets)
        .values({ id, learnerId, name: body.name, description: body.description || null, createdAt: now, updatedAt: now })
        .run();
      body.points.forEach((point, position) => {
        this.database
          .insert(recallPoints)
          .values({ id: crypto.randomUUID(), recallSetId: id, content: point.content, context: point.context || null, position, createdAt: now })
          .run();
      });
    })();
    return this.get(learnerId, id, now);
  }

  import(learnerId: string, body: { format: 'markdown' | 'csv'; text: string; name?: string | undefined }, now: Date): RecallSetDetail {
    const parsed = parseImport(body.format, body.text);
    if (!parsed.ok) throw new AppError('invalid_payload', parsed.error);
    const name = body.name ?? parsed.value.name ?? `Imported set (${now.toISOString().slice(0, 10)})`;
    return this.create(learnerId, { name, description: parsed.value.description ?? undefined, points: parsed.value.points }, now);
  }

  /** Updates name/description; `points` replaces the list, keeping ids (and so schedules) of points sent with an id. */
  update(learnerId: string, setId: string, body: UpdateRecallSetBody, now: Date): RecallSetDetail {
    this.owned(learnerId, setId);
    this.database.$client.transaction(() => {
      this.database
        .update(recallSets)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
          updatedAt: now,
        })
        .where(eq(recallSets.id, setId))
        .run();
      if (!body.points) return;
      const existing = new Map(this.points(setId).map((point) => [point.id, point]));
      const kept = new Set<string>();
      body.points.forEach((point, position) => {
        if (point.id && existing.has(point.id)) {
          kept.add(point.id);
          this.database
            .update(recallPoints)
            .set({ content: point.content, context: point.context || null, position })
            .where(eq(recallPoints.id, point.id))
            .run();
        } else {
          if (point.id) throw new AppError('invalid_payload', `points.${position}.id: no point with that id in this set`);
          this.database
            .insert(recallPoints)
            .values({ id: crypto.randomUUID(), recallSetId: setId, content: point.content, context: point.context || null, position, createdAt: now })
            .run();
        }
      });
      const removed = [...existing.keys()].filter((id) => !kept.has(id));
      if (removed.length > 0) this.database.delete(recallPoints).where(inArray(recallPoints.id, removed)).run();
    })();
    return this.get(learnerId, setId, now);
  }

  delete(learnerId: string, setId: string): void {
    this.owned(learnerId, setId);
    this.database.delete(recallSets).where(eq(recallSets.id, setId)).run();
  }

  /** The learner's FSRS state per point of a set (points never reviewed show as new, due now). */
  cards(learnerId: string, setId: string, now: Date): CardView[] {
    this.owned(learnerId, setId);
    const points = this.points(setId);
    const byPoint = this.dueMap(learnerId, points.map((point) => point.id));
    return points.map((point) => {
      const card = byPoint.get(point.id);
      return {
        pointId: point.id,
        content: point.content,
        due: (card?.due ?? now).toISOString(),
        stability: card?.stability ?? 0,
        difficulty: card?.difficulty ?? 0,
        reps: card?.reps ?? 0,
        lapses: card?.lapses ?? 0,
        state: card?.state ?? 'new',
        lastReview: card?.lastReview?.toISOString() ?? null,
      };
    });
  }

  /** The set if the learner owns it; another learner's set is indistinguishable from none. */
  owned(learnerId: string, setId: string): SetRow {
    const set = this.database.select().from(recallSets).where(and(eq(recallSets.id, setId), eq(recallSets.learnerId, learnerId))).get();
    if (!set) throw new AppError('not_found', 'No recall set with that id.');
    return set;
  }

  points(setId: string): PointRow[] {
    return this.database.select().from(recallPoints).where(eq(recallPoints.recallSetId, setId)).orderBy(asc(recallPoints.position)).all();
  }

  private dueMap(learnerId: string, pointIds: string[]) {
    return this.cardStore.cardsFor(learnerId, pointIds);
  }

  private summarize(set: SetRow, points: PointRow[], cardsByPoint: Map<string, StoredCard>, now: Date): RecallSetSummary {
    let dueCount = 0;
    let newCount = 0;
    for (const point of points) {
      const card = cardsByPoint.get(point.id) ?? null;
      if (!card) newCount += 1;
      if (isDue(card, now)) dueCount += 1;
    }
    return {
      id: set.id,
      name: set.name,
      description: set.description,
      pointCount: points.length,
      dueCount,
      newCount,
      createdAt: set.createdAt.toISOString(),
      updatedAt: set.updatedAt.toISOString(),
    };
  }
}
