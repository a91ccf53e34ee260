/**
 * SPEC §4.2, the seed's central failure made impossible: a session suspended on a widget
 * survives a SIGKILL of the server process (configured by environment, pointed at a fake API).
 * A new process on the same database restores the widget on reconnect, takes the answer, and
 * the next model call is rebuilt from the database alone — the fake receives the earlier tool
 * call and its result. anthropic/ and openai/restart-widget.test.ts run it against their fakes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse, RecallSetDetail } from '@tutorloop/shared';
import type { ProviderWire } from './provider-wire';
import { postJson, startServerProcess } from './server-process';
import { SocketClient } from './test-server';

export function restartWidgetScenario<Request, Reply>(wire: ProviderWire<Request, Reply>): void {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  describe(`a widget pending across a killed server (${wire.name})`, () => {
    // Two server processes start one after the other: on a loaded machine each can take seconds.
    it('is restored by a new process, and the next model call carries the earlier tool call and its result', { timeout: 150_000 }, async () => {
      const fake = await wire.startFake();
      cleanup.push(() => fake.close());
      const dataDir = mkdtempSync(path.join(tmpdir(), `tutorloop-restart-widget-${wire.name}-`));
      cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const env = wire.processEnv(fake.url);

      const first = await startServerProcess(dataDir, env);
      cleanup.push(() => void first.child.kill('SIGKILL'));
      const { token } = await postJson<AuthResponse>(first.url, '/api/auth/register', { username: `widget_restart_${wire.name}`, password: 'survives a crash' });
      const set = await postJson<RecallSetDetail>(first.url, '/api/recall-sets', { name: 'Cells', points: [{ content: 'Mitochondria produce ATP' }, { content: 'Ribosomes synthesize proteins' }] }, token);
      const { sessionId } = await postJson<{ sessionId: string }>(first.url, '/api/sessions', { type: 'recall', recallSetId: set.id }, token);
      const wsUrl = (url: string) => `${url.replace('http', 'ws')}/sessions/ws/${sessionId}?token=${token}`;

      fake.enqueue('tutor', wire.replies.text('Welcome! What gives a cell its energy?'));
      const client = await SocketClient.open(wsUrl(first.url));
      await client.waitFor('assistant');
      const choices = { prompt: 'Which organelle produces ATP?', options: ['Nucleus', 'Mitochondria', 'Golgi body'] };
      const callId = `${wire.toolIdPrefix}restart_1`;
      fake.enqueue('tutor', wire.replies.toolCall('present_choices', choices, { text: 'Let’s try it this way.', id: callId }));
      let start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'not sure', clientMessageId: 'c1' } });
      const widget = await client.waitFor('widget', { from: start });
      await client.waitFor('state_update', { from: start, where: (event) => event.payload.state.status === 'awaiting_client_action' });

      first.child.kill('SIGKILL');
      await client.waitForClose();

      const second = await startServerProcess(dataDir, env);
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
        const line = wire.userPrompt(request).split('\n').find((candidate) => candidate.includes('Mitochondria produce ATP'))!;
        const id = /\[([^\]]+)\]/.exec(line)![1]!;
        return wire.replies.evaluation({ recalledPoints: [{ id, confidence: 0.6, observation: 'picked it' }], feedback: 'recognised' });
      });
      fake.enqueue('tutor', wire.replies.text('Yes — mitochondria. Now, what builds proteins?'));
      start = again.events.length;
      again.send({ type: 'widget_response', payload: { widgetId: restored.payload.widgetId, response: { selectedIndex: 1 } } });
      const reply = await again.waitFor('assistant', { from: start });
      expect(reply.payload.message).toBe('Yes — mitochondria. Now, what builds proteins?');
      const after = await again.waitFor('state_update', { from: start });
      expect(after.payload.state).toMatchObject({ status: 'active', recalledCount: 1 });

      const last = fake.requestsFor('tutor').at(-1)!;
      expect(wire.model(last)).toBe(env.TUTOR_MODEL);
      expect(wire.conversation(last)).toEqual([
        { role: 'user', text: '(The learner opened the session.)' },
        { role: 'assistant', text: 'Welcome! What gives a cell its energy?' },
        { role: 'user', text: 'not sure' },
        { role: 'assistant', text: 'Let’s try it this way.', toolCalls: [{ id: callId, name: 'present_choices', input: choices }] },
        { role: 'user', toolResults: [{ toolCallId: callId, content: 'Mitochondria' }] },
      ]);
      again.close();
    });
  });
}
