/**
 * Surveys over the public protocol with no API key (SPEC §4.5, §5, §6): CRUD with owner and
 * shared rules, the shipped example taken along both branches of its skip rule, a SIGKILL and
 * restart mid-survey resuming at the same question, and the owner's results and CSV.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse, SessionSummary, SurveyContentInput, SurveyDetail, SurveyList, SurveyResults, Widget, WidgetAnswer } from '@tutorloop/shared';
import { postJson, startServerProcess } from './helpers/server-process';
import { SocketClient, startTestServer, type TestServer } from './helpers/test-server';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function server(): Promise<TestServer> {
  const started = await startTestServer();
  cleanup.push(() => started.close());
  return started;
}

/** A survey with one skip rule: "No" ends it early. */
const pizzaSurvey: SurveyContentInput = {
  title: 'Lunch',
  questions: [
    { id: 'hungry', kind: 'multiple_choice', prompt: 'Are you hungry?', options: ['Yes', 'No'], skip: [{ when: { equals: 'No' }, goTo: 'end' }] },
    { id: 'how-much', kind: 'rating', prompt: 'How hungry?', min: 1, max: 5 },
    { id: 'what', kind: 'free_text', prompt: 'What would you like, with "quotes", commas?', required: false },
  ],
};

/** Opens a survey session and waits for its first question. */
async function takeSurvey(target: TestServer, token: string, surveyId: string) {
  const created = await target.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'survey', surveyId } });
  expect(created.status).toBe(201);
  const client = await target.connect(created.body.sessionId, token);
  cleanup.push(() => client.close());
  const widget = await client.waitFor('widget');
  return { sessionId: created.body.sessionId, client, widget: widget.payload };
}

/** Answers the pending question and returns the next one (or null when the survey completed). */
async function answer(client: SocketClient, widget: Widget, response: WidgetAnswer): Promise<Widget | null> {
  const from = client.events.length;
  client.send({ type: 'widget_response', payload: { widgetId: widget.widgetId, response } });
  const next = await Promise.race([
    client.waitFor('widget', { from }).then((event) => event.payload),
    client.waitFor('session_complete', { from }).then(() => null),
  ]);
  return next;
}

