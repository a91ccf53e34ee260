/**
 * Learning sessions (SPEC §4.4) are not built yet: their module refuses creation with the
 * answer the API has always given, and since none can exist, has no room to open.
 */
import type { SessionModule } from '../session/session-module';

export const learningUnavailable = 'type: "learning" sessions are not available yet; use "recall" or "assessment"';

export function learningModule(): SessionModule<'learning'> {
  return {
    type: 'learning',
    async create() {
      return { ok: false, error: { code: 'invalid_payload', message: learningUnavailable } };
    },
    async progress() {
      return { recalledCount: 0, totalPoints: 0 };
    },
    openRoom(sessionId) {
      throw new Error(`session ${sessionId}: learning sessions cannot be opened yet`);
    },
    summary(snapshot) {
      throw new Error(`session ${snapshot.session.id}: learning sessions have no summary yet`);
    },
  };
}
