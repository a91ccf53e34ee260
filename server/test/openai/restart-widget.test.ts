/**
 * SPEC §4.2, the seed's central failure made impossible, on the `openai` provider: a session
 * suspended on a widget survives a SIGKILL of the server process (configured by environment:
 * LLM_PROVIDER=openai, OPENAI_BASE_URL at the fake). A new process on the same database
 * restores the widget on reconnect, takes the answer, and the next model call is rebuilt
 * from the database alone — the fake Chat Completions API receives the earlier tool call and
 * its result as a `tool` message. The counterpart of anthropic/restart-widget.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse, RecallSetDetail } from '@tutorloop/shared';
import { openAiReplies, startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';
import { postJson, startServerProcess } from '../helpers/server-process';
import { SocketClient } from '../helpers/test-server';
import { conversationOf, userPrompt } from './openai-test-server';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

/** The server as its own process, on the openai provider pointed at the fake. */
function startProcess(dataDir: string, fake: FakeOpenAi) {
  return startServerProcess(dataDir, { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, TUTOR_MODEL: 'llama3.1:8b' });
}

describe('a widget pending across a killed server (openai)', () => {
  it('is restored by a new process, and the next model call carries the earlier tool call and its result', async () => {
    const fake = await startFakeOpenAi();
    cleanup.push(() => fake.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tutorloop-restart-widget-openai-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const first = await startProcess(dataDir, fake);
    cleanup.push(() => void first.child.kill('SIGKILL'));
    const { token } = await postJson<AuthResponse>(first.url, '/api/auth/register', { username: 'widget_restart_openai', password: 'survives a crash' });
    const set = await postJson<RecallSetDetail>(first.url, '/api/recall-sets', { name: 'Cells', points: [{ content: 'Mitochondria produce ATP' }, { content: 'Ribosomes synthesize proteins' }] }, token);
    const { sessionId } = await postJson<{ sessionId: string }>(first.url, '/api/sessions', { type: 'recall', recallSetId: set.id }, token);
    const wsUrl = (url: string) => `${url.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${token}`;

    fake.enqueue('tutor', openAiReplies.text('Welcome! What gives a cell its energy?'));
    const client = await SocketClient.open(wsUrl(first.url));
    await client.waitFor('assistant');
    fake.enqueue(
      'tutor',
      openAiReplies.toolCall(
        'present_choices',
        { prompt: 'Which organelle produces ATP?', options: ['Nucleus', 'Mitochondria', 'Golgi body'] },
        { text: 'Let’s try it this way.', id: 'call_restart_1' },
      ),
    );
    let start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'not sure', clientMessageId: 'c1' } });
    const widget = await client.waitFor('widget', { from: start });
    await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.status === 'awaiting_client_action' });

    first.child.kill('SIGKILL');
    await client.waitForClose();

    const second = await startProcess(dataDir, fake);
    cleanup.push(() => void second.child.kill('SIGKILL'));
    const again = await SocketClient.open(wsUrl(second.url));
    const state = await again.waitFor('state_update');
    expect(state.payload.state.status).toBe('awaiting_client_action');
    const restored = await again.waitFor('widget');
    expect(restored.payload).toEqual(widget.payload);
    await again.waitFor('history');
    expect(again.events.slice(0, 3).map((event) => event.type)).toEqual(['state_update', 'widget', 'history']);

    // The evaluator recognises the pick; the tutor answers from the rebuilt conversation.
    fake.enqueue('evaluator', (request) => {
      const content = userPrompt(request);
      const line = content.split('\n').find((candidate) => candidate.includes('Mitochondria produce ATP'))!;
      const id = /\[([^\]]+)\]/.exec(line)![1]!;
      return openAiReplies.evaluation({ recalledPoints: [{ id, confidence: 0.6, observation: 'picked it' }], feedback: 'recognised' });
    });
    fake.enqueue('tutor', openAiReplies.text('Yes — mitochondria. Now, what builds proteins?'));
    start = again.events.length;
    again.send({ type: 'widget_response', payload: { widgetId: restored.payload.widgetId, response: { selectedIndex: 1 } } });
    const reply = await again.waitFor('assistant', { from: start });
    expect(reply.payload.message).toBe('Yes — mitochondria. Now, what builds proteins?');
    const after = await again.waitFor('state_update', { from: start });
    expect(after.payload.state).toMatchObject({ status: 'active', recalledCount: 1 });

    const last = fake.requestsFor('tutor').at(-1)!;
    expect(last.body.model).toBe('llama3.1:8b');
    expect(conversationOf(last)).toEqual([
      { role: 'user', content: '(The learner opened the session.)' },
      { role: 'assistant', content: 'Welcome! What gives a cell its energy?' },
      { role: 'user', content: 'not sure' },
      {
        role: 'assistant',
        content: 'Let’s try it this way.',
        tool_calls: [
          {
            id: 'call_restart_1',
            type: 'function',
            function: { name: 'present_choices', arguments: JSON.stringify({ prompt: 'Which organelle produces ATP?', options: ['Nucleus', 'Mitochondria', 'Golgi body'] }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_restart_1', content: 'Mitochondria' },
    ]);
    again.close();
  });
});
