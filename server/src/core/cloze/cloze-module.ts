/**
 * Cloze drills as a session module (SPEC §4.6): created from a recall set of the learner's,
 * asking its due points (all of them when none is due), most overdue first, at most 20. The
 * points are kept as the session's checklist (so a snapshot carries their cards) and each
 * point's blank is chosen once, at creation, into the drill's state.
 */
import type { SessionModule } from '../session/session-module';
import { loadSchedulerSettings } from '../scheduler/learner-settings';
import { schedulePoints } from '../scheduler/point-schedule';
import { ClozeRoom, type ClozeRoomDeps } from './cloze-room';
import { drillItems } from './cloze-rules';
import { clozeSnapshotNeeds, initialClozeState } from './cloze-state';
import { clozeSessionSummary, clozeState } from './cloze-views';

/** What the module needs is what its rooms need. */
export type ClozeModuleDeps = ClozeRoomDeps;

export function clozeModule(deps: ClozeModuleDeps): SessionModule<'cloze'> {
  return {
    type: 'cloze',
    snapshotNeeds: clozeSnapshotNeeds,
    async create({ learnerId, body, now }) {
      const id = deps.ids.next();
      return deps.storage.transaction(async (tx) => {
        const set = await tx.recallSets.get(body.recallSetId);
        // Another learner's set is indistinguishable from none.
        if (!set || set.learnerId !== learnerId) return { ok: false, error: { code: 'not_found', message: 'No recall set with that id.' } } as const;
        const points = await tx.recallSets.listPoints(set.id);
        if (points.length === 0) return { ok: false, error: { code: 'invalid_payload', message: 'This recall set has no points yet; add some before drilling it.' } } as const;
        const cards = await tx.cards.listFor(learnerId, points.map((point) => point.id));
        const schedule = new Map(schedulePoints(points.map((point) => point.id), cards, now, await loadSchedulerSettings(tx, learnerId)).map((scheduled) => [scheduled.pointId, scheduled]));
        const items = drillItems(
          points.map((point) => {
            const scheduled = schedule.get(point.id)!;
            return { id: point.id, content: point.content, context: point.context, position: point.position, status: scheduled.status, due: scheduled.card && scheduled.status !== 'new' ? scheduled.card.due : null };
          }),
        );
        if (items.length === 0) {
          return { ok: false, error: { code: 'invalid_payload', message: 'None of the points to review has a word that can be blanked out (they hold only short common words).' } } as const;
        }
        await tx.sessions.create({ id, learnerId, status: 'pending', title: set.name, recallSetId: set.id, typeState: initialClozeState(items), createdAt: now });
        await tx.checklists.add(id, items.map((item) => item.pointId));
        return { ok: true, value: id } as const;
      });
    },
    /** Points finished of the points in the drill. */
    async progress(_reader, session) {
      return { recalledCount: session.typeState.results.length, totalPoints: session.typeState.items.length };
    },
    openRoom(sessionId, onIdle) {
      return new ClozeRoom(sessionId, deps, onIdle);
    },
    state: (snapshot) => clozeState(snapshot),
    summary: (snapshot, now) => clozeSessionSummary(snapshot, now),
  };
}
