/** The session view's part of SPEC §5 `stop` and `retry`: stopped replies, replaced replies, when the buttons show. */
import type { ServerEvent } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { activeState, events, learnerHistory, sessionId, tutorHistory } from '../test-support/fixtures';
import { createSessionStore, selectCanStop, selectRetryableMessageId } from './session-store';

const fixedNow = new Date('2025-01-01T12:00:00.000Z');

function storeWith(...sequence: ServerEvent[]) {
  const store = createSessionStore({ now: () => fixedNow });
  store.getState().reset(sessionId);
  store.getState().handleConnectionChange('open', null);
  for (const event of sequence) store.getState().handleServerEvent(event);
  return store;
}

describe('stop', () => {
  it('offers Stop while a recall reply is produced, and marks the reply that comes back stopped', () => {
    const store = storeWith(events.state(activeState()), events.history([tutorHistory('t1', 'Hello')]), events.typing(), events.delta('t2', 'Half a'));
    expect(selectCanStop(store.getState())).toBe(true);
    store.getState().handleServerEvent({ type: 'assistant', payload: { messageId: 't2', message: 'Half a', stopped: true } });
    expect(store.getState().messages.at(-1)).toEqual({ id: 't2', role: 'tutor', content: 'Half a', createdAt: fixedNow.toISOString(), stopped: true });
    expect(selectCanStop(store.getState())).toBe(false);
  });

  it('restores the stopped mark from history', () => {
    const store = storeWith(events.state(activeState()), events.history([tutorHistory('t1', 'Cut', { stopped: true })]));
    expect(store.getState().messages).toEqual([{ id: 't1', role: 'tutor', content: 'Cut', createdAt: '2025-01-01T10:00:00.000Z', stopped: true }]);
  });

  it('offers no Stop in an assessment', () => {
    const store = storeWith(events.state(activeState({ type: 'assessment' })), events.typing());
    expect(selectCanStop(store.getState())).toBe(false);
  });
});

describe('retry', () => {
  it('offers Retry on the last tutor reply only, and only while nothing is being produced', () => {
    const store = storeWith(events.state(activeState()), events.history([tutorHistory('t1', 'Hello'), learnerHistory('l1', 'hi'), tutorHistory('t2', 'Go on')]));
    expect(selectRetryableMessageId(store.getState())).toBe('t2');
    store.getState().handleServerEvent(events.typing());
    expect(selectRetryableMessageId(store.getState())).toBeNull();
  });

  it('puts the new reply in the place of the one it replaces', () => {
    const store = storeWith(
      events.state(activeState()),
      events.history([tutorHistory('t1', 'Hello'), learnerHistory('l1', 'hi'), tutorHistory('t2', 'Cut', { stopped: true })]),
      events.typing(),
      events.delta('t3', 'Whole'),
    );
    store.getState().handleServerEvent({ type: 'assistant', payload: { messageId: 't3', message: 'Whole reply.', replaces: 't2' } });
    expect(store.getState().messages.map((message) => [message.id, message.content, message.stopped ?? false])).toEqual([
      ['t1', 'Hello', false],
      ['l1', 'hi', false],
      ['t3', 'Whole reply.', false],
    ]);
    expect(store.getState().streaming).toBeNull();
    expect(selectRetryableMessageId(store.getState())).toBe('t3');
  });

  it('offers Retry in thought sessions too, and not in assessments', () => {
    const history = events.history([tutorHistory('t1', 'What shall we think through?')]);
    expect(selectRetryableMessageId(storeWith(events.state(activeState({ type: 'thought', totalPoints: 0 })), history).getState())).toBe('t1');
    expect(selectRetryableMessageId(storeWith(events.state(activeState({ type: 'assessment' })), history).getState())).toBeNull();
  });

  it('offers no Retry once the learner has written after the reply', () => {
    const store = storeWith(events.state(activeState()), events.history([tutorHistory('t1', 'Hello')]));
    store.getState().addLocalChat({ clientMessageId: 'c1', content: 'hi' });
    expect(selectRetryableMessageId(store.getState())).toBeNull();
  });
});
