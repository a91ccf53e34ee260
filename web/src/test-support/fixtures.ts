import type { AssessmentResults, HistoryMessage, ServerEvent, SessionState, SessionSummary, Widget } from '@tutorloop/shared';

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

/** A running assessment's state: item 3 of 20, deadline 30 minutes after the start. */
export function assessmentState(overrides: Partial<NonNullable<SessionState['assessment']>> = {}): SessionState {
  return {
    status: 'awaiting_client_action',
    sessionId,
    type: 'assessment',
    mode: 'recall',
    turn: 2,
    recalledCount: 2,
    totalPoints: 20,
    title: 'Math fundamentals',
    pendingWidget: choiceWidget,
    assessment: {
      blueprintId: 'MATH-FUNDAMENTALS-L1',
      answered: 2,
      totalItems: 20,
      currentPosition: 3,
      section: 'Addition',
      deadline: '2025-01-01T10:30:00.000Z',
      remainingSeconds: 1500,
      timeLimitSeconds: 1800,
      ...overrides,
    },
  };
}

/** Results of a finished assessment: one multiple-choice item right, one code item half right, one skipped. */
export const assessmentResults: AssessmentResults = {
  blueprintId: 'MATH-FUNDAMENTALS-L1',
  title: 'Math fundamentals',
  score: 1.5,
  maxScore: 3,
  percent: 0.5,
  answered: 2,
  overall: { ability: 0.123, standardError: 0.8, responses: 2 },
  domains: [
    { domain: 'arithmetic', score: 1, maxScore: 2, ability: -0.5, standardError: 0.9, responses: 1 },
    { domain: 'python', score: 0.5, maxScore: 1, ability: 0, standardError: 1.2, responses: 1 },
  ],
  items: [
    {
      position: 2,
      section: 'Python',
      domain: 'python',
      skillId: 'py-count-chars',
      kind: 'code',
      stem: 'Write `count(s, c)`.',
      learnerAnswer: 'def count(s, c):\n    return 0',
      correctAnswer: 'def count(s, c):\n    return s.count(c)',
      credit: 0.5,
      timeSeconds: 95.4,
      difficulty: 0.2,
      tests: {
        passed: 2,
        total: 4,
        note: 'AssertionError on "aaa"',
        cases: [
          { input: "count('', 'a')", expected: '0', actual: '0', passed: true, example: true },
          { input: "count('banana', 'a')", expected: '3', actual: '0', passed: false, example: true },
          { input: "count('Aardvark', 'a')", expected: '2', actual: '0', passed: false, example: false },
          { input: "count('xyz', 'a')", expected: '0', actual: '0', passed: true, example: false },
        ],
      },
    },
    {
      position: 1,
      section: 'Addition',
      domain: 'arithmetic',
      skillId: 'add-2digit',
      kind: 'multiple_choice',
      stem: 'What is 27 + 15?',
      options: ['42', '32', '43', '52'],
      learnerAnswer: '42',
      correctAnswer: '42',
      credit: 1,
      timeSeconds: 12,
      difficulty: -0.4,
    },
    {
      position: 3,
      section: 'Addition',
      domain: 'arithmetic',
      skillId: 'add-2digit',
      kind: 'multiple_choice',
      stem: 'What is 48 + 36?',
      options: ['84', '74', '714', '82'],
      learnerAnswer: null,
      correctAnswer: '84',
      credit: 0,
      timeSeconds: null,
      difficulty: 0.3,
    },
  ],
};
