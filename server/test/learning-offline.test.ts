/**
 * Learning sessions with no API key (SPEC §4.4 "Offline"), over the public protocol against
 * the real server: a learner who answers every check question right completes each shipped
 * plan, the summary lists every step and concept, and no frame ever carries an expected
 * answer before it is earned. Another learner can read none of it.
 */
import type { ServerEvent, StudyPlanContent, StudyPlanDetail, StudyPlanList } from '@tutorloop/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  // Scripted learners take many turns a minute; the per-learner turn budget is tested elsewhere.
  server = await startTestServer({ env: { TURN_RATE_LIMIT: '10000', WS_RATE_LIMIT: '10000' } });
});
afterAll(async () => server.close());

type Plan = StudyPlanDetail['plan'];

/** The expected answer of the plan question the tutor's reply asks, if it asks one. */
function questionIn(plan: Plan, reply: string): { expectedAnswer: string } | null {
  for (const step of plan.steps) {
    if (step.type !== 'check') continue;
    const asked = step.questions.filter((question) => reply.includes(question.question)).at(-1);
    if (asked) return asked;
  }
  return null;
}

/** Waits for the welcome and the state that follows it. */
async function welcomed(client: SocketClient): Promise<void> {
  await client.waitFor('assistant', { timeoutMs: 10_000 });
  const at = client.events.findIndex((event) => event.type === 'assistant');
  await client.waitFor('state_update', { from: at, timeoutMs: 10_000 });
}

/** Runs a learner who always answers right until the session completes; returns every frame. */
async function completePlan(client: SocketClient, plan: Plan): Promise<ServerEvent[]> {
  for (let turn = 0; turn < 80; turn++) {
    const state = [...client.events].reverse().find((event) => event.type === 'state_update');
    if (client.events.some((event) => event.type === 'session_complete')) return client.events;
    const from = client.events.length;
    if (state?.type === 'state_update' && state.payload.state.status === 'awaiting_client_action') {
      const widget = state.payload.state.pendingWidget;
      const response = widget.kind === 'multiple_choice' ? { selectedIndex: 0 } : widget.kind === 'code_editor' ? { code: widget.props.starterCode ?? 'pass', language: widget.props.language } : { text: 'an answer' };
      client.send({ type: 'widget_response', payload: { widgetId: widget.widgetId, response } });
    } else {
      const reply = [...client.events].reverse().find((event) => event.type === 'assistant');
      const question = state?.type === 'state_update' && state.payload.state.learning?.questionOpen && reply?.type === 'assistant' ? questionIn(plan, reply.payload.message) : null;
      client.send({ type: 'chat', payload: { message: question ? `I think it is ${question.expectedAnswer}` : 'OK, that makes sense.' } });
    }
    await client.waitFor('state_update', { from, timeoutMs: 20_000 });
  }
  throw new Error('the plan did not complete in 80 turns');
}

