/**
 * A question is not an answer (issue 15), over the public protocol with the real server and
 * the offline provider: a learner's question never changes the recalled count, never
 * escalates the cue, and gets an answer — the same hint follows, without "not quite".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const points = ['The mitochondria produce ATP through oxidative phosphorylation', 'Water boils at 100 degrees Celsius', 'The Pacific is the largest ocean'];

describe('offline: a question is never graded', () => {
  it('keeps the count and the cue level, answers, and repeats the same hint; the next miss escalates as before', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, points, 'Science mix');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
    await client.waitFor('assistant');

    async function say(message: string) {
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message } });
      const reply = await client.waitFor('assistant', { from: start });
      const state = await client.waitFor('state_update', { from: start });
      const widget = client.events.slice(start).find((event) => event.type === 'widget');
      return { text: reply.payload.message, state: state.payload.state, widget };
    }

    // One miss: the cue escalates to a cloze hint (level 1).
    const miss = await say('no idea, sorry');
    const hint = /“([^”]*_[^”]*)”/.exec(miss.text)?.[1];
    expect(hint, miss.text).toBeDefined();
    expect(miss.state).toMatchObject({ status: 'active', recalledCount: 0 });

    // Questions — one of them names the right answer — are answered, not graded, not escalated.
    for (const question of ['what do you mean?', 'ok, got it', 'why does that matter?', 'can you explain that again?']) {
      const asked = await say(question);
      expect(asked.state, question).toMatchObject({ status: 'active', recalledCount: 0 });
      expect(asked.widget, question).toBeUndefined();
      expect(asked.text, question).not.toMatch(/not quite|not yet|that’s not it/i);
      // The answer, then the very same hint (the cue level did not move).
      expect(asked.text.length, question).toBeGreaterThan(hint!.length + 20);
      expect(asked.text, question).toContain(hint!);
    }
    expect((await say('what is it then?')).text).toMatch(/trying to recall|keep it for the end|hold that one/);

    // A second real miss escalates from where the first left off: the multiple choice of level 2.
    const second = await say('still nothing');
    expect(second.widget?.type === 'widget' && second.widget.payload.kind).toBe('multiple_choice');

    // A real answer is graded as before.
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'mitochondria make ATP by oxidative phosphorylation' } });
    const answered = await client.waitFor('state_update', { from: start });
    expect(answered.payload.state.recalledCount).toBe(1);
    client.close();
  });
});
