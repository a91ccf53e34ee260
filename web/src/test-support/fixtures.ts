import type { HistoryMessage, ServerEvent, SessionState, SessionSummary, Widget } from '@tutorloop/shared';

/** Realistic server events for the store and socket tests, built from the shared types. */
export const sessionId = 'sess_1';

export function activeState(overrides: Partial<Extract<SessionState, { status: 'active' }>> = {}): SessionState {
  return {
    status: 'active',
    sessionId,
    type: 'recall',
    mode: 'recall',
    turn: 0,
    recalledCount: 0,
    totalPoints: 3,
    title: 'Photosynthesis',
    ...overrides,
  };
}

export function awaitingState(pendingWidget: Widget, overrides: Partial<Omit<Extract<SessionState, { status: 'awaiting_client_action' }>, 'status'>> = {}): SessionState {
  return {
    status: 'awaiting_client_action',
    sessionId,
    type: 'recall',
    mode: 'recall',
    turn: 1,
    recalledCount: 1,
    totalPoints: 3,
    title: 'Photosynthesis',
    pendingWidget,
    ...overrides,
  };
}

export const choiceWidget: Widget = {
  widgetId: 'w_choice',
  kind: 'multiple_choice',
  props: { prompt: 'Which gas do plants release?', options: ['Nitrogen', 'Oxygen', 'Helium'] },
};

export const freeTextWidget: Widget = {
  widgetId: 'w_text',
  kind: 'free_text',
  props: { prompt: 'Describe the light reactions.', maxLength: 500 },
};

export const summary: SessionSummary = {
  sessionId,
  type: 'recall',
  status: 'completed',
  reason: 'all_recalled',
  turns: 4,
  recalledCount: 3,
  totalPoints: 3,
  durationSeconds: 312,
  points: [
    { id: 'p1', content: 'Plants release oxygen', recalled: true },
    { id: 'p2', content: 'Chlorophyll absorbs red and blue light', recalled: true },
    { id: 'p3', content: 'Glucose is made in the Calvin cycle', recalled: true },
  ],
};

export function tutorHistory(id: string, content: string, extra: Partial<HistoryMessage> = {}): HistoryMessage {
  return { id, role: 'tutor', content, createdAt: '2025-01-01T10:00:00.000Z', ...extra };
}

export function learnerHistory(id: string, content: string, extra: Partial<HistoryMessage> = {}): HistoryMessage {
  return { id, role: 'learner', content, createdAt: '2025-01-01T10:01:00.000Z', ...extra };
}

export const events = {
  typing: (): ServerEvent => ({ type: 'typing', payload: {} }),
  delta: (messageId: string, delta: string): ServerEvent => ({ type: 'assistant_delta', payload: { messageId, delta } }),
  assistant: (messageId: string, message: string): ServerEvent => ({ type: 'assistant', payload: { messageId, message } }),
  state: (state: SessionState): ServerEvent => ({ type: 'state_update', payload: { state } }),
  widget: (widget: Widget): ServerEvent => ({ type: 'widget', payload: widget }),
  history: (messages: HistoryMessage[]): ServerEvent => ({ type: 'history', payload: { messages } }),
  complete: (value: SessionSummary = summary): ServerEvent => ({ type: 'session_complete', payload: { summary: value } }),
  error: (code: Extract<ServerEvent, { type: 'error' }>['payload']['code'], message: string): ServerEvent => ({
    type: 'error',
    payload: { code, message },
  }),
};
