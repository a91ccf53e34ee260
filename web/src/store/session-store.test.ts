import type { ServerEvent } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import {
  activeState,
  assessmentResults,
  assessmentState,
  awaitingState,
  choiceWidget,
  events,
  freeTextWidget,
  learnerHistory,
  sessionId,
  summary,
  tutorHistory,
} from '../test-support/fixtures';
import {
  createSessionStore,
  selectAssessmentProgress,
  selectFinished,
  selectLearningProgress,
  selectProgressLabel,
  selectReplying,
  selectScoringSince,
} from './session-store';

const fixedNow = new Date('2025-01-01T12:00:00.000Z');

function storeWith(...sequence: ServerEvent[]) {
  const store = createSessionStore({ now: () => fixedNow });
  store.getState().reset(sessionId);
  store.getState().handleConnectionChange('open', null);
  for (const event of sequence) store.getState().handleServerEvent(event);
  return store;
}

/** The data part of the view, without the actions. */
function view(store: ReturnType<typeof storeWith>) {
  const { messages, streaming, typing, state, pendingWidget, summary: currentSummary, lastError, connection } =
    store.getState();
  return { messages, streaming, typing, state, pendingWidget, summary: currentSummary, lastError, connection };
}

describe('session store: connecting to a new session', () => {
  it('shows the opening reply as it streams, then replaces it with the final message', () => {
    const store = storeWith(events.state(activeState()), events.history([]), events.typing());
    expect(view(store)).toEqual({
      messages: [],
      streaming: null,
      typing: true,
      state: activeState(),
      pendingWidget: null,
      summary: null,
      lastError: null,
      connection: 'open',
    });
    expect(selectReplying(store.getState())).toBe(true);

    store.getState().handleServerEvent(events.delta('m1', 'Hi! Let’s talk about '));
    store.getState().handleServerEvent(events.delta('m1', '**photosynthesis**.'));
    expect(store.getState().streaming).toEqual({ messageId: 'm1', content: 'Hi! Let’s talk about **photosynthesis**.' });
    expect(store.getState().typing).toBe(true);

    store.getState().handleServerEvent(events.assistant('m1', 'Hi! Let’s talk about **photosynthesis**. What do plants need?'));
    store.getState().handleServerEvent(events.state(activeState({ turn: 0 })));
    expect(view(store)).toEqual({
      messages: [
        {
          id: 'm1',
          role: 'tutor',
          content: 'Hi! Let’s talk about **photosynthesis**. What do plants need?',
          createdAt: fixedNow.toISOString(),
        },
      ],
      streaming: null,
      typing: false,
      state: activeState({ turn: 0 }),
      pendingWidget: null,
      summary: null,
      lastError: null,
      connection: 'open',
    });
    expect(selectReplying(store.getState())).toBe(false);
    expect(selectProgressLabel(store.getState())).toBe('0 of 3 recalled');
  });

  it('ignores a late delta for a reply that is already final', () => {
    const store = storeWith(events.delta('m1', 'Hel'), events.assistant('m1', 'Hello'), events.delta('m1', 'lo'));
    expect(store.getState().streaming).toBeNull();
    expect(store.getState().messages.map((message) => message.content)).toEqual(['Hello']);
  });

  it('starts a new streaming message when a delta for another id arrives', () => {
    const store = storeWith(events.delta('m1', 'one'), events.delta('m2', 'two'));
    expect(store.getState().streaming).toEqual({ messageId: 'm2', content: 'two' });
  });
});

