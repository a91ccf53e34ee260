/** Recall sets and their points, owned by one learner; due counts from the learner's cards. Through the storage port. */
import type { CardList, RecallSetDetail, RecallSetSummary, UpdateRecallSetBody } from '@tutorloop/shared';
import { parseImport } from '../core/recall-sets/import-text';
import { countStatuses, schedulePoints, type ScheduledPoint } from '../core/scheduler/point-schedule';
import type { SchedulerSettings } from '../core/scheduler/fsrs';
import type { StoredCard } from '../core/storage/cards';
import { loadSchedulerSettings } from '../core/scheduler/learner-settings';
import type { StorageReader } from '../core/storage/storage';
import type { RecallPointRecord, RecallSetReader, RecallSetRecord } from '../core/storage/recall-sets';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

type CreateBody = { name: string; description?: string | undefined; points: Array<{ content: string; context?: string | undefined }> };

export class RecallSetService {
  constructor(private readonly storage: Storage) {}

  list(learnerId: string, now: Date): Promise<RecallSetSummary[]> {
    return this.storage.read(async (reader) => {
      const sets = await reader.recallSets.listByLearner(learnerId);
      if (sets.length === 0) return [];
      const points = await reader.recallSets.listPointsOfSets(sets.map((set) => set.id));
      const scheduled = await scheduleOf(reader, learnerId, points, now);
      return sets.map((set) => summarize(set, points.filter((point) => point.recallSetId === set.id), scheduled));
    });
  }

  get(learnerId: string, setId: string, now: Date): Promise<RecallSetDetail> {
    return this.storage.read(async (reader) => {
      const set = await owned(reader.recallSets, learnerId, setId);
      const points = await reader.recallSets.listPoints(setId);
      return {
        ...summarize(set, points, await scheduleOf(reader, learnerId, points, now)),
        points: points.map((point) => ({ id: point.id, content: point.content, context: point.context, position: point.position })),
      };
    });
  }

  async create(learnerId: string, body: CreateBody, now: Date): Promise<RecallSetDetail> {
    const id = crypto.randomUUID();
    await this.storage.transaction(async (tx) => {
      await tx.recallSets.create({ id, learnerId, name: body.name, description: body.description || null, createdAt: now });
      for (const [position, point] of body.points.entries()) {
        await tx.recallSets.addPoint({ id: crypto.randomUUID(), recallSetId: id, content: point.content, context: point.context || null, position, createdAt: now });
      }
    });
    return this.get(learnerId, id, now);
  }

  import(learnerId: string, body: { format: 'markdown' | 'csv'; text: string; name?: string | undefined }, now: Date): Promise<RecallSetDetail> {
    const parsed = parseImport(body.format, body.text);
    if (!parsed.ok) throw new AppError('invalid_payload', parsed.error);
    const name = body.name ?? parsed.value.name ?? `Imported set (${now.toISOString().slice(0, 10)})`;
    return this.create(learnerId, { name, description: parsed.value.description ?? undefined, points: parsed.value.points }, now);
  }

  /** Updates name/description; `points` replaces the list, keeping ids (and so schedules) of points sent with an id. */
  async update(learnerId: string, setId: string, body: UpdateRecallSetBody, now: Date): Promise<RecallSetDetail> {
    await this.storage.transaction(async (tx) => {
      await owned(tx.recallSets, learnerId, setId);
      await tx.recallSets.update(
        setId,
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description || null } : {}),
        },
        now,
      );
      if (!body.points) return;
      const existing = new Map((await tx.recallSets.listPoints(setId)).map((point) => [point.id, point]));
      const kept = new Set<string>();
      for (const [position, point] of body.points.entries()) {
        if (point.id && existing.has(point.id)) {
          kept.add(point.id);
          await tx.recallSets.updatePoint(point.id, { content: point.content, context: point.context || null, position });
        } else {
          if (point.id) throw new AppError('invalid_payload', `points.${position}.id: no point with that id in this set`);
          await tx.recallSets.addPoint({ id: crypto.randomUUID(), recallSetId: setId, content: point.content, context: point.context || null, position, createdAt: now });
        }
      }
      const removed = [...existing.keys()].filter((id) => !kept.has(id));
      if (removed.length > 0) await tx.recallSets.deletePoints(removed);
    });
    return this.get(learnerId, setId, now);
  }

  async delete(learnerId: string, setId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      await owned(tx.recallSets, learnerId, setId);
      await tx.recallSets.delete(setId);
    });
  }

  /**
   * The learner's FSRS state per point of a set (points never reviewed show as new, due now),
   * with what each needs now and its predicted recall — from the same schedule as the counts.
   */
  cards(learnerId: string, setId: string, now: Date): Promise<CardList> {
    return this.storage.read(async (reader) => {
      await owned(reader.recallSets, learnerId, setId);
      const points = await reader.recallSets.listPoints(setId);
      const settings = await loadSchedulerSettings(reader, learnerId);
      const scheduled = await scheduleOf(reader, learnerId, points, now, settings);
      const cards = points.map((point) => {
        const { card, status, retrievability } = scheduled.get(point.id)!;
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
          status,
          retrievability,
        };
      });
      return { cards, asOf: now.toISOString(), desiredRetention: settings.retention };
    });
  }
}

/**
 * The one schedule query every count and view uses: the learner's cards for these points,
 * classified at `now` under their scheduler settings (read here unless the caller has them).
 */
export async function scheduleOf(reader: StorageReader, learnerId: string, points: readonly RecallPointRecord[], now: Date, known?: SchedulerSettings): Promise<Map<string, ScheduledPoint>> {
  const settings = known ?? (await loadSchedulerSettings(reader, learnerId));
  const pointIds = points.map((point) => point.id);
  const cards: Map<string, StoredCard> = await reader.cards.listFor(learnerId, pointIds);
  return new Map(schedulePoints(pointIds, cards, now, settings).map((point) => [point.pointId, point]));
}

/** The set if the learner owns it; another learner's set is indistinguishable from none. */
export async function owned(sets: RecallSetReader, learnerId: string, setId: string): Promise<RecallSetRecord> {
  const set = await sets.get(setId);
  if (!set || set.learnerId !== learnerId) throw new AppError('not_found', 'No recall set with that id.');
  return set;
}

function summarize(set: RecallSetRecord, points: RecallPointRecord[], scheduled: ReadonlyMap<string, ScheduledPoint>): RecallSetSummary {
  const { dueCount, newCount } = countStatuses(points.map((point) => scheduled.get(point.id)!));
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