describe('learning sessions with the offline tutor', () => {
  it('ships three built-in plans that every learner can read', async () => {
    const { token } = await server.register();
    const list = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
    expect(list.status).toBe(200);
    expect(list.body.studyPlans.filter((plan) => plan.builtIn).length).toBeGreaterThanOrEqual(3);
  });

  it('a learner who answers right completes each shipped plan; the summary lists every step and concept', { timeout: 120_000 }, async () => {
    const { token } = await server.register();
    const list = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
    for (const summary of list.body.studyPlans.filter((plan) => plan.builtIn)) {
      const detail = await server.api<StudyPlanDetail>('GET', `/api/study-plans/${summary.id}`, { token });
      const plan = detail.body.plan;
      const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: summary.id } });
      expect(created.status).toBe(201);
      const client = await server.connect(created.body.sessionId, token);
      await welcomed(client);
      const frames = await completePlan(client, plan);
      client.close();

      const complete = frames.find((event) => event.type === 'session_complete');
      if (complete?.type !== 'session_complete') throw new Error('no session_complete');
      const learning = complete.payload.summary.learning!;
      expect(complete.payload.summary.reason, summary.id).toBe('plan_completed');
      expect(learning.steps.map((step) => step.number)).toEqual(plan.steps.map((step) => step.number));
      expect(learning.steps.every((step) => step.covered), summary.id).toBe(true);
      expect(learning.concepts.map((entry) => entry.concept).sort()).toEqual([...new Set(plan.steps.map((step) => step.concept))].sort());
      const checks = plan.steps.flatMap((step) => (step.type === 'check' ? step.questions : []));
      expect(learning.questions.answeredRight, summary.id).toBe(checks.length);

      // Steps only move forward, and internals never reach a frame.
      const steps = frames.flatMap((event) => (event.type === 'state_update' && event.payload.state.learning ? [event.payload.state.learning.step] : []));
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
      const text = JSON.stringify(frames);
      for (const word of ['expectedAnswer', 'expected_answer', 'reasoning', 'turn_summary', 'acceptedAnswers']) expect(text, word).not.toContain(word);

      const summaryRoute = await server.api('GET', `/api/sessions/${created.body.sessionId}/summary`, { token });
      expect(summaryRoute.status).toBe(200);
      const logs = await server.api<{ entries: Array<{ agent: string }> }>('GET', `/api/sessions/${created.body.sessionId}/agent-logs`, { token });
      expect(logs.status).toBe(200);
      expect(logs.body.entries.filter((entry) => entry.agent === 'master_tutor').length).toBeGreaterThan(plan.steps.length - 2);
    }
  });

  it('an aced plan goes on to extra challenges, and ending there counts as the plan completed, not ended early', { timeout: 60_000 }, async () => {
    const { token } = await server.register();
    const plan: StudyPlanContent = {
      title: 'Halves and quarters',
      topic: 'Fractions',
      audience: 'Grade 3',
      objectives: ['Name halves and quarters'],
      prerequisites: [],
      misconceptions: [],
      teachingApproach: 'Folding paper.',
      allowExtension: true,
      allowBacktrack: false,
      steps: [
        { number: 1, type: 'explain', concept: 'halves', contentHint: 'A half is one of two equal parts.' },
        {
          number: 2,
          type: 'check',
          concept: 'halves',
          contentHint: 'Check halves and quarters.',
          questions: [
            { question: 'How many halves make a whole?', expectedAnswer: '2', acceptedAnswers: ['two'] },
            { question: 'How many quarters make a whole?', expectedAnswer: '4', acceptedAnswers: ['four'] },
            { question: 'How many quarters make a half?', expectedAnswer: '2', acceptedAnswers: ['two'] },
          ],
        },
      ],
    };
    const created = await server.api<StudyPlanDetail>('POST', '/api/study-plans', { token, body: { plan } });
    expect(created.status).toBe(201);
    const session = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: created.body.id } });
    const client = await server.connect(session.body.sessionId, token);
    await welcomed(client);
    // Every question answered right: three pieces of evidence master the one concept, so the plan is aced.
    for (let turn = 0; turn < 12; turn++) {
      const state = [...client.events].reverse().find((event) => event.type === 'state_update');
      if (state?.type === 'state_update' && state.payload.state.learning?.extension) break;
      const reply = [...client.events].reverse().find((event) => event.type === 'assistant');
      const question = reply?.type === 'assistant' ? questionIn(created.body.plan, reply.payload.message) : null;
      const from = client.events.length;
      client.send({ type: 'chat', payload: { message: question ? question.expectedAnswer : 'OK, that makes sense.' } });
      await client.waitFor('state_update', { from, timeoutMs: 20_000 });
    }
    const last = [...client.events].reverse().find((event) => event.type === 'state_update');
    expect(last?.type === 'state_update' && last.payload.state.learning?.extension).toBe(true);
    expect(client.events.some((event) => event.type === 'session_complete')).toBe(false);

    const from = client.events.length;
    client.send({ type: 'end_session', payload: {} });
    const complete = await client.waitFor('session_complete', { from, timeoutMs: 10_000 });
    expect(complete.payload.summary.reason).toBe('plan_completed');
    expect(complete.payload.summary.learning!.stepsCovered).toBe(2);
    client.close();
  });

  it('walks probe, hint and explain on three wrong answers; the answer appears only at explain', { timeout: 30_000 }, async () => {
    const { token } = await server.register();
    const list = await server.api<StudyPlanList>('GET', '/api/study-plans', { token });
    const summary = list.body.studyPlans.find((plan) => plan.builtIn)!;
    const plan = (await server.api<StudyPlanDetail>('GET', `/api/study-plans/${summary.id}`, { token })).body.plan;
    const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: summary.id } });
    const client = await server.connect(created.body.sessionId, token);
    await welcomed(client);
    // Move on until a check question is open.
    let question: { expectedAnswer: string } | null = null;
    for (let turn = 0; turn < 10 && !question; turn++) {
      const from = client.events.length;
      client.send({ type: 'chat', payload: { message: 'OK, that makes sense.' } });
      const state = await client.waitFor('state_update', { from, timeoutMs: 10_000 });
      const reply = client.events.slice(from).find((event) => event.type === 'assistant');
      if (state.payload.state.learning?.questionOpen && reply?.type === 'assistant') question = questionIn(plan, reply.payload.message);
    }
    expect(question).not.toBeNull();
    const replies: string[] = [];
    for (const wrong of ['zzz wrong', 'still qqq wrong', 'no idea']) {
      const from = client.events.length;
      client.send({ type: 'chat', payload: { message: wrong } });
      await client.waitFor('state_update', { from, timeoutMs: 10_000 });
      const reply = client.events.slice(from).find((event) => event.type === 'assistant');
      replies.push(reply?.type === 'assistant' ? reply.payload.message : '');
    }
    const answer = new RegExp(`(?<![\\w.])${question!.expectedAnswer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w]|\\.\\d)`);
    expect(replies.map((reply) => answer.test(reply))).toEqual([false, false, true]);
    const logs = await server.api<{ entries: Array<{ agent: string; inputSummary: string; output: { turn_summary?: string } | null }> }>('GET', `/api/sessions/${created.body.sessionId}/agent-logs`, { token });
    // The last three master-tutor turns (regenerations aside) are the three wrong answers.
    const phases = logs.body.entries
      .filter((entry) => entry.agent === 'master_tutor' && !entry.inputSummary.startsWith('regeneration'))
      .slice(-3)
      .map((entry) => /wrong → (\w+)/.exec(entry.output?.turn_summary ?? '')?.[1]);
    expect(phases).toEqual(['probe', 'hint', 'explain']);

    // Another learner reads none of it.
    const other = await server.register();
    for (const route of ['', '/summary', '/agent-logs', '/replay']) {
      expect((await server.api('GET', `/api/sessions/${created.body.sessionId}${route}`, { token: other.token })).status, route).toBe(403);
    }
    const intruder = await server.connect(created.body.sessionId, other.token);
    expect(await intruder.waitForClose()).toBe(4403);
    client.close();
  });
});
