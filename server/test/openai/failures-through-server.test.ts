/**
 * SPEC §7, §8 through the whole server: the real `openai` SDK against the fake Chat
 * Completions API failing in the ways real servers do (429, 503, a hang past the timeout, a
 * stream cut short, malformed JSON), and a learner who leaves. The counterpart of
 * anthropic/failures-through-server.test.ts; the shared scenarios are in helpers/failure-scenarios.ts.
 * A session never dies of it and no learner message is lost or answered twice.
 */
import { describe, expect, it } from 'vitest';
import { failuresThroughServerScenarios } from '../helpers/failure-scenarios';
import { openAiReplies as fakeReplies } from '../helpers/fake-openai';
import { startOpenAiTestServer, userPrompt } from './openai-test-server';

const { setup, replayOf } = failuresThroughServerScenarios({
  start: startOpenAiTestServer,
  replies: { ...fakeReplies, overloaded: fakeReplies.unavailable },
  overloadedStatus: 503,
  userPrompt,
});

describe('malformed answers from an OpenAI-compatible server', () => {
  it('an evaluator answering broken JSON, then a 200 that is not JSON at all, checks nothing off and the tutor still answers', async () => {
    const { fake, socket, records } = await setup();
    fake.enqueue('evaluator', fakeReplies.malformedEvaluation(), fakeReplies.malformedBody());
    fake.enqueue('tutor', fakeReplies.text('Tell me more.'), fakeReplies.text('And then?'));
    for (const [index, message] of ['mitochondria make ATP', 'ribosomes build proteins'].entries()) {
      const start = socket.events.length;
      socket.send({ type: 'chat', payload: { message, clientMessageId: `bad-${index}` } });
      await socket.waitFor('assistant', { from: start });
      const state = await socket.waitFor('state_update', { from: start });
      expect(state.payload.state.recalledCount).toBe(0);
      expect(socket.events.slice(start).some((event) => event.type === 'error')).toBe(false);
    }
    expect(records.filter((record) => record.purpose === 'evaluator').map((record) => record.outcome)).toEqual(['ok', 'error']);
  });

  it('a tutor stream cut short after some text gives an error event, keeps the message, and a resend completes the turn once', async () => {
    const { fake, server, socket, sessionId, token } = await setup();
    fake.enqueue('tutor', { ...fakeReplies.text('Half a reply that never'), chunkSize: 100, omitFinish: true });
    let start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'cut1' } });
    const error = await socket.waitFor('error', { from: start });
    expect(error.payload.code).toBe('llm_unavailable');
    expect((await replayOf(server, sessionId, token)).filter((message) => message.clientMessageId === 'cut1')).toHaveLength(1);

    fake.enqueue('tutor', fakeReplies.text('Yes — ribosomes. What else?'));
    start = socket.events.length;
    socket.send({ type: 'chat', payload: { message: 'ribosomes build proteins', clientMessageId: 'cut1' } });
    const reply = await socket.waitFor('assistant', { from: start });
    expect(reply.payload.message).toBe('Yes — ribosomes. What else?');
    const messages = await replayOf(server, sessionId, token);
    expect(messages.map((message) => message.role)).toEqual(['tutor', 'learner', 'tutor']);
    expect(JSON.stringify(messages)).not.toContain('Half a reply');
  });
});