describe('session store: a learner turn', () => {
  it('shows the learner message at once, then the reply and the new progress', () => {
    const store = storeWith(
      events.state(activeState()),
      events.history([tutorHistory('m1', 'What do plants need to make glucose?')]),
    );
    store.getState().addLocalChat({ clientMessageId: 'c1', content: 'Light, water and CO2' });
    store.getState().handleServerEvent(events.typing());
    store.getState().handleServerEvent(events.delta('m2', 'Exactly'));
    store.getState().handleServerEvent(events.assistant('m2', 'Exactly — and what comes out?'));
    store.getState().handleServerEvent(events.state(activeState({ turn: 1, recalledCount: 1 })));

    expect(store.getState().messages).toEqual([
      {
        id: 'm1',
        role: 'tutor',
        content: 'What do plants need to make glucose?',
        createdAt: '2025-01-01T10:00:00.000Z',
      },
      {
        id: 'local-c1',
        role: 'learner',
        content: 'Light, water and CO2',
        createdAt: fixedNow.toISOString(),
        clientMessageId: 'c1',
        local: true,
      },
      { id: 'm2', role: 'tutor', content: 'Exactly — and what comes out?', createdAt: fixedNow.toISOString() },
    ]);
    expect(selectProgressLabel(store.getState())).toBe('1 of 3 recalled');
  });
});

