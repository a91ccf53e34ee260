import type { ClozeResult, SessionHistoryItem, SessionSummary } from '@tutorloop/shared';
import type { Route } from '../../store/router-store';
import { ruleDefaults } from '../rule-defaults';
import type { SessionLookupResult, SessionTypeRules } from '../session-type';

/** The blank the server puts in a point where its key term was (SPEC §4.6). */
export const clozeBlank = '_____';

/** A rating in words, with what it means for the learner (SPEC §4.6: the FSRS grade of the review). */
export const ratingWords: Record<ClozeResult['rating'], { label: string; meaning: string }> = {
  good: { label: 'Good', meaning: 'right first time' },
  hard: { label: 'Hard', meaning: 'right at the second try' },
  again: { label: 'Again', meaning: 'missed' },
};

/**
 * The point as shown, cut at its blanks so the answer can go back in between the pieces (the
 * server blanks every occurrence of the term, SPEC §4.6). A prompt without a blank (never
 * expected) keeps its text, with the answer after it.
 */
export function splitAtBlanks(prompt: string): string[] {
  const pieces = prompt.split(clozeBlank);
  return pieces.length > 1 ? pieces : [`${prompt} `, ''];
}

/** The set a drill worked on: its summary does not name it, the session's detail does. */
async function drilledSet(sessionId: string, getSession: (sessionId: string) => Promise<SessionLookupResult>) {
  const detail = await getSession(sessionId);
  if (!detail.ok) return { ok: false as const, error: detail.error.message };
  const recallSetId = detail.value.session.recallSetId;
  return recallSetId ? { ok: true as const, recallSetId } : { ok: false as const, error: 'This drill has no recall set to go back to.' };
}

/** The completion screen's heading and the tab's title. */
export function drillTitle(summary: SessionSummary): string {
  return summary.reason === 'ended_by_learner' ? 'Drill ended early' : 'Drill complete';
}

/** Cloze drills (SPEC §4.6): a set's points with one term blanked, two tries each, graded by the server. */
export const clozeRules: SessionTypeRules = {
  ...ruleDefaults,
  label: 'Cloze drill',
  defaultTitle: 'Cloze drill',
  endNote: 'The points you finished keep their new review dates; the others stay as they were.',
  progressLabel: (state) => {
    if (!state.cloze) return null;
    const { done, total, attempt } = state.cloze;
    return `${done} of ${total}${attempt === 2 ? ' · second try' : ''}`;
  },
  recentDetail: (session) => (session.totalPoints > 0 ? ` · ${session.recalledCount} of ${session.totalPoints}` : ''),
  resultsTitle: drillTitle,
  // Back to the set drilled, where its schedule shows the new reviews; the sets list if it cannot be read.
  backRoute: async ({ sessionId, getSession }): Promise<Route> => {
    const set = await drilledSet(sessionId, getSession);
    return set.ok ? { name: 'set-detail', recallSetId: set.recallSetId } : { name: 'sets' };
  },
  startAgain: async ({ sessionId, getSession }) => {
    const set = await drilledSet(sessionId, getSession);
    return set.ok ? { ok: true, value: { type: 'cloze', recallSetId: set.recallSetId } } : { ok: false, error: set.error };
  },
};

/**
 * The set the home page offers to drill: the one with the most points due (a drill takes the due
 * ones), else the most recently changed set with points (a drill then takes them all); null
 * when no set has a point.
 */
export function setToDrill<T extends { pointCount: number; dueCount: number; updatedAt: string }>(sets: readonly T[]): T | null {
  let best: T | null = null;
  for (const set of sets) {
    if (set.pointCount === 0) continue;
    if (!best || set.dueCount > best.dueCount || (set.dueCount === best.dueCount && set.updatedAt > best.updatedAt)) best = set;
  }
  return best;
}

/**
 * The newest drill of this set still in progress, which the home page's card resumes rather
 * than starting a second one beside it (as recall's "Review now" does). `sessions` come newest first.
 */
export function drillInProgress(sessions: readonly SessionHistoryItem[], recallSetId: string): SessionHistoryItem | null {
  return sessions.find((item) => item.type === 'cloze' && item.recallSetId === recallSetId && item.status !== 'completed' && item.status !== 'abandoned') ?? null;
}
