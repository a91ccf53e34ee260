import { describe, expect, it } from 'vitest';
import type { ServerEvent, SessionState, SessionSummary } from '@tutorloop/shared';
import { readReply } from './reply-events';
import type { TimedEvent } from './session-socket';

const base = { sessionId: 's1', type: 'recall', mode: 'recall', turn: 1, totalPoints: 2 } as const;
const active: SessionState = { status: 'active', ...base, recalledCount: 1 };
const completed: SessionState = { status: 'completed', ...base, recalledCount: 2, endedAt: '2025-01-01T00:00:00.000Z' };

function timed(events: ServerEvent[]): TimedEvent[] {
  return events.map((event, index) => ({ event, at: 100 + index * 10 }));
}

describe('readReply', () => {
  it('is incomplete until the state_update after the assistant message', () => {
    const events = timed([
      { type: 'typing', payload: {} },
      { type: 'assistant_delta', payload: { messageId: 'm1', delta: 'Yes' } },
      { type: 'assistant', payload: { messageId: 'm1', message: 'Yes — that’s it.' } },
    ]);
    expect(readReply(events, 95)).toBeNull();
    expect(readReply([...events, { event: { type: 'state_update', payload: { state: active } }, at: 130 }], 95)).toEqual({
      tutorMessage: 'Yes — that’s it.',
      ttftMs: 15,
      totalMs: 25,
      state: active,
      summary: null,
      error: null,
    });
  });

  it('waits for session_complete when the state has ended', () => {
    const summary: SessionSummary = { sessionId: 's1', type: 'recall', status: 'completed', reason: 'all_recalled', turns: 2, recalledCount: 2, totalPoints: 2, durationSeconds: 3, points: [] };
    const events = timed([
      { type: 'assistant', payload: { messageId: 'm2', message: 'Done!' } },
      { type: 'state_update', payload: { state: completed } },
    ]);
    expect(readReply(events, 100)).toBeNull();
    expect(readReply([...events, { event: { type: 'session_complete', payload: { summary } }, at: 125 }], 100)).toMatchObject({ ttftMs: null, totalMs: 0, summary, state: completed });
  });

  it('settles on the state_update of a reply sent after the session ended (a post-completion reply)', () => {
    const events = timed([
      { type: 'typing', payload: {} },
      { type: 'assistant', payload: { messageId: 'm3', message: 'We’ve finished this plan.' } },
      { type: 'state_update', payload: { state: completed } },
    ]);
    expect(readReply(events, 95)).toBeNull();
    expect(readReply(events, 95, true)).toMatchObject({ tutorMessage: 'We’ve finished this plan.', state: completed, summary: null });
  });

  it('settles on an error event', () => {
    expect(readReply(timed([{ type: 'error', payload: { code: 'llm_unavailable', message: 'down' } }]), 100)).toMatchObject({
      tutorMessage: '',
      error: { code: 'llm_unavailable', message: 'down' },
    });
  });
});