describe('session store: reconnect with history', () => {
  it('replaces the message list with the history (the server’s truth)', () => {
    const store = storeWith(events.history([tutorHistory('m1', 'Old text')]));
    store.getState().addLocalChat({ clientMessageId: 'c1', content: 'Light and water' });
    store.getState().handleConnectionChange('reconnecting', null);
    store.getState().handleConnectionChange('open', null);
    store.getState().handleServerEvent(events.state(activeState({ turn: 1, recalledCount: 1 })));
    store.getState().handleServerEvent(
      events.history([
        tutorHistory('m1', 'What do plants need?'),
        learnerHistory('u1', 'Light and water', { clientMessageId: 'c1' }),
        tutorHistory('m2', 'Yes! And what do they release?'),
      ]),
    );
    expect(store.getState().messages).toEqual([
      { id: 'm1', role: 'tutor', content: 'What do plants need?', createdAt: '2025-01-01T10:00:00.000Z' },
      {
        id: 'u1',
        role: 'learner',
        content: 'Light and water',
        createdAt: '2025-01-01T10:01:00.000Z',
        clientMessageId: 'c1',
      },
      { id: 'm2', role: 'tutor', content: 'Yes! And what do they release?', createdAt: '2025-01-01T10:00:00.000Z' },
    ]);
  });

  it('keeps a local message the history does not have yet (the socket resends it)', () => {
    const store = storeWith(events.history([tutorHistory('m1', 'What do plants need?')]));
    store.getState().addLocalChat({ clientMessageId: 'c1', content: 'Sunlight' });
    store.getState().handleServerEvent(events.history([tutorHistory('m1', 'What do plants need?')]));
    expect(store.getState().messages.map((message) => [message.id, message.content])).toEqual([
      ['m1', 'What do plants need?'],
      ['local-c1', 'Sunlight'],
    ]);
  });

  it('keeps the streaming tutor message when its id is not in the history yet', () => {
    const store = storeWith(events.history([tutorHistory('m1', 'Hello')]), events.typing(), events.delta('m2', 'Good, so'));
    store.getState().handleServerEvent(events.history([tutorHistory('m1', 'Hello')]));
    expect(store.getState().streaming).toEqual({ messageId: 'm2', content: 'Good, so' });
    expect(store.getState().messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('drops the streaming message once the history holds its final text', () => {
    const store = storeWith(events.typing(), events.delta('m2', 'Good, so'));
    store.getState().handleServerEvent(
      events.history([tutorHistory('m1', 'Hello'), tutorHistory('m2', 'Good, so what comes out?')]),
    );
    expect(store.getState().streaming).toBeNull();
    expect(store.getState().messages.map((message) => message.content)).toEqual(['Hello', 'Good, so what comes out?']);
  });

  it('clears the typing indicator when the connection drops', () => {
    const store = storeWith(events.typing());
    store.getState().handleConnectionChange('reconnecting', null);
    expect(store.getState().typing).toBe(false);
    expect(store.getState().connection).toBe('reconnecting');
  });

  it('restores answered widgets read-only from the history', () => {
    const store = storeWith(
      events.history([
        tutorHistory('m1', 'Quick check:', { widget: choiceWidget }),
        learnerHistory('u1', 'Oxygen', { widgetAnswer: { widgetId: choiceWidget.widgetId, response: { selectedIndex: 1 } } }),
      ]),
    );
    expect(store.getState().messages).toEqual([
      { id: 'm1', role: 'tutor', content: 'Quick check:', createdAt: '2025-01-01T10:00:00.000Z', widget: choiceWidget },
      {
        id: 'u1',
        role: 'learner',
        content: 'Oxygen',
        createdAt: '2025-01-01T10:01:00.000Z',
        widgetAnswer: { widgetId: 'w_choice', response: { selectedIndex: 1 } },
      },
    ]);
    expect(store.getState().pendingWidget).toBeNull();
  });
});

describe('session store: widgets', () => {
  it('shows a widget, then clears it on a state_update without a pending widget', () => {
    const store = storeWith(events.widget(choiceWidget));
    expect(store.getState().pendingWidget).toEqual(choiceWidget);
    store.getState().handleServerEvent(events.state(activeState({ turn: 2 })));
    expect(store.getState().pendingWidget).toBeNull();
  });

  it('takes the pending widget from state_update on connect', () => {
    const store = storeWith(events.state(awaitingState(freeTextWidget)), events.widget(freeTextWidget), events.history([]));
    expect(store.getState().pendingWidget).toEqual(freeTextWidget);
  });

  it('hides an answered widget even if a stale state_update still lists it', () => {
    const store = storeWith(
      events.history([tutorHistory('m1', 'Pick one:')]),
      events.state(awaitingState(choiceWidget)),
      events.widget(choiceWidget),
    );
    store.getState().addLocalWidgetAnswer(choiceWidget, { selectedIndex: 1 });
    store.getState().handleServerEvent(events.state(awaitingState(choiceWidget)));
    expect(store.getState().pendingWidget).toBeNull();
    expect(store.getState().messages).toEqual([
      { id: 'm1', role: 'tutor', content: 'Pick one:', createdAt: '2025-01-01T10:00:00.000Z', widget: choiceWidget },
      {
        id: 'local-answer-w_choice',
        role: 'learner',
        content: '',
        createdAt: fixedNow.toISOString(),
        widgetAnswer: { widgetId: 'w_choice', response: { selectedIndex: 1 } },
        local: true,
      },
    ]);
  });

  it('brings an answered widget back after a reconnect when the answer was lost', () => {
    const store = storeWith(events.state(awaitingState(choiceWidget)), events.widget(choiceWidget));
    store.getState().addLocalWidgetAnswer(choiceWidget, { selectedIndex: 0 });
    store.getState().handleConnectionChange('reconnecting', null);
    store.getState().handleConnectionChange('open', null);
    store.getState().handleServerEvent(events.state(awaitingState(choiceWidget)));
    store.getState().handleServerEvent(events.widget(choiceWidget));
    store.getState().handleServerEvent(events.history([tutorHistory('m1', 'Pick one:', { widget: choiceWidget })]));
    expect(store.getState().pendingWidget).toEqual(choiceWidget);
    expect(store.getState().messages.map((message) => message.id)).toEqual(['m1']);
  });

  it('lets the next widget replace the answered one', () => {
    const store = storeWith(events.widget(choiceWidget));
    store.getState().addLocalWidgetAnswer(choiceWidget, { selectedIndex: 1 });
    store.getState().handleServerEvent(events.typing());
    store.getState().handleServerEvent(events.assistant('m2', 'Right. Now in your words:'));
    store.getState().handleServerEvent(events.state(awaitingState(freeTextWidget)));
    store.getState().handleServerEvent(events.widget(freeTextWidget));
    expect(store.getState().pendingWidget).toEqual(freeTextWidget);
  });
});

describe('session store: widgets stay readable', () => {
  it('attaches a live widget to the tutor message that handed it out', () => {
    const store = storeWith(
      events.history([tutorHistory('m1', 'Hello')]),
      events.typing(),
      events.assistant('m2', 'A quick question:'),
      events.state(awaitingState(choiceWidget)),
      events.widget(choiceWidget),
    );
    expect(store.getState().messages.map((message) => [message.id, message.widget?.widgetId ?? null])).toEqual([
      ['m1', null],
      ['m2', 'w_choice'],
    ]);
    // Ending with the widget unanswered keeps its question in the transcript.
    store.getState().handleServerEvent(events.complete());
    expect(store.getState().pendingWidget).toBeNull();
    expect(store.getState().messages[1]?.widget).toEqual(choiceWidget);
  });

  it('does not mutate the previous message list when answering', () => {
    const store = storeWith(events.history([tutorHistory('m1', 'Pick one:')]), events.widget(choiceWidget));
    const before = store.getState().messages;
    store.getState().addLocalWidgetAnswer(choiceWidget, { selectedIndex: 0 });
    expect(before).toHaveLength(1);
    expect(store.getState().messages).toHaveLength(2);
  });

  it('shows the question on its own when no tutor message can carry it', () => {
    const store = storeWith(events.widget(freeTextWidget));
    store.getState().addLocalWidgetAnswer(freeTextWidget, { text: 'It absorbs light.' });
    expect(store.getState().messages.map((message) => [message.id, message.role])).toEqual([
      ['local-widget-w_text', 'tutor'],
      ['local-answer-w_text', 'learner'],
    ]);
  });
});

describe('session store: completion', () => {
  it('shows the summary and clears the widget and typing indicator', () => {
    const store = storeWith(events.widget(choiceWidget), events.typing(), events.complete());
    expect(store.getState().summary).toEqual(summary);
    expect(store.getState().pendingWidget).toBeNull();
    expect(store.getState().typing).toBe(false);
    expect(selectFinished(store.getState())).toBe(true);
  });

  it('counts a completed state as finished even before the summary arrives', () => {
    const store = storeWith(
      events.state({ ...activeState({ recalledCount: 3 }), status: 'completed', endedAt: '2025-01-01T10:10:00.000Z' }),
    );
    expect(selectFinished(store.getState())).toBe(true);
    expect(store.getState().summary).toBeNull();
  });

  it('ignores a widget event after the session ended', () => {
    const store = storeWith(
      events.state({ ...activeState(), status: 'abandoned', endedAt: '2025-01-01T10:10:00.000Z' }),
      events.widget(choiceWidget),
    );
    expect(store.getState().pendingWidget).toBeNull();
  });
});

describe('session store: errors', () => {
  it('keeps the last error and stops the typing indicator (the turn failed)', () => {
    const store = storeWith(events.typing(), events.error('llm_unavailable', 'The tutor is unavailable. Try again.'));
    expect(store.getState().lastError).toEqual({ code: 'llm_unavailable', message: 'The tutor is unavailable. Try again.' });
    expect(store.getState().typing).toBe(false);
    store.getState().setError(null);
    expect(store.getState().lastError).toBeNull();
  });

  it('keeps the conversation and state when an error arrives', () => {
    const store = storeWith(
      events.state(activeState({ recalledCount: 2 })),
      events.history([tutorHistory('m1', 'Hello')]),
      events.error('invalid_payload', 'Invalid chat payload: message: message is empty'),
    );
    expect(store.getState().messages.map((message) => message.id)).toEqual(['m1']);
    expect(store.getState().state).toEqual(activeState({ recalledCount: 2 }));
  });

  it('records a fatal close reason', () => {
    const store = storeWith();
    store.getState().handleConnectionChange('closed', 'forbidden');
    expect(store.getState().connection).toBe('closed');
    expect(store.getState().closeReason).toBe('forbidden');
  });

  it('starts clean on reset', () => {
    const store = storeWith(events.history([tutorHistory('m1', 'Hello')]), events.error('internal', 'Oops'));
    store.getState().reset('sess_2');
    expect(view(store)).toEqual({
      messages: [],
      streaming: null,
      typing: false,
      state: null,
      pendingWidget: null,
      summary: null,
      lastError: null,
      connection: 'connecting',
    });
    expect(store.getState().sessionId).toBe('sess_2');
  });
});

describe('session store: assessments', () => {
  it('exposes the item progress and no recall wording', () => {
    const store = storeWith(events.state(assessmentState()));
    expect(selectProgressLabel(store.getState())).toBeNull();
    expect(selectAssessmentProgress(store.getState())).toEqual({
      blueprintId: 'MATH-FUNDAMENTALS-L1',
      answered: 2,
      totalItems: 20,
      currentPosition: 3,
      section: 'Addition',
      deadline: '2025-01-01T10:30:00.000Z',
      remainingSeconds: 1500,
      timeLimitSeconds: 1800,
    });
    expect(store.getState().pendingWidget).toEqual(choiceWidget);
  });

  it('says a code answer is being scored from the moment it is sent until the next item comes (issue 25)', () => {
    const codeWidget = { widgetId: 'w_code', kind: 'code_editor' as const, props: { prompt: 'Write count_chars.', language: 'python' as const } };
    const store = storeWith(events.state(assessmentState()), events.widget(codeWidget));
    expect(selectScoringSince(store.getState())).toBeNull();
    store.getState().addLocalWidgetAnswer(codeWidget, { code: 'def count_chars(s):\n    return len(s)\n', language: 'python' });
    expect(selectScoringSince(store.getState())).toBe(fixedNow.toISOString());
    // The next item's framing, then its widget: scoring is over.
    store.getState().handleServerEvent(events.assistant('m2', '**Item 4 of 20**'));
    expect(selectScoringSince(store.getState())).toBeNull();
    // A choice answer is scored at once: nothing to say.
    const choice = storeWith(events.state(assessmentState()), events.widget(choiceWidget));
    choice.getState().addLocalWidgetAnswer(choiceWidget, { selectedIndex: 1 });
    expect(selectScoringSince(choice.getState())).toBeNull();
  });

  it('has no assessment progress in a recall session', () => {
    const store = storeWith(events.state(activeState()));
    expect(selectAssessmentProgress(store.getState())).toBeNull();
  });

  it('keeps the results that come with session_complete', () => {
    const finished = { ...summary, type: 'assessment' as const, reason: 'time_expired' as const, assessment: assessmentResults };
    const store = storeWith(events.state(assessmentState()), events.complete(finished));
    expect(store.getState().summary).toEqual(finished);
    expect(store.getState().pendingWidget).toBeNull();
    expect(selectFinished(store.getState())).toBe(true);
  });
});

describe('session store: learning sessions (SPEC §4.4)', () => {
  const learning = {
    studyPlanId: 'ipv4-subnetting',
    step: 2,
    totalSteps: 3,
    stepType: 'check' as const,
    concept: 'binary octets',
    steps: [
      { number: 1, type: 'explain' as const, concept: 'binary octets', status: 'done' as const },
      { number: 2, type: 'check' as const, concept: 'binary octets', status: 'current' as const },
      { number: 3, type: 'practice' as const, concept: 'network address', status: 'upcoming' as const },
    ],
    concepts: [
      { concept: 'binary octets', level: 'learning' as const },
      { concept: 'network address', level: 'not_started' as const },
    ],
    questionOpen: true,
    extension: false,
  };

  it('exposes the step progress, concepts and open question, with no recall wording', () => {
    const store = storeWith(events.state(activeState({ type: 'learning', title: 'IPv4 subnetting', recalledCount: 1, totalPoints: 3, learning })));
    expect(selectProgressLabel(store.getState())).toBeNull();
    expect(selectLearningProgress(store.getState())).toEqual(learning);
    expect(selectAssessmentProgress(store.getState())).toBeNull();
  });

  it('follows each state_update: the next step, the question answered', () => {
    const next = {
      ...learning,
      step: 3,
      stepType: 'practice' as const,
      concept: 'network address',
      steps: learning.steps.map((step) => ({ ...step, status: step.number < 3 ? ('done' as const) : ('current' as const) })),
      questionOpen: false,
    };
    const store = storeWith(
      events.state(activeState({ type: 'learning', learning })),
      events.state(awaitingState(choiceWidget, { type: 'learning', recalledCount: 2, totalPoints: 3, learning: next })),
    );
    expect(selectLearningProgress(store.getState())).toEqual(next);
    expect(store.getState().pendingWidget).toEqual(choiceWidget);
  });

  it('has no learning progress in a recall session', () => {
    const store = storeWith(events.state(activeState()));
    expect(selectLearningProgress(store.getState())).toBeNull();
  });
});
