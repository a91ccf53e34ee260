/**
 * Learning sessions (SPEC §4.4) through the `openai` provider: the real server (HTTP + ws +
 * SQLite) → the learning room → the model provider → the real `openai` SDK → the fake Chat
 * Completions API. The master tutor is one forced `tutor_turn` function call
 * (`tool_choice: {type: 'function', …}`) with seed 002's fields, its arguments parsed; a
 * malformed output is retried once, then answered by a fallback; the safety gate redirects;
 * internals stay in the agent logs, never in frames or messages. The counterpart of
 * anthropic/learning-session.test.ts.
 */
import type { ServerEvent } from '@tutorloop/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { additionPlan } from '../../src/core/learning/test-fixtures';
import { openAiReplies, type FakeOpenAi } from '../helpers/fake-openai';
import { masterTurnFields, seedTurnFields } from '../helpers/master-turn';
import type { SocketClient, TestServer } from '../helpers/test-server';
import { startOpenAiTestServer, systemText, userPrompt, type OpenAiTestServer } from './openai-test-server';

let fake: FakeOpenAi;
let server: TestServer;
let running: OpenAiTestServer;

/** A master-tutor answer with seed 002's fields. */
function tutorTurn(fields: Record<string, unknown>) {
  return openAiReplies.structured(masterTurnFields({ turn_summary: 'SECRET-SUMMARY of the turn', reasoning: 'SECRET-REASONING about the learner', ...fields }));
}

beforeEach(async () => {
  running = await startOpenAiTestServer();
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

const stored = (sessionId: string) => server.server.database.$client.prepare('SELECT role, content, answered_at FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ role: string; content: string; answered_at: number | null }>;
const agentLogs = (sessionId: string) => server.server.storage.read((reader) => reader.agentLogs.listForSession(sessionId));

describe('a learning session through the openai provider', () => {
  it('asks the master tutor with a forced tool of seed 002’s fields and a cached system prompt, and keeps its internals out of frames', async () => {
    fake.enqueue('other', openAiReplies.text('Welcome! Today: adding two-digit numbers. What do you know about tens and ones?'));
    const { client, sessionId } = await startLearning();
    expect(client.events.some((event) => event.type === 'assistant' && event.payload.message.startsWith('Welcome!'))).toBe(true);

    fake.enqueue('master', tutorTurn({ response: 'Nice. How many tens are in 58?', intent: 'continuation', advance_to_step: 2, question_asked: 'How many tens are in 58?', expected_answer: '5', question_concept: 'place value' }));
    const events = await say(client, 'tens and ones make a number', 'c1');
    const [request] = fake.requestsFor('master');
    expect(request!.body.tool_choice).toEqual({ type: 'function', function: { name: 'tutor_turn' } });
    expect(request!.body.parallel_tool_calls).toBe(false);
    expect(request!.body.response_format).toBeUndefined();
    const schema = request!.body.tools![0]!.function.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties).sort()).toEqual([...seedTurnFields].sort());
    // The stable study-plan prompt opens the request: the prefix OpenAI caches.
    expect(request!.body.messages[0]!.role).toBe('system');
    expect(systemText(request!)).toContain('Study plan: Adding two-digit numbers');
    const turnPrompt = userPrompt(request!);
    expect(turnPrompt).toContain('Pacing: TURN 1');
    expect(turnPrompt).toContain('tens and ones make a number');

    const state = events.filter((event) => event.type === 'state_update').at(-1)!;
    expect(state.payload.state).toMatchObject({ learning: { step: 2, stepType: 'check', questionOpen: true } });
    expect(events.some((event) => event.type === 'assistant_delta')).toBe(true);
    const frames = JSON.stringify(client.events);
    expect(frames).not.toContain('SECRET-');
    expect(JSON.stringify(stored(sessionId))).not.toContain('SECRET-');
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
    fake.enqueue('master', openAiReplies.structured({ answer: 'no response field here' }), openAiReplies.text('not even a tool call'));
    const events = await say(client, 'hello there', 'c1');
    const reply = events.find((event) => event.type === 'assistant');
    expect(reply && reply.type === 'assistant' && reply.payload.message).toMatch(/lost my train of thought/);
    const requests = fake.requestsFor('master');
    expect(requests).toHaveLength(2);
    expect(userPrompt(requests[1]!)).toContain('could not be used: the output has no `response` text');
    expect(stored(sessionId).filter((message) => message.role === 'learner').map((message) => [message.content, message.answered_at !== null])).toEqual([['hello there', true]]);
    const logs = await agentLogs(sessionId);
    expect(logs.filter((log) => log.agent === 'master_tutor').map((log) => log.outcome)).toEqual(['retried', 'fallback']);
    expect(events.filter((event) => event.type === 'state_update').at(-1)).toMatchObject({ payload: { state: { learning: { step: 1 } } } });

    // A malformed answer followed by a good one: the good one is used.
    fake.enqueue('master', openAiReplies.text('{"oops": true}'), tutorTurn({ response: 'Let’s look at tens.', advance_to_step: 2 }));
    const next = await say(client, 'ok', 'c2');
    expect(next.find((event) => event.type === 'assistant')).toMatchObject({ payload: { message: 'Let’s look at tens.' } });
  });

  it('redirects an unsafe message without calling the master tutor, and records the flag', async () => {
    const { client, sessionId } = await startLearning();
    fake.enqueue('safety', openAiReplies.safetyVerdict(false, 'self-harm'));
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
    expect(JSON.stringify(told.body)).toMatch(/answered a practice item \(1 of 1 done\)/);
    fake.enqueue('master', tutorTurn({ response: 'Yes, 42. That is the whole plan!', answer_correct: true, session_complete: true }));
    const last = await say(client, '42', 'c3');
    const complete = last.find((event) => event.type === 'session_complete');
    expect(complete).toMatchObject({ payload: { summary: { reason: 'plan_completed', learning: { stepsCovered: 4, totalSteps: 4 } } } });
    const finalState = last.filter((event) => event.type === 'state_update').at(-1)!;

    fake.enqueue('other', openAiReplies.text('Glad it helped — come back for a review in a few days.'));
    const after = await say(client, 'thanks, what next?', 'c4');
    expect(after.find((event) => event.type === 'assistant')).toMatchObject({ payload: { message: 'Glad it helped — come back for a review in a few days.' } });
    expect(after.some((event) => event.type === 'session_complete')).toBe(false);
    expect(after.filter((event) => event.type === 'state_update').at(-1)).toEqual(finalState);
    const logs = await agentLogs(sessionId);
    expect(logs.at(-1)).toMatchObject({ agent: 'post_completion', outcome: 'ok' });
  });
});
