/**
 * SPEC §4.1 end to end with the `openai` provider: the real server (HTTP + ws + SQLite)
 * → the session engine → the provider → the real `openai` SDK → the fake Chat Completions
 * API. One learner message recalls a point: the evaluator sees only unchecked points, the
 * checklist moves, and the evaluator's feedback reaches the tutor's system message but never
 * the learner, the stored messages or the conversation sent to the model.
 * The counterpart of anthropic/anthropic-session.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { openAiReplies as fakeReplies, type FakeOpenAi, type RecordedOpenAiRequest as RecordedRequest } from '../helpers/fake-openai';
import type { TestServer } from '../helpers/test-server';
import { conversationOf, startOpenAiTestServer, systemText, userPrompt, type OpenAiTestServer } from './openai-test-server';

const points = ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA'];
const note = 'SECRET-NOTE: ribosomes recalled precisely; mitochondria and nucleus remain.';

let fake: FakeOpenAi;
let server: TestServer;
let records: LlmCallRecord[];
let running: OpenAiTestServer;

beforeEach(async () => {
  running = await startOpenAiTestServer();
  ({ fake, server, records } = running);
});
afterEach(async () => running.close());

/** The ids the evaluator may answer with (the enum of its strict JSON schema). */
function offeredIds(request: RecordedRequest): string[] {
  const schema = request.body.response_format!.json_schema!.schema as { properties: { recalledPoints: { items: { properties: { id: { enum: string[] } } } } } };
  return schema.properties.recalledPoints.items.properties.id.enum;
}

describe('a recall turn through the openai provider', () => {
  it('checks off what the evaluator found and steers the tutor with its feedback, invisibly', async () => {
    fake.enqueue('tutor', fakeReplies.text('Welcome to Cells! What builds the proteins in a cell?'));
    fake.enqueue('evaluator', (request) => {
      const text = userPrompt(request);
      const line = text.split('\n').find((candidate) => candidate.includes('ribosomes build proteins'))!;
      const id = /\[([^\]]+)\]/.exec(line)![1]!;
      return fakeReplies.evaluation({ recalledPoints: [{ id, confidence: 0.9, observation: 'Named ribosomes as protein builders.' }], feedback: note });
    });
    fake.enqueue('tutor', fakeReplies.text('Exactly right. Now, where does the cell get its energy?', { chunkSize: 10 }));

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
    expect(offeredIds(evaluator!)).toHaveLength(3);
    const [opening, second] = fake.requestsFor('tutor');
    expect(conversationOf(opening!)).toEqual([{ role: 'user', content: '(The learner opened the session.)' }]);
    expect(systemText(second!)).toContain(note);
    expect(systemText(second!)).toContain('Just recalled in their latest message: “ribosomes build proteins”');
    expect(JSON.stringify(conversationOf(second!))).not.toContain('SECRET-NOTE');
    expect(second!.body.messages.at(-1)).toEqual({ role: 'user', content: 'I think ribosomes build proteins' });
    expect(JSON.stringify(client.events)).not.toContain('SECRET-NOTE');
    // Nor is it stored: not in the messages table, not in the replay.
    const stored = server.server.database.$client.prepare('SELECT content, tool_call FROM messages WHERE session_id = ?').all(sessionId);
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain('SECRET-NOTE');
    const replay = await server.api('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(replay.status).toBe(200);
    expect(JSON.stringify(replay.body)).not.toContain('SECRET-NOTE');
    expect(fake.requestsFor('safety')).toHaveLength(1);

    // The next learner message: the recalled point is never offered again.
    fake.enqueue('tutor', fakeReplies.text('Think about the powerhouse.'));
    const next = client.events.length;
    client.send({ type: 'chat', payload: { message: 'no idea', clientMessageId: 'c2' } });
    await client.waitFor('assistant', { from: next });
    const later = fake.requestsFor('evaluator')[1]!;
    expect(offeredIds(later)).toHaveLength(2);
    const offered = /<points_not_yet_recalled>\n([\s\S]*?)\n<\/points_not_yet_recalled>/.exec(userPrompt(later))![1]!;
    expect(offered.split('\n').map((line) => line.replace(/^- \[[^\]]+\] /, ''))).toEqual(['mitochondria make ATP', 'the nucleus stores DNA']);
    expect(records.map((record) => record.purpose).sort()).toEqual(['evaluator', 'evaluator', 'safety', 'safety', 'tutor', 'tutor', 'tutor']);
    client.close();
  });
});
