/** A survey room on the in-memory storage, a fixed clock and seeded ids (SPEC §4.5, §4.2 durable loop). */
import type { ServerEvent, SurveyContent, Widget } from '@tutorloop/shared';
import { SurveyContent as SurveyContentSchema } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../ports';
import { fixedClock, recordingListener, seededIds } from '../session/test-support';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { Storage } from '../storage/storage';
import { surveyModule } from './survey-module';
import { nextQuestionId, surveyProgress } from './survey-rules';

const survey: SurveyContent = SurveyContentSchema.parse({
  title: 'Workshop',
  questions: [
    { id: 'useful', kind: 'rating', prompt: 'How useful was it?', min: 1, max: 5, skip: [{ when: { atMost: 2 }, goTo: 'why-not' }] },
    { id: 'again', kind: 'multiple_choice', prompt: 'Come again?', options: ['Yes', 'No'], skip: [{ when: { equals: 'Yes' }, goTo: 'end' }] },
    { id: 'why-not', kind: 'free_text', prompt: 'What would make it better?', required: false },
  ],
});

const clock = fixedClock();
let storage: Storage;
let sessionId: string;

const widgets = (events: ServerEvent[]) => events.flatMap((event) => (event.type === 'widget' ? [event.payload] : []));

function module() {
  return surveyModule({ storage, clock, ids: seededIds(`p${Math.random()}`), logger: silentLogger });
}

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.surveys.upsertBuiltIn({ id: 'workshop', survey }, clock.now());
  });
  const created = await module().create({ learnerId: 'l1', body: { type: 'survey', surveyId: 'workshop' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
});

describe('skip rules (SPEC §4.5)', () => {
  it('go to the target of the first rule that holds, else to the next question; a skipped question fires no rule', () => {
    expect(nextQuestionId(survey, 'useful', { value: 2 })).toBe('why-not');
    expect(nextQuestionId(survey, 'useful', { value: 3 })).toBe('again');
    expect(nextQuestionId(survey, 'again', { selectedIndex: 0 })).toBeNull();
    expect(nextQuestionId(survey, 'again', { selectedIndex: 1 })).toBe('why-not');
    expect(nextQuestionId(survey, 'again', null)).toBe('why-not');
    expect(nextQuestionId(survey, 'why-not', { text: 'More coffee' })).toBeNull();
  });
});

// Issue 25: "Question 5 of 6" on the last question, then "5 answered" — the total counted the
// questions of the branch not taken. The count follows the respondent's path instead.
describe('progress on the respondent\'s path', () => {
  const state = (current: string | null, answers: Array<{ questionId: string; skipped?: boolean }>) =>
    surveyProgress({ type: 'survey', surveyId: 'workshop', survey, current, answers: answers.map(({ questionId, skipped }) => ({ questionId, answer: skipped ? null : { value: 3 }, text: skipped ? null : '3 of 5' })) });

  it('counts the questions met and those still ahead, so the last one is N of N and the summary adds up to N', () => {
    // Ahead of the first: useful, again, why-not (no rule holds whatever the answer).
    expect(state('useful', [])).toMatchObject({ question: 1, totalQuestions: 3 });
    expect(state('again', [{ questionId: 'useful' }])).toMatchObject({ question: 2, totalQuestions: 3 });
    // A low rating jumped over "again": two questions on this path.
    expect(state('why-not', [{ questionId: 'useful' }])).toMatchObject({ question: 2, totalQuestions: 2 });
    expect(state(null, [{ questionId: 'useful' }, { questionId: 'why-not', skipped: true }])).toEqual({ surveyId: 'workshop', question: 2, totalQuestions: 2, required: false, answered: 1, skipped: 1 });
  });

  it('takes a skip rule that holds for every answer (the shipped survey\'s last rating ends it): its last question is N of N', () => {
    const ending = SurveyContentSchema.parse({
      title: 'Ending',
      questions: [
        { id: 'score', kind: 'rating', prompt: 'Score?', min: 0, max: 10, skip: [{ when: { atLeast: 0 }, goTo: 'end' }] },
        { id: 'other-branch', kind: 'free_text', prompt: 'Only reached by a jump', required: false },
      ],
    });
    expect(surveyProgress({ type: 'survey', surveyId: 'ending', survey: ending, current: 'score', answers: [] })).toMatchObject({ question: 1, totalQuestions: 1 });
  });
});

describe('SurveyRoom', () => {
  it('answers are stored before the next question; a new room picks up an answer whose next question was never presented', async () => {
    const first = module().openRoom(sessionId, () => {});
    const heard = recordingListener();
    await first.attach(heard.listener);
    await first.settled();
    const opening = widgets(heard.events)[0]!;
    expect(opening).toEqual({ widgetId: opening.widgetId, kind: 'rating', props: { prompt: 'How useful was it?', min: 1, max: 5 } });

    // A crash between the two phases: the answer is committed, the next question is not.
    await storage.transaction(async (tx) => {
      const action = (await tx.pendingActions.getPending(sessionId))!;
      await tx.pendingActions.resolve(action.id, 'answered', { value: 1 }, clock.now());
      await tx.messages.append({ id: 'answer-1', sessionId, role: 'tool_result', content: '1 of 5', toolCall: null, toolCallId: action.toolCallId, widgetAnswer: { widgetId: action.id, response: { value: 1 } }, clientMessageId: null, createdAt: clock.now() });
      const session = (await tx.sessions.get(sessionId))!;
      if (session.typeState.type !== 'survey') throw new Error('not a survey');
      await tx.sessions.update(sessionId, { status: 'active', turn: 1, typeState: { ...session.typeState, answers: [{ questionId: 'useful', answer: { value: 1 }, text: '1 of 5' }] } }, clock.now());
    });
    const second = module().openRoom(sessionId, () => {});
    const resumed = recordingListener();
    await second.attach(resumed.listener);
    await second.settled();
    const next: Widget = widgets(resumed.events).at(-1)!;
    // A rating of 1 (≤ 2) jumps to the free-text question.
    expect(next).toMatchObject({ kind: 'free_text', props: { prompt: 'What would make it better?' } });
    const state = resumed.events.flatMap((event) => (event.type === 'state_update' ? [event.payload.state] : [])).at(-1)!;
    // Counted on the respondent's path (issue 25): the second question they meet, and the last.
    expect(state.survey).toEqual({ surveyId: 'workshop', question: 2, totalQuestions: 2, required: false, answered: 1, skipped: 0 });
  });

  it('a chat message answers nothing: a required question stays, with a fixed line; `skip` skips only an optional one', async () => {
    const room = module().openRoom(sessionId, () => {});
    const heard = recordingListener();
    await room.attach(heard.listener);
    await room.settled();
    await room.handle({ type: 'chat', payload: { message: 'skip' } }, heard.listener);
    await room.settled();
    const replies = heard.events.flatMap((event) => (event.type === 'assistant' ? [event.payload.message] : []));
    expect(replies.at(-1)).toBe('This survey is answered through the question above — please give your answer there.');
    expect(widgets(heard.events)).toHaveLength(1);
    const rating = widgets(heard.events)[0]!;
    await room.handle({ type: 'widget_response', payload: { widgetId: rating.widgetId, response: { value: 2 } } }, heard.listener);
    await room.settled();
    clock.advance(1000);
    await room.handle({ type: 'chat', payload: { message: ' Skip ' } }, heard.listener);
    await room.settled();
    const complete = heard.events.find((event) => event.type === 'session_complete');
    expect(complete?.type === 'session_complete' && complete.payload.summary.survey).toEqual({
      surveyId: 'workshop',
      title: 'Workshop',
      // The two questions this path met: answered and skipped add up to the total (issue 25).
      totalQuestions: 2,
      answered: 1,
      skipped: 1,
      finished: true,
      answers: [
        { questionId: 'useful', prompt: 'How useful was it?', answer: '2 of 5' },
        { questionId: 'why-not', prompt: 'What would make it better?', answer: null },
      ],
    });
    expect((await storage.read((reader) => reader.surveys.listResponses('workshop'))).map((row) => [row.questionId, row.answer])).toEqual([
      ['useful', { value: 2 }],
      ['why-not', null],
    ]);
  });
});
