/**
 * Learning sessions (SPEC §4.4) through a model provider: the real server (HTTP + ws + SQLite)
 * → the learning room → the model provider → the real SDK → the fake API. The master tutor is
 * one forced `tutor_turn` call with seed 002's fields and a cached system prompt; a malformed
 * output is retried once, then answered by a fallback; the safety gate redirects; a reply
 * giving an open question's answer away is regenerated, else stripped; internals stay in the
 * agent logs, never in frames or messages. anthropic/ and openai/learning-session.test.ts run
 * these against their fakes.
 */
import type { ServerEvent } from '@tutorloop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { additionPlan } from '../../src/core/learning/test-fixtures';
import { masterTurnFields, seedTurnFields } from './master-turn';
import type { ProviderWire, WireFake } from './provider-wire';
import type { SocketClient, TestServer } from './test-server';

export function learningSessionScenarios<Request, Reply>(wire: ProviderWire<Request, Reply>): void {
  let fake: WireFake<Request, Reply>;
  let server: TestServer;
  let running: Awaited<ReturnType<ProviderWire<Request, Reply>['startServer']>>;

  /** A master-tutor answer with seed 002's fields. */
  function tutorTurn(fields: Record<string, unknown>) {
    return wire.replies.masterTurn(masterTurnFields({ turn_summary: 'SECRET-SUMMARY of the turn', reasoning: 'SECRET-REASONING about the learner', ...fields }));
  }

  beforeEach(async () => {
    running = await wire.startServer();
    ({ fake, server } = running);
    await server.server.storage.transaction((tx) => tx.studyPlans.upsertBuiltIn({ id: 'addition', plan: additionPlan }, new Date()));
  });
  afterEach(async () => running.close());

  async function startLearning(): Promise<{ client: SocketClient; sessionId: string; token: string }> {
    const { token } = await server.register();
    const created = await server.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'learning', studyPlanId: 'addition' } });
    expect(created.status).toBe(201);
    const client = await server.connect(created.body.sessionId, token);
    await client.waitFor('assistant');
    return { client, sessionId: created.body.sessionId, token };
  }

  async function say(client: SocketClient, message: string, id: string): Promise<ServerEvent[]> {
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message, clientMessageId: id } });
    await client.waitFor('state_update', { from });
    return client.events.slice(from);
  }

  /** The session's stored messages, read through the storage port. */
  const stored = (sessionId: string) => server.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
  const agentLogs = (sessionId: string) => server.server.storage.read((reader) => reader.agentLogs.listForSession(sessionId));

  describe(`a learning session through the ${wire.name} provider`, () => {
    it('asks the master tutor with a forced tool of seed 002’s fields and a cached system prompt, and keeps its internals out of frames', async () => {
      fake.enqueue('other', wire.replies.text('Welcome! Today: adding two-digit numbers. What do you know about tens and ones?'));
      const { client, sessionId } = await startLearning();
      expect(client.events.some((event) => event.type === 'assistant' && event.payload.message.startsWith('Welcome!'))).toBe(true);

      fake.enqueue('master', tutorTurn({ response: 'Nice. How many tens are in 58?', intent: 'continuation', advance_to_step: 2, question_asked: 'How many tens are in 58?', expected_answer: '5', question_concept: 'place value' }));
      const events = await say(client, 'tens and ones make a number', 'c1');
      const [request] = fake.requestsFor('master');
      expect(wire.forcedToolFields(request!, 'tutor_turn').sort()).toEqual([...seedTurnFields].sort());
      wire.expectCachedSystemPrompt(request!);
      expect(wire.systemText(request!)).toContain('Study plan: Adding two-digit numbers');
      const turnPrompt = wire.userPrompt(request!);
      expect(turnPrompt).toContain('Pacing: TURN 1');
      expect(turnPrompt).toContain('tens and ones make a number');

      const state = events.filter((event) => event.type === 'state_update').at(-1)!;
      expect(state.payload.state).toMatchObject({ learning: { step: 2, stepType: 'check', questionOpen: true } });
      expect(events.some((event) => event.type === 'assistant_delta')).toBe(true);
      const frames = JSON.stringify(client.events);
      expect(frames).not.toContain('SECRET-');
      expect(JSON.stringify(await stored(sessionId))).not.toContain('SECRET-');
      const replay = await server.api('GET', `/api/sessions/${sessionId}/replay`, { token: (await server.register()).token });
      expect(replay.status).toBe(403);

      const logs = await agentLogs(sessionId);
      expect(logs.map((log) => [log.agent, log.outcome])).toEqual([
        ['welcome', 'ok'],
        ['safety', 'ok'],
        ['master_tutor', 'ok'],
      ]);
      expect(JSON.stringify(logs[2]!.output)).toContain('SECRET-REASONING');
      expect(logs[2]!.tokensIn).toBeGreaterThan(0);
    });

    it('retries a malformed output once, then answers with a fallback — the message is kept and answered', async () => {
      const { client, sessionId } = await startLearning();
      fake.enqueue('master', wire.replies.masterTurn({ answer: 'no response field here' }), wire.replies.text('not even a tool call'));
      const events = await say(client, 'hello there', 'c1');
      const reply = events.find((event) => event.type === 'assistant');
      expect(reply && reply.type === 'assistant' && reply.payload.message).toMatch(/lost my train of thought/);
      const requests = fake.requestsFor('master');
      expect(requests).toHaveLength(2);
      expect(wire.userPrompt(requests[1]!)).toContain('could not be used: the output has no `response` text');
      expect((await stored(sessionId)).filter((message) => message.role === 'learner').map((message) => [message.content, message.answeredAt !== null])).toEqual([['hello there', true]]);
      const logs = await agentLogs(sessionId);
      expect(logs.filter((log) => log.agent === 'master_tutor').map((log) => log.outcome)).toEqual(['retried', 'fallback']);
      expect(events.filter((event) => event.type === 'state_update').at(-1)).toMatchObject({ payload: { state: { learning: { step: 1 } } } });

      // A malformed answer followed by a good one: the good one is used.
      fake.enqueue('master', wire.replies.text('{"oops": true}'), tutorTurn({ response: 'Let’s look at tens.', advance_to_step: 2 }));
      const next = await say(client, 'ok', 'c2');
      expect(next.find((event) => event.type === 'assistant')).toMatchObject({ payload: { message: 'Let’s look at tens.' } });
    });

    it('redirects an unsafe message without calling the master tutor, and records the flag', async () => {
      const { client, sessionId } = await startLearning();
      fake.enqueue('safety', wire.replies.safetyVerdict(false, 'self-harm'));
      const events = await say(client, 'something unsafe', 'c1');
      expect(events.find((event) => event.type === 'assistant')).toMatchObject({ payload: { message: expect.stringContaining('safe and useful space') } });
      expect(fake.requestsFor('master')).toHaveLength(0);
      const logs = await agentLogs(sessionId);
      expect(logs.at(-1)).toMatchObject({ agent: 'safety', outcome: 'refused' });
      const session = await server.server.storage.read((reader) => reader.sessions.get(sessionId));
      expect(session?.type === 'learning' && session.typeState.safetyFlags).toBe(1);
    });

    it('refuses session_complete before the final step; nothing completes', async () => {
      const { client } = await startLearning();
      fake.enqueue('master', tutorTurn({ response: 'We are all done!', session_complete: true }));
      const events = await say(client, 'I know all of this', 'c1');
      expect(events.some((event) => event.type === 'session_complete')).toBe(false);
      expect(events.filter((event) => event.type === 'state_update').at(-1)).toMatchObject({ payload: { state: { status: 'active', learning: { step: 1 } } } });
    });

    it('regenerates a reply that gives away an open question’s answer, and strips it if it still does', async () => {
      const { client } = await startLearning();
      fake.enqueue('master', tutorTurn({ response: 'How many tens are in 58?', advance_to_step: 2, question_asked: 'How many tens are in 58?', expected_answer: '5' }));
      await say(client, 'ready', 'c1');
      // A wrong answer: the reply (probe phase) must not contain the answer "5"… twice over.
      fake.enqueue(
        'master',
        tutorTurn({ response: 'Not quite. The answer is 5 tens. Think again about the left digit.', answer_correct: false }),
        tutorTurn({ response: 'Not quite: it is 5. Think again about the left digit.', answer_correct: false }),
      );
      const events = await say(client, '8', 'c2');
      const requests = fake.requestsFor('master');
      expect(requests).toHaveLength(3);
      expect(wire.userPrompt(requests[2]!)).toContain('leaked (expected answer)');
      const reply = events.find((event) => event.type === 'assistant');
      expect(reply).toMatchObject({ payload: { message: 'Not quite. Think again about the left digit.' } });
      expect(events.filter((event) => event.type === 'state_update').at(-1)).toMatchObject({ payload: { state: { learning: { questionOpen: true } } } });
    });

    it('walks the plan to completion on the final step, practice item included; after it a post-completion reply and nothing advances', async () => {
      const { client, sessionId } = await startLearning();
      fake.enqueue('master', tutorTurn({ response: 'How many tens are in 58?', advance_to_step: 2, question_asked: 'How many tens are in 58?', expected_answer: '5', question_concept: 'place value' }));
      await say(client, 'ready', 'c1');
      fake.enqueue('master', tutorTurn({ response: 'Right! Now a practice problem.', answer_correct: true, advance_to_step: 3, mastery_updates: [{ concept: 'place value', score: 0.9 }] }));
      const practice = await say(client, '5', 'c2');
      const widget = practice.find((event) => event.type === 'widget');
      if (widget?.type !== 'widget' || widget.payload.kind !== 'multiple_choice') throw new Error('no practice widget');
      fake.enqueue('master', tutorTurn({ response: 'What is 27 + 15?', advance_to_step: 4, question_asked: 'What is 27 + 15?', expected_answer: '42', question_concept: 'carrying' }));
      const from = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 0 } } });
      await client.waitFor('state_update', { from, where: (event) => event.payload.state.learning?.step === 4 });
      // The tutor heard the server's verdict on the practice item, never its answer key.
      const told = fake.requestsFor('master').at(-1)!;
      expect(JSON.stringify(told)).toMatch(/answered a practice item \(1 of 1 done\)/);
      fake.enqueue('master', tutorTurn({ response: 'Yes, 42. That is the whole plan!', answer_correct: true, session_complete: true }));
      const last = await say(client, '42', 'c3');
      const complete = last.find((event) => event.type === 'session_complete');
      expect(complete).toMatchObject({ payload: { summary: { reason: 'plan_completed', learning: { stepsCovered: 4, totalSteps: 4 } } } });
      const finalState = last.filter((event) => event.type === 'state_update').at(-1)!;

      fake.enqueue('other', wire.replies.text('Glad it helped — come back for a review in a few days.'));
      const after = await say(client, 'thanks, what next?', 'c4');
      expect(after.find((event) => event.type === 'assistant')).toMatchObject({ payload: { message: 'Glad it helped — come back for a review in a few days.' } });
      expect(after.some((event) => event.type === 'session_complete')).toBe(false);
      expect(after.filter((event) => event.type === 'state_update').at(-1)).toEqual(finalState);
      const logs = await agentLogs(sessionId);
      expect(logs.at(-1)).toMatchObject({ agent: 'post_completion', outcome: 'ok' });
    });
  });
}
