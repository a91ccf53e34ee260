/**
 * Thought sessions (SPEC §4.5) over the public protocol: 30 turns with the offline partner and
 * no API key, ended by the learner with a summary; and 200 turns through the real SDK against
 * the fake Messages API, where the partner's request stops growing once the sliding window and
 * the stored summary take over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLogList, SessionSummary } from '@tutorloop/shared';
import { refreshEvery, windowMessages } from '../src/core/thought/thought-rules';
import { startAnthropicTestServer } from './helpers/anthropic-test-server';
import { fakeReplies } from './helpers/fake-anthropic';
import { startTestServer, type SocketClient, type TestServer } from './helpers/test-server';

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function openThought(target: TestServer, token: string, topic?: string): Promise<{ sessionId: string; client: SocketClient }> {
  const created = await target.api<{ sessionId: string }>('POST', '/api/sessions', { token, body: { type: 'thought', ...(topic ? { topic } : {}) } });
  expect(created.status).toBe(201);
  const client = await target.connect(created.body.sessionId, token);
  cleanup.push(() => client.close());
  await client.waitFor('assistant');
  return { sessionId: created.body.sessionId, client };
}

/** One learner turn: waits for the partner's whole reply. */
async function turn(client: SocketClient, message: string): Promise<string> {
  const from = client.events.length;
  client.send({ type: 'chat', payload: { message } });
  return (await client.waitFor('assistant', { from, timeoutMs: 10_000 })).payload.message;
}

async function end(client: SocketClient): Promise<SessionSummary> {
  const from = client.events.length;
  client.send({ type: 'end_session', payload: {} });
  return (await client.waitFor('session_complete', { from, timeoutMs: 10_000 })).payload.summary;
}

const ideas = [
  'I think habits matter more than motivation',
  'motivation fades after a week or two',
  'a habit runs on cues, not on willpower',
  'but some people start habits because they are motivated',
  'maybe motivation starts it and the habit keeps it going',
  'why do I drop habits when my routine changes?',
];

describe('a thought session with the offline partner (no API key)', () => {
  it('runs 30 learner-driven turns, refreshes its stored summary every few turns, and ends with a summary', async () => {
    // 30 turns in a few seconds: above the default per-minute budget of a learner (SPEC §8).
    const target = await startTestServer({ env: { TURN_RATE_LIMIT: '1000', WS_RATE_LIMIT: '1000' } });
    cleanup.push(() => target.close());
    const { token } = await target.register();
    const { sessionId, client } = await openThought(target, token, 'habits and motivation');
    const opening = client.events.find((event) => event.type === 'assistant');
    expect(opening?.type === 'assistant' && opening.payload.message).toMatch(/habits and motivation/);
    const state = client.events.find((event) => event.type === 'state_update' && event.payload.state.status === 'active');
    expect(state?.type === 'state_update' && state.payload.state).toMatchObject({ type: 'thought', recalledCount: 0, totalPoints: 0, thought: { topic: 'habits and motivation' } });

    const replies: string[] = [];
    for (let index = 0; index < 30; index += 1) replies.push(await turn(client, `${ideas[index % ideas.length]} (${index + 1})`));
    // A reflective partner: it answers with a question, and it reflects the learner's words.
    expect(replies.every((reply) => reply.trim().endsWith('?'))).toBe(true);
    expect(replies[0]).toContain('“habits matter more than motivation (1)”');
    // Deterministic: the same conversation gets the same replies.
    const again = await openThought(target, token, 'habits and motivation');
    expect(await turn(again.client, `${ideas[0]} (1)`)).toBe(replies[0]);

    const summary = await end(client);
    expect(summary).toMatchObject({ type: 'thought', status: 'completed', reason: 'ended_by_learner', turns: 30, recalledCount: 0, totalPoints: 0, points: [] });
    expect(summary.thought?.topic).toBe('habits and motivation');
    expect(summary.thought?.learnerMessages).toBe(30);
    expect(summary.thought?.summary).toMatch(/^You thought through habits and motivation\. You started from “/);
    expect(summary.thought?.summary).toContain('motivation');

    // Rolling summaries every few turns (agent "summary"), then the closing one.
    const logs = await target.api<AgentLogList>('GET', `/api/sessions/${sessionId}/agent-logs`, { token });
    const summaries = logs.body.entries.filter((entry) => entry.agent === 'summary');
    expect(summaries.map((entry) => entry.turn)).toEqual([9, 14, 19, 24, 29, 30]);
    expect(summaries.every((entry) => entry.outcome === 'ok')).toBe(true);
    const stored = await target.api<{ summary: SessionSummary }>('GET', `/api/sessions/${sessionId}/summary`, { token });
    expect(stored.body.summary.thought).toEqual(summary.thought);
    // Once ended, nothing more is answered.
    const from = client.events.length;
    client.send({ type: 'chat', payload: { message: 'one more thing' } });
    expect((await client.waitFor('error', { from })).payload.code).toBe('session_ended');
  });
});