describe('survey definitions over REST (SPEC §6)', () => {
  it('creates, lists, reads and updates a survey; refuses an invalid one with every problem as field: message', async () => {
    const target = await server();
    const { token } = await target.register();
    const invalid = await target.api<{ error: { code: string; message: string } }>('POST', '/api/surveys', {
      token,
      body: {
        survey: {
          title: 'Broken',
          questions: [
            { id: 'a', kind: 'multiple_choice', prompt: 'Pick', options: ['X', 'Y'], skip: [{ when: { equals: 'Z' }, goTo: 'nowhere' }] },
            { id: 'a', kind: 'rating', prompt: 'Rate', min: 5, max: 3 },
          ],
        },
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_payload');
    expect(invalid.body.error.message.split('; ')).toEqual([
      'survey.questions.1.id: "a" is already the id of question 1',
      'survey.questions.0.skip.0.when.equals: "Z" is not one of the options',
      'survey.questions.0.skip.0.goTo: no question has the id "nowhere" (use a later question\'s id or "end")',
      'survey.questions.1.max: must be greater than min',
    ]);
    expect((await target.api<SurveyList>('GET', '/api/surveys', { token })).body.surveys.map((survey) => survey.id)).toEqual(['course-feedback']);

    const created = await target.api<SurveyDetail>('POST', '/api/surveys', { token, body: { survey: pizzaSurvey } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Lunch', questionCount: 3, shared: false, owned: true, builtIn: false, description: null });
    expect(created.body.survey.questions[1]).toEqual({ id: 'how-much', kind: 'rating', prompt: 'How hungry?', min: 1, max: 5, required: true, skip: [] });
    const renamed = await target.api<SurveyDetail>('PUT', `/api/surveys/${created.body.id}`, { token, body: { survey: { ...pizzaSurvey, title: 'Dinner' }, shared: true } });
    expect(renamed.body).toMatchObject({ title: 'Dinner', shared: true });
    expect((await target.api<SurveyList>('GET', '/api/surveys', { token })).body.surveys.map((survey) => [survey.title, survey.owned, survey.builtIn])).toEqual([
      ['Dinner', true, false],
      ['Studying with tutorloop', false, true],
    ]);
  });

  it('lets others read a shared survey but never write it or see its results; a private one is invisible to them', async () => {
    const target = await server();
    const owner = await target.register();
    const other = await target.register();
    const privateOne = (await target.api<SurveyDetail>('POST', '/api/surveys', { token: owner.token, body: { survey: pizzaSurvey } })).body;
    const shared = (await target.api<SurveyDetail>('POST', '/api/surveys', { token: owner.token, body: { survey: pizzaSurvey, shared: true } })).body;
    expect((await target.api('GET', `/api/surveys/${privateOne.id}`, { token: other.token })).status).toBe(404);
    expect((await target.api('POST', '/api/sessions', { token: other.token, body: { type: 'survey', surveyId: privateOne.id } })).status).toBe(404);
    expect((await target.api<SurveyDetail>('GET', `/api/surveys/${shared.id}`, { token: other.token })).body).toMatchObject({ owned: false, shared: true });
    expect((await target.api('PUT', `/api/surveys/${shared.id}`, { token: other.token, body: { survey: pizzaSurvey } })).status).toBe(403);
    expect((await target.api('DELETE', `/api/surveys/${shared.id}`, { token: other.token })).status).toBe(403);
    expect((await target.api('GET', `/api/surveys/${shared.id}/results`, { token: other.token })).status).toBe(403);
    expect((await target.api('PUT', '/api/surveys/course-feedback', { token: owner.token, body: { survey: pizzaSurvey } })).status).toBe(403);
    // A session already running keeps its copy when the survey is deleted.
    const { client, widget } = await takeSurvey(target, other.token, shared.id);
    expect((await target.api('DELETE', `/api/surveys/${shared.id}`, { token: owner.token })).status).toBe(204);
    expect((await target.api('GET', `/api/surveys/${shared.id}`, { token: owner.token })).status).toBe(404);
    const next = await answer(client, widget, { selectedIndex: 0 });
    expect(next).toMatchObject({ kind: 'rating', props: { prompt: 'How hungry?', min: 1, max: 5 } });
  });
});

describe('the example survey over the WebSocket (SPEC §4.5)', () => {
  it('presents every question verbatim, in order, follows the skip rule on both branches, and the owner sees the answers', async () => {
    const target = await server();
    const owner = await target.register();
    const survey = (await target.api<SurveyDetail>('POST', '/api/surveys', { token: owner.token, body: { survey: pizzaSurvey, shared: true } })).body;
    const respondent = await target.register();

    // Branch 1: "Yes" goes through every question; the optional free text is answered.
    const first = await takeSurvey(target, respondent.token, survey.id);
    expect(first.widget).toEqual({ widgetId: first.widget.widgetId, kind: 'multiple_choice', props: { prompt: 'Are you hungry?', options: ['Yes', 'No'] } });
    const state = first.client.events.find((event) => event.type === 'state_update' && event.payload.state.status === 'awaiting_client_action');
    expect(state && state.type === 'state_update' && state.payload.state.survey).toEqual({ surveyId: survey.id, question: 1, totalQuestions: 3, required: true, answered: 0, skipped: 0 });
    const rating = await answer(first.client, first.widget, { selectedIndex: 0 });
    expect(rating).toMatchObject({ kind: 'rating', props: { prompt: 'How hungry?', min: 1, max: 5 } });
    // An answer off the scale is refused; the question stays.
    let from = first.client.events.length;
    first.client.send({ type: 'widget_response', payload: { widgetId: rating!.widgetId, response: { value: 9 } } });
    expect((await first.client.waitFor('error', { from })).payload).toEqual({ code: 'invalid_payload', message: 'value must be a whole number from 1 to 5.' });
    const text = await answer(first.client, rating!, { value: 4 });
    expect(text).toMatchObject({ kind: 'free_text', props: { prompt: 'What would you like, with "quotes", commas?' } });
    from = first.client.events.length;
    const done = await answer(first.client, text!, { text: 'Pizza, "large"\nwith olives' });
    expect(done).toBeNull();
    const complete = await first.client.waitFor('session_complete', { from });
    expect(complete.payload.summary).toMatchObject({
      type: 'survey',
      reason: 'all_answered',
      survey: {
        finished: true,
        answered: 3,
        skipped: 0,
        answers: [
          { questionId: 'hungry', prompt: 'Are you hungry?', answer: 'Yes' },
          { questionId: 'how-much', prompt: 'How hungry?', answer: '4 of 5' },
          { questionId: 'what', prompt: 'What would you like, with "quotes", commas?', answer: 'Pizza, "large"\nwith olives' },
        ],
      },
    });
    // No feedback, no judgement: only the fixed polite lines.
    const replies = first.client.events.flatMap((event) => (event.type === 'assistant' ? [event.payload.message] : []));
    expect(replies.at(-1)).toBe('That’s the end of the survey — thank you for your answers!');
    expect(replies.join(' ')).not.toMatch(/correct|right answer|wrong/i);

    // Branch 2: "No" ends the survey at once (skip rule → end).
    const second = await takeSurvey(target, respondent.token, survey.id);
    expect(await answer(second.client, second.widget, { selectedIndex: 1 })).toBeNull();
    const ended = await second.client.waitFor('session_complete');
    expect(ended.payload.summary.survey).toMatchObject({ finished: true, answered: 1, answers: [{ questionId: 'hungry', answer: 'No' }] });

    // Branch 1 again, skipping the optional question with the chat command.
    const third = await takeSurvey(target, owner.token, survey.id);
    const thirdRating = await answer(third.client, third.widget, { selectedIndex: 0 });
    const optional = await answer(third.client, thirdRating!, { value: 2 });
    from = third.client.events.length;
    third.client.send({ type: 'chat', payload: { message: 'skip' } });
    expect((await third.client.waitFor('session_complete', { from })).payload.summary.survey).toMatchObject({ answered: 2, skipped: 1 });
    expect(optional?.kind).toBe('free_text');

    const results = await target.api<SurveyResults>('GET', `/api/surveys/${survey.id}/results`, { token: owner.token });
    expect(results.body).toEqual({
      surveyId: survey.id,
      title: 'Lunch',
      respondents: 3,
      completed: 3,
      questions: [
        { questionId: 'hungry', kind: 'multiple_choice', prompt: 'Are you hungry?', answered: 3, skipped: 0, options: [{ option: 'Yes', count: 2 }, { option: 'No', count: 1 }] },
        {
          questionId: 'how-much',
          kind: 'rating',
          prompt: 'How hungry?',
          answered: 2,
          skipped: 0,
          min: 1,
          max: 5,
          mean: 3,
          distribution: [1, 2, 3, 4, 5].map((value) => ({ value, count: value === 2 || value === 4 ? 1 : 0 })),
        },
        { questionId: 'what', kind: 'free_text', prompt: 'What would you like, with "quotes", commas?', answered: 1, skipped: 1, answers: ['Pizza, "large"\nwith olives'] },
      ],
    });
    const csv = await fetch(`${target.url}/api/surveys/${survey.id}/results?format=csv`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${survey.id}-results.csv"`);
    const rows = parse(await csv.text()) as string[][];
    expect(rows.map((row) => [row[0], row[3], ...row.slice(4)])).toEqual([
      ['respondent', 'completed', 'hungry', 'how-much', 'what'],
      ['1', 'yes', 'Yes', '4', 'Pizza, "large"\nwith olives'],
      ['2', 'yes', 'No', '', ''],
      ['3', 'yes', 'Yes', '2', ''],
    ]);
    expect((await target.api('GET', `/api/surveys/${survey.id}/results?format=xml`, { token: owner.token })).status).toBe(400);
  });

  it('takes the shipped course-feedback survey along both branches of its skip rule', async () => {
    const target = await server();
    const { token } = await target.register();
    const finisher = await takeSurvey(target, token, 'course-feedback');
    const seen: string[] = [finisher.widget.props.prompt];
    let widget: Widget | null = finisher.widget;
    const answers: WidgetAnswer[] = [{ selectedIndex: 0 }, { value: 5 }, { selectedIndex: 1 }, { text: 'The worked examples' }, { value: 9 }];
    for (const response of answers) {
      widget = await answer(finisher.client, widget!, response);
      if (widget) seen.push(widget.props.prompt);
    }
    expect(widget).toBeNull();
    expect(seen).toEqual([
      'Did you finish what you set out to study here?',
      'Overall, how would you rate studying with tutorloop?',
      'How was the pace of your sessions?',
      'What was the most useful part for you?',
      'How likely are you to recommend tutorloop to a friend?',
    ]);
    const quitter = await takeSurvey(target, token, 'course-feedback');
    const why = await answer(quitter.client, quitter.widget, { selectedIndex: 1 });
    expect(why).toMatchObject({ kind: 'free_text', props: { prompt: 'What made you stop? Anything we could change would help.' } });
    expect(await answer(quitter.client, why!, { text: 'Ran out of time' })).toBeNull();
  });
});

describe('a killed server mid-survey (SPEC §4.2, §8)', () => {
  it('resumes at the same question after SIGKILL and a restart, and the answers given before stay', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-survey-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServerProcess(dataDir);
    cleanup.push(() => void first.child.kill('SIGKILL'));
    const { token } = await postJson<AuthResponse>(first.url, '/api/auth/register', { username: 'survey_restart', password: 'survives a crash' });
    const { sessionId } = await postJson<{ sessionId: string }>(first.url, '/api/sessions', { type: 'survey', surveyId: 'course-feedback' }, token);
    const wsUrl = (url: string) => `${url.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${token}`;

    const client = await SocketClient.open(wsUrl(first.url));
    let widget = (await client.waitFor('widget')).payload;
    widget = (await answer(client, widget, { selectedIndex: 0 }))!;
    widget = (await answer(client, widget, { value: 4 }))!;
    expect(widget.props.prompt).toBe('How was the pace of your sessions?');
    first.child.kill('SIGKILL');
    await client.waitForClose();

    const second = await startServerProcess(dataDir);
    cleanup.push(() => void second.child.kill('SIGKILL'));
    const again = await SocketClient.open(wsUrl(second.url));
    cleanup.push(() => again.close());
    const state = (await again.waitFor('state_update')).payload.state;
    expect(state).toMatchObject({ status: 'awaiting_client_action', type: 'survey', survey: { question: 3, totalQuestions: 5, answered: 2, required: true } });
    const resumed = (await again.waitFor('widget')).payload;
    expect(resumed).toEqual(widget);
    const history = (await again.waitFor('history')).payload.messages;
    expect(history.filter((message) => message.widgetAnswer).map((message) => message.content)).toEqual(['Yes', '4 of 5']);

    // The survey goes on in the new process, along the finisher's branch.
    let next: Widget | null = resumed;
    for (const response of [{ selectedIndex: 1 }, { text: 'Exercises' }, { value: 8 }] satisfies WidgetAnswer[]) next = await answer(again, next!, response);
    expect(next).toBeNull();
    const results = (await (await fetch(`${second.url}/api/sessions/${sessionId}/summary`, { headers: { authorization: `Bearer ${token}` } })).json()) as { summary: SessionSummary };
    expect(results.summary.survey).toMatchObject({ finished: true, answered: 5, skipped: 0 });
  });
});
