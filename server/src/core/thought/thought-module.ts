/** Thought sessions as a session module (SPEC §4.5): created with an optional topic; no checklist, no score. */
import type { SessionModule } from '../session/session-module';
import { ThoughtRoom, thoughtSessionSummary, thoughtState, type ThoughtRoomDeps } from './thought-room';
import { initialThoughtState } from './thought-rules';
import { thoughtSnapshotNeeds } from './thought-state';

/** What the module needs is what its rooms need. */
export type ThoughtModuleDeps = ThoughtRoomDeps;

export function thoughtModule(deps: ThoughtModuleDeps): SessionModule<'thought'> {
  return {
    type: 'thought',
    snapshotNeeds: thoughtSnapshotNeeds,
    async create({ learnerId, body, now }) {
      const id = deps.ids.next();
      const topic = body.topic ?? null;
      await deps.storage.transaction((tx) =>
        tx.sessions.create({ id, learnerId, status: 'pending', title: topic ? `Thinking about ${topic}` : 'Thinking it through', recallSetId: null, typeState: initialThoughtState(topic), createdAt: now }),
      );
      return { ok: true, value: id };
    },
    /** No checklist: nothing to count. */
    async progress() {
      return { recalledCount: 0, totalPoints: 0 };
    },
    openRoom(sessionId, onIdle) {
      return new ThoughtRoom(sessionId, deps, onIdle);
    },
    state: (snapshot) => thoughtState(snapshot),
    summary: (snapshot, now) => thoughtSessionSummary(snapshot, now),
  };
}
