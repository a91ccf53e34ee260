import type { SessionTypeRules } from '../session-type';
import { ruleDefaults } from '../rule-defaults';

/** Recall sessions (SPEC §4.1): a checklist of points, streamed replies that can be stopped and retried. */
export const recallRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Recall',
  defaultTitle: 'Recall session',
  endNote: 'Points you have not recalled yet will come back for review soon.',
  canStop: true,
  canRetry: true,
  progressLabel: (state) => `${state.recalledCount} of ${state.totalPoints} recalled`,
  recentDetail: (session) => (session.totalPoints > 0 ? ` · ${session.recalledCount} of ${session.totalPoints}` : ''),
  backRoute: { name: 'sets' },
  // The summary does not name the set: the session's detail does.
  startAgain: async ({ sessionId, getSession }) => {
    const detail = await getSession(sessionId);
    if (!detail.ok) return { ok: false, error: detail.error.message };
    const recallSetId = detail.value.session.recallSetId;
    return recallSetId ? { ok: true, value: { type: 'recall', recallSetId } } : { ok: false, error: 'This session has no recall set to review.' };
  },
};