describe('retry in a thought session (SPEC §5)', () => {
  it('produces the partner’s last reply again in other words, superseding it; only the last, only while unanswered', async () => {
    const target = await startTestServer();
    cleanup.push(() => target.close());
    const { token } = await target.register();
    const { sessionId, client } = await openThought(target, token, 'sleep');
    const opening = client.events.find((event) => event.type === 'assistant');
    if (opening?.type !== 'assistant') throw new Error('no opening');

    // The opening itself can be produced again.
    let from = client.events.length;
    client.send({ type: 'retry', payload: { messageId: opening.payload.messageId } });
    const newOpening = await client.waitFor('assistant', { from });
    expect(newOpening.payload.replaces).toBe(opening.payload.messageId);
    expect(newOpening.payload.message).not.toBe(opening.payload.message);

    await turn(client, 'I think sleep is when memories settle');
    const first = client.events.filter((event) => event.type === 'assistant').at(-1);
    if (first?.type !== 'assistant') throw new Error('no reply');
    from = client.events.length;
    client.send({ type: 'retry', payload: { messageId: first.payload.messageId } });
    const second = await client.waitFor('assistant', { from });
    expect(client.events.slice(from).some((event) => event.type === 'typing')).toBe(true);
    expect(second.payload.replaces).toBe(first.payload.messageId);
    expect(second.payload.message).not.toBe(first.payload.message);
    expect(second.payload.message).toContain('sleep is when memories settle');

    // Only the last reply; an older one (the replaced one included) is refused.
    for (const old of [first.payload.messageId, newOpening.payload.messageId]) {
      from = client.events.length;
      client.send({ type: 'retry', payload: { messageId: old } });
      expect((await client.waitFor('error', { from })).payload.code).toBe('nothing_to_retry');
    }
    // Answered replies cannot be produced again.
    await turn(client, 'and dreams might be part of it');
    from = client.events.length;
    client.send({ type: 'retry', payload: { messageId: second.payload.messageId } });
    expect((await client.waitFor('error', { from })).payload.code).toBe('nothing_to_retry');

    // The conversation keeps the new replies only; the learner's messages answered once each.
    const replay = await target.api<{ messages: Array<{ role: string; content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    const contents = replay.body.messages.map((message) => message.content);
    expect(contents).not.toContain(first.payload.message);
    expect(contents).not.toContain(opening.payload.message);
    expect(contents).toContain(second.payload.message);
    expect(replay.body.messages.map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor', 'learner', 'tutor']);
  });
});

describe('a 200-turn thought session against the fake Messages API', () => {
  it('keeps the partner’s request bounded: the window and the stored summary stop it from growing', { timeout: 120_000 }, async () => {
    const harness = await startAnthropicTestServer({ timeoutMs: 10_000, env: { TURN_RATE_LIMIT: '1000', WS_RATE_LIMIT: '1000' } });
    cleanup.push(() => harness.close());
    const { fake, server: target } = harness;
    fake.setDefault('tutor', fakeReplies.text('That is an interesting thought. What makes you confident in it, and what would change your mind about it?'));
    // The summariser (non-streamed, no tool): a summary of a fixed, realistic length.
    fake.setDefault('other', fakeReplies.text(`The learner argues that habits outlast motivation; they weighed cues, routines and willpower. ${'They keep testing the idea against examples. '.repeat(8)}`));
    const { token } = await target.register();
    const { sessionId, client } = await openThought(target, token, 'habits');

    const sizes: number[] = [];
    let learnerChars = 0;
    for (let index = 0; index < 200; index += 1) {
      const message = `Turn ${String(index + 1).padStart(3, '0')}: ${ideas[index % ideas.length]}, and I want to push that a little further.`;
      learnerChars += message.length;
      const before = fake.requestsFor('tutor').length;
      await turn(client, message);
      const request = fake.requestsFor('tutor')[before]!;
      expect(JSON.stringify(request.body)).toContain(message);
      sizes.push(JSON.stringify(request.body).length);
    }
    const summary = await end(client);
    expect(summary.thought?.summary).toMatch(/^The learner argues/);

    const maxOf = (from: number, to: number) => Math.max(...sizes.slice(from, to));
    const early = maxOf(20, 60);
    const late = maxOf(100, 200);
    const tokens = (chars: number) => Math.round(chars / 4);
    // The figures for the report (characters of the JSON request body; tokens ≈ chars / 4).
    console.info(
      `thought request size (chars): turn 1 ${sizes[0]}, turn 10 ${sizes[9]}, max turns 21–60 ${early}, max turns 101–200 ${late} (≈${tokens(late)} tokens), turn 200 ${sizes[199]}; ` +
        `a full-history prompt at turn 200 would carry ≥ ${learnerChars} characters of learner text alone; summaries written: ${fake.requestsFor('other').length}`,
    );
    // It grows while the window fills…
    expect(sizes[9]!).toBeGreaterThan(sizes[0]! * 2);
    // …and then stops: the last hundred turns are no bigger than turns 21–60.
    expect(late).toBeLessThanOrEqual(early);
    expect(sizes[199]!).toBeLessThan(learnerChars / 4);
    // The summary is refreshed every few turns, stored, and carried into the prompt.
    const summaryRequests = fake.requestsFor('other');
    // Rolling summaries at turns 9, 14, 19, …, 199 (every five turns: the window of 8 messages refilled past 16), then the closing one.
    expect(summaryRequests.length).toBe(39 + 1);
    expect(JSON.stringify(fake.requestsFor('tutor').at(-1)!.body)).toContain('Summary of our conversation so far: The learner argues');
    // The verbatim window never holds more than window + refresh messages.
    const lastMessages = fake.requestsFor('tutor').at(-1)!.body.messages;
    expect(lastMessages.length).toBeLessThanOrEqual(windowMessages + refreshEvery + 1);
    const logs = await target.api<AgentLogList>('GET', `/api/sessions/${sessionId}/agent-logs`, { token });
    expect(logs.body.entries.filter((entry) => entry.agent === 'summary').length).toBe(summaryRequests.length);
  });
});
