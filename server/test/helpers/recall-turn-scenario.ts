/**
 * SPEC §4.1 end to end with a model provider: the real server (HTTP + ws + SQLite) → the
 * session engine → the provider → the real SDK → the fake API. One learner message recalls a
 * point: the evaluator sees only unchecked points, the checklist moves, and the evaluator's
 * feedback reaches the tutor's system instructions but never the learner, the stored messages
 * or the conversation sent to the model. anthropic/anthropic-session.test.ts and
 * openai/openai-session.test.ts run it against their fakes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderWire } from './provider-wire';

const points = ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA'];
const note = 'SECRET-NOTE: ribosomes recalled precisely; mitochondria and nucleus remain.';

export function recallTurnScenario<Request, Reply>(wire: ProviderWire<Request, Reply>): void {
  let running: Awaited<ReturnType<ProviderWire<Request, Reply>['startServer']>>;
  beforeEach(async () => {
    running = await wire.startServer();
  });
  afterEach(async () => running.close());

  describe(`a recall turn through the ${wire.name} provider`, () => {
    it('checks off what the evaluator found and steers the tutor with its feedback, invisibly', async () => {
      const { fake, server, records } = running;
      fake.enqueue('tutor', wire.replies.text('Welcome to Cells! What builds the proteins in a cell?'));
      fake.enqueue('evaluator', (request) => {
        const line = wire.userPrompt(request).split('\n').find((candidate) => candidate.includes('ribosomes build proteins'))!;
        const id = /\[([^\]]+)\]/.exec(line)![1]!;
        return wire.replies.evaluation({ recalledPoints: [{ id, confidence: 0.9, observation: 'Named ribosomes as protein builders.' }], feedback: note });
      });
      fake.enqueue('tutor', wire.replies.text('Exactly right. Now, where does the cell get its energy?', { chunkSize: 10 }));

      const { token } = await server.register();
      const set = await server.createSet(token, points, 'Cells');
      const sessionId = await server.createSession(token, set.id);
      const client = await server.connect(sessionId, token);
      await client.waitFor('assistant');
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'I think ribosomes build proteins', clientMessageId: 'c1' } });
      const reply = await client.waitFor('assistant', { from: start });
      expect(reply.payload.message).toBe('Exactly right. Now, where does the cell get its energy?');
      const state = await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.recalledCount === 1 });
      expect(state.payload.state).toMatchObject({ status: 'active', recalledCount: 1, totalPoints: 3 });

      const [evaluator] = fake.requestsFor('evaluator');
      expect(wire.evaluatorIds(evaluator!)).toHaveLength(3);
      const [opening, second] = fake.requestsFor('tutor');
      expect(wire.conversation(opening!)).toEqual([{ role: 'user', text: '(The learner opened the session.)' }]);
      expect(wire.systemText(second!)).toContain(note);
      expect(wire.systemText(second!)).toContain('Just recalled in their latest message: “ribosomes build proteins”');
      expect(JSON.stringify(wire.conversation(second!))).not.toContain('SECRET-NOTE');
      expect(wire.conversation(second!).at(-1)).toEqual({ role: 'user', text: 'I think ribosomes build proteins' });
      expect(JSON.stringify(client.events)).not.toContain('SECRET-NOTE');
      // Nor is it stored: not in the stored messages, not in the replay.
      const stored = await server.server.storage.read((reader) => reader.messages.list(sessionId, { includeSuperseded: true }));
      expect(stored.length).toBeGreaterThan(0);
      expect(JSON.stringify(stored)).not.toContain('SECRET-NOTE');
      const replay = await server.api('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.status).toBe(200);
      expect(JSON.stringify(replay.body)).not.toContain('SECRET-NOTE');
      expect(fake.requestsFor('safety')).toHaveLength(1);

      // The next learner message: the recalled point is never offered again.
      fake.enqueue('tutor', wire.replies.text('Think about the powerhouse.'));
      const next = client.events.length;
      client.send({ type: 'chat', payload: { message: 'no idea', clientMessageId: 'c2' } });
      await client.waitFor('assistant', { from: next });
      const later = fake.requestsFor('evaluator')[1]!;
      expect(wire.evaluatorIds(later)).toHaveLength(2);
      const offered = /<points_not_yet_recalled>\n([\s\S]*?)\n<\/points_not_yet_recalled>/.exec(wire.userPrompt(later))![1]!;
      expect(offered.split('\n').map((line) => line.replace(/^- \[[^\]]+\] /, ''))).toEqual(['mitochondria make ATP', 'the nucleus stores DNA']);
      expect(records.map((record) => record.purpose).sort()).toEqual(['evaluator', 'evaluator', 'safety', 'safety', 'tutor', 'tutor', 'tutor']);
      client.close();
    });
  });
}
