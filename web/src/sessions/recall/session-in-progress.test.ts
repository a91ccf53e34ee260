import type { SessionHistoryItem } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { sessionInProgress } from './session-in-progress';

const item = (id: string, overrides: Partial<SessionHistoryItem>): SessionHistoryItem => ({
  id,
  type: 'recall',
  status: 'active',
  mode: 'recall',
  title: 'Rivers',
  recallSetId: 'set1',
  recalledCount: 1,
  totalPoints: 3,
  createdAt: '2026-11-27T09:00:00.000Z',
  endedAt: null,
  turns: 2,
  durationSeconds: 60,
  ...overrides,
});

describe('"Review now" resumes a session in progress (issue 25)', () => {
  it('finds the newest unfinished recall session of the set', () => {
    const sessions = [item('done', { status: 'completed' }), item('other-set', { recallSetId: 'set2' }), item('open', { status: 'awaiting_client_action' }), item('older', {})];
    expect(sessionInProgress(sessions, 'set1')?.id).toBe('open');
  });

  it('finds none when every session of the set ended, or only a cloze or learning session is open', () => {
    expect(sessionInProgress([item('a', { status: 'completed' }), item('b', { status: 'abandoned' }), item('c', { type: 'learning', recallSetId: null })], 'set1')).toBeNull();
  });
});
