import type { SessionDetail, SessionHistoryItem, SessionState, SessionSummary } from '@tutorloop/shared';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { activeState, sessionId } from '../../test-support/fixtures';
import type { CompletionProps, SessionLookupResult } from '../session-type';
import { ClozeCompletion } from './cloze-completion';
import { clozeRules, drillInProgress, setToDrill, splitAtBlanks } from './cloze-rules';

// The registry's assessment results build a sanitiser from the browser's window when imported.
vi.mock('../../components/markdown', () => ({ Markdown: () => null }));

function clozeState(cloze: NonNullable<SessionState['cloze']>): SessionState {
  return activeState({ type: 'cloze', title: 'Rivers', recalledCount: cloze.done, totalPoints: cloze.total, cloze });
}

function lookup(recallSetId: string | null): SessionLookupResult {
  const detail: SessionDetail = {
    session: {
      id: sessionId,
      type: 'cloze',
      status: 'completed',
      mode: 'recall',
      title: 'Rivers',
      recallSetId,
      recalledCount: 2,
      totalPoints: 3,
      createdAt: '2026-11-27T11:00:00.000Z',
      endedAt: '2026-11-27T11:04:00.000Z',
    },
    state: { ...clozeState({ done: 3, total: 3, attempt: null, right: 2 }), status: 'completed', endedAt: '2026-11-27T11:04:00.000Z' },
  };
  return { ok: true, value: detail };
}

const drillSummary: SessionSummary = {
  sessionId,
  type: 'cloze',
  status: 'completed',
  reason: 'all_answered',
  turns: 5,
  recalledCount: 2,
  totalPoints: 3,
  durationSeconds: 95,
  points: [
    { id: 'p1', content: 'The Nile flows north into the Mediterranean.', recalled: true, nextDue: '2026-11-30T11:00:00.000Z' },
    { id: 'p2', content: 'The Amazon carries the most water of any river.', recalled: true, nextDue: '2026-11-28T11:00:00.000Z' },
    { id: 'p3', content: 'A delta forms where a river deposits sediment.', recalled: false, nextDue: '2026-11-27T11:10:00.000Z' },
  ],
  cloze: {
    results: [
      { pointId: 'p1', prompt: 'The Nile flows north into the _____.', answer: 'Mediterranean', given: ['Mediterranean'], rating: 'good' },
      { pointId: 'p2', prompt: 'The _____ carries the most water of any river.', answer: 'Amazon', given: ['Congo', 'Amazon'], rating: 'hard' },
      { pointId: 'p3', prompt: 'A _____ forms where a river deposits sediment.', answer: 'delta', given: ['bank', 'mouth'], rating: 'again' },
    ],
    good: 1,
    hard: 1,
    again: 1,
  },
};

function render(summary: SessionSummary) {
  const props: CompletionProps = { summary, startAgain: { busy: false, error: null, start: () => undefined }, onBack: () => undefined };
  return renderToStaticMarkup(<ClozeCompletion {...props} />);
}

/** The visible text of some markup, its tags dropped. */
function text(markup: string): string {
  return markup.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"');
}

describe('cloze drills in the web (SPEC §4.6)', () => {
  it('says in the session bar how many points are done, and when the point on screen is at its second try', () => {
    expect(clozeRules.progressLabel(clozeState({ done: 2, total: 8, attempt: 1, right: 2 }))).toBe('2 of 8');
    expect(clozeRules.progressLabel(clozeState({ done: 3, total: 8, attempt: 2, right: 2 }))).toBe('3 of 8 · second try');
    expect(clozeRules.progressLabel(clozeState({ done: 8, total: 8, attempt: null, right: 6 }))).toBe('8 of 8');
    expect(clozeRules.progressLabel(activeState({ type: 'cloze' }))).toBeNull();
  });

  it('drills the same set again, and goes back to that set, read from the session', async () => {
    const getSession = vi.fn(async () => lookup('set_rivers'));
    await expect(clozeRules.startAgain?.({ sessionId, summary: drillSummary, getSession })).resolves.toEqual({
      ok: true,
      value: { type: 'cloze', recallSetId: 'set_rivers' },
    });
    expect(getSession).toHaveBeenCalledWith(sessionId);
    const back = clozeRules.backRoute;
    expect(typeof back).toBe('function');
    if (typeof back !== 'function') return;
    await expect(back({ sessionId, summary: drillSummary, getSession })).resolves.toEqual({ name: 'set-detail', recallSetId: 'set_rivers' });
  });

  it('says plainly why it cannot drill again, and goes back to the sets list when the set cannot be read', async () => {
    const failing = async (): Promise<SessionLookupResult> => ({ ok: false, error: { message: 'The server is unavailable.' } });
    await expect(clozeRules.startAgain?.({ sessionId, summary: drillSummary, getSession: failing })).resolves.toEqual({
      ok: false,
      error: 'The server is unavailable.',
    });
    await expect(clozeRules.startAgain?.({ sessionId, summary: drillSummary, getSession: async () => lookup(null) })).resolves.toEqual({
      ok: false,
      error: 'This drill has no recall set to go back to.',
    });
    const back = clozeRules.backRoute;
    if (typeof back !== 'function') throw new Error('a cloze drill goes back to its set');
    await expect(back({ sessionId, summary: drillSummary, getSession: failing })).resolves.toEqual({ name: 'sets' });
  });

  it('cuts the point at each blank, so the term goes back everywhere it was taken out', () => {
    expect(splitAtBlanks('The _____ carries the most water.')).toEqual(['The ', ' carries the most water.']);
    expect(splitAtBlanks('_____ is stored; what is _____ stays.')).toEqual(['', ' is stored; what is ', ' stays.']);
    expect(splitAtBlanks('No blank here.')).toEqual(['No blank here. ', '']);
  });

  it('lists each point with its blank filled, what the learner wrote and the rating in words', () => {
    const markup = render(drillSummary);
    const items = markup.split('data-testid="cloze-result"').slice(1).map(text);
    expect(items).toHaveLength(3);
    expect(items[0]).toContain('The Nile flows north into the Mediterranean.');
    expect(items[0]).toContain('You wrote “Mediterranean”');
    expect(items[0]).toContain('Good · right first time');
    expect(items[1]).toContain('The Amazon carries the most water of any river.');
    expect(items[1]).toContain('You wrote “Congo”, then “Amazon”');
    expect(items[1]).toContain('Hard · right at the second try');
    expect(items[2]).toContain('A delta forms where a river deposits sediment.');
    expect(items[2]).toContain('Again · missed');
    const page = text(markup);
    expect(page).toContain('Drill complete');
    expect(page).toContain('2 of 3 points right');
    expect(page).toContain('Back to the set');
    expect(page).toContain('Drill again');
  });

  it('says a drill ended early, and what that means for the points not reached', () => {
    const page = text(render({ ...drillSummary, status: 'abandoned', reason: 'ended_by_learner', totalPoints: 1, recalledCount: 1, cloze: { results: drillSummary.cloze!.results.slice(0, 1), good: 1, hard: 0, again: 0 } }));
    expect(page).toContain('Drill ended early');
    expect(page).toContain('1 of 1 point right');
    expect(page).toContain('The points you did not reach keep their schedule.');
  });

  it('offers on the home page the set with the most points due, else the latest set with points, else none', () => {
    const set = (id: string, pointCount: number, dueCount: number, updatedAt: string) => ({ id, pointCount, dueCount, updatedAt });
    expect(setToDrill([set('a', 5, 1, '2026-11-01'), set('b', 4, 3, '2026-10-01'), set('c', 9, 3, '2026-11-02')])?.id).toBe('c');
    expect(setToDrill([set('a', 5, 0, '2026-11-01'), set('b', 0, 0, '2026-11-05'), set('c', 2, 0, '2026-11-03')])?.id).toBe('c');
    expect(setToDrill([set('empty', 0, 0, '2026-11-01')])).toBeNull();
  });

  it('resumes the newest unfinished drill of the set from the home page instead of starting a second one', () => {
    const item = (id: string, overrides: Partial<SessionHistoryItem>): SessionHistoryItem => ({
      id,
      type: 'cloze',
      status: 'awaiting_client_action',
      mode: 'recall',
      title: 'Rivers',
      recallSetId: 'set_rivers',
      recalledCount: 1,
      totalPoints: 3,
      createdAt: '2026-11-27T11:00:00.000Z',
      endedAt: null,
      turns: 1,
      durationSeconds: 30,
      ...overrides,
    });
    const sessions = [item('recall', { type: 'recall' }), item('done', { status: 'completed' }), item('other-set', { recallSetId: 'set_cells' }), item('open', {}), item('older', {})];
    expect(drillInProgress(sessions, 'set_rivers')?.id).toBe('open');
    expect(drillInProgress([item('ended', { status: 'abandoned' }), item('recall', { type: 'recall' })], 'set_rivers')).toBeNull();
  });

  it('puts its "Cloze drill" button on the recall set page after recall’s own', async () => {
    const { setActions } = await import('../entry-parts');
    expect(setActions.map(({ type }) => type)).toEqual(['recall', 'cloze']);
  });
});
