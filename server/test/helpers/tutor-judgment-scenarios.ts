/**
 * What the engine does with the tutor's output, through the real server, a provider's real
 * SDK and its fake API (SPEC §4.1, §4.2): a leaking reply is held back, regenerated once and
 * else stripped; the tutor enters and leaves rabbit holes by its own judgment; options written
 * as plain text become a proper multiple-choice widget; one tool call per reply.
 * anthropic/ and openai/tutor-judgment.test.ts run these against their fakes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderWire, WireFake, WireToolCall } from './provider-wire';
import type { SocketClient, TestServer } from './test-server';

export function tutorJudgmentScenarios<Request, Reply>(wire: ProviderWire<Request, Reply>): void {
  const points = ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA'];

  let fake: WireFake<Request, Reply>;
  let server: TestServer;
  let running: Awaited<ReturnType<ProviderWire<Request, Reply>['startServer']>>;

  beforeEach(async () => {
    running = await wire.startServer();
    ({ fake, server } = running);
  });
  afterEach(async () => running.close());

  async function openSession(): Promise<{ client: SocketClient; sessionId: string; token: string }> {
    fake.enqueue('tutor', wire.replies.text('Welcome! What powers a cell?'));
    const { token } = await server.register();
    const set = await server.createSet(token, points, 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    return { client, sessionId, token };
  }

  async function say(client: SocketClient, message: string) {
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message } });
    const reply = await client.waitFor('assistant', { from: start });
    const state = await client.waitFor('state_update', { from: start });
    return { start, reply: reply.payload.message, state: state.payload.state, events: client.events.slice(start) };
  }

  describe('sanitization (SPEC §4.1)', () => {
    it('holds a leaking reply back and regenerates it once, told what leaked', async () => {
      const { client } = await openSession();
      fake.enqueue('tutor', wire.replies.text('Good effort! The evaluator noted the student’s answer was vague. What else do you remember?', { chunkSize: 8 }));
      fake.enqueue('tutor', wire.replies.text('Good effort! Can you say more about where energy comes from?'));
      const turn = await say(client, 'something about energy');

      expect(turn.reply).toBe('Good effort! Can you say more about where energy comes from?');
      const frames = JSON.stringify(turn.events);
      expect(frames).not.toMatch(/evaluator|student/i);
      const tutorCalls = fake.requestsFor('tutor');
      expect(tutorCalls).toHaveLength(3);
      const note = wire.systemText(tutorCalls[2]!);
      expect(note).toMatch(/Your previous draft of this reply mentioned internal details \(.*evaluator.*\)/);
    });

    it('strips the leaking sentences when the regenerated reply leaks again', async () => {
      const { client, sessionId, token } = await openSession();
      fake.enqueue('tutor', wire.replies.text('Nice. Confidence: 0.4 on that one. What else?'));
      fake.enqueue('tutor', wire.replies.text('Nice. The evaluator says it is partial. What else comes to mind?'));
      const turn = await say(client, 'energy');
      expect(turn.reply).toBe('Nice. What else comes to mind?');
      expect(JSON.stringify(turn.events)).not.toMatch(/evaluator|confidence/i);
      const replay = await server.api<{ messages: Array<{ content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body.messages.map((message) => message.content)).toContain('Nice. What else comes to mind?');
      expect(JSON.stringify(replay.body)).not.toMatch(/evaluator|confidence/i);
    });
  });

  describe('rabbit holes by the tutor’s judgment (SPEC §4.1)', () => {
    it('enters on the tutor’s call, gives minimal feedback there, and returns on its call', async () => {
      const { client } = await openSession();
      fake.enqueue('tutor', wire.replies.toolCall('enter_rabbit_hole', { topic: 'how cacti photosynthesize' }, { text: 'Great question — cacti open their pores at night. ' }));
      const enter = await say(client, 'wait, how do cacti even photosynthesize in the desert?');
      expect(enter.state).toMatchObject({ mode: 'rabbithole', rabbitholeTopic: 'how cacti photosynthesize' });
      expect(enter.reply).toBe('Great question — cacti open their pores at night.');

      // In the rabbit hole: the evaluator is asked for minimal feedback; the tutor is told to follow the tangent.
      fake.enqueue('tutor', wire.replies.text('Exactly, they store CO2 as malic acid.'));
      await say(client, 'so they store the carbon dioxide overnight?');
      const evaluator = fake.requestsFor('evaluator').at(-1)!;
      expect(wire.systemText(evaluator)).toContain('rabbit-hole mode');
      const tutor = fake.requestsFor('tutor').at(-1)!;
      expect(wire.systemText(tutor)).toContain('Mode: rabbit hole');
      // The mode change is in the conversation as a tool call with its result, so the API accepts it.
      const conversation = wire.conversation(tutor);
      const callIndex = conversation.findIndex((message) => message.toolCalls?.some((call) => call.name === 'enter_rabbit_hole'));
      expect(callIndex).toBeGreaterThan(0);
      expect(conversation[callIndex + 1]!.toolResults).toEqual([expect.objectContaining({ toolCallId: conversation[callIndex]!.toolCalls![0]!.id })]);

      fake.enqueue('tutor', wire.replies.toolCall('exit_rabbit_hole', {}, { text: 'Back to the review: what powers a cell?' }));
      const exit = await say(client, 'cool, thanks — ok, back to it');
      expect(exit.state).toMatchObject({ mode: 'recall' });
      expect(exit.state).not.toHaveProperty('rabbitholeTopic');
      expect(wire.systemText(fake.requestsFor('tutor').at(-1)!)).toContain('Mode: rabbit hole');
      fake.enqueue('tutor', wire.replies.text('Good. What else powers a cell?'));
      await say(client, 'mitochondria?');
      expect(wire.systemText(fake.requestsFor('tutor').at(-1)!)).toContain('Mode: recall.');
    });

    it('keeps the mode changes out of the visible history', async () => {
      const { client, sessionId, token } = await openSession();
      fake.enqueue('tutor', wire.replies.toolCall('enter_rabbit_hole', { topic: 'cacti' }, { text: 'Sure, let us talk about cacti.' }));
      await say(client, 'by the way, what about cacti?');
      const replay = await server.api<{ messages: Array<{ role: string; content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body.messages.map((message) => [message.role, message.content])).toEqual([
        ['tutor', 'Welcome! What powers a cell?'],
        ['learner', 'by the way, what about cacti?'],
        ['tutor', 'Sure, let us talk about cacti.'],
      ]);
    });
  });

  describe('options in plain text (SPEC §4.2)', () => {
    it('become a multiple-choice widget, stored as a proper tool call', async () => {
      const { client, sessionId, token } = await openSession();
      fake.enqueue('tutor', wire.replies.text('Let me narrow it down.\nWhich organelle makes ATP?\nA) The nucleus\nB) The mitochondria\nC) The ribosome'));
      const turn = await say(client, 'no idea');
      expect(turn.reply).toBe('Let me narrow it down.');
      expect(turn.state.status).toBe('awaiting_client_action');
      const widget = await client.waitFor('widget', { from: turn.start });
      expect(widget.payload).toMatchObject({
        kind: 'multiple_choice',
        props: { prompt: 'Which organelle makes ATP?', options: ['The nucleus', 'The mitochondria', 'The ribosome'] },
      });

      fake.enqueue('tutor', wire.replies.text('Right — the mitochondria.'));
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 1 } } });
      await client.waitFor('assistant', { from: start });
      const conversation = wire.conversation(fake.requestsFor('tutor').at(-1)!);
      const call = conversation.flatMap((message) => message.toolCalls ?? []).find((candidate) => candidate.name === 'present_choices');
      expect(call).toMatchObject({ input: { options: ['The nucleus', 'The mitochondria', 'The ribosome'] } });
      expect(conversation.at(-1)).toEqual({ role: 'user', toolResults: [{ toolCallId: call!.id, content: 'The mitochondria' }] });

      const replay = await server.api<{ messages: Array<{ role: string; widget?: unknown; widgetAnswer?: unknown }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body.messages.some((message) => message.widget)).toBe(true);
      expect(replay.body.messages.some((message) => message.widgetAnswer)).toBe(true);
    });
  });

  describe('one tool call per reply (SPEC §4.2; the rule lives in the engine, session-room.ts)', () => {
    const twoCalls = (first: WireToolCall, second: WireToolCall) => wire.replies.toolCalls('Let us try this.', [first, second]);
    const id = (name: string) => `${wire.toolIdPrefix}${name}`;

    it('issues only the first widget when the tutor calls two, and stores only that call', async () => {
      const { client } = await openSession();
      fake.enqueue(
        'tutor',
        twoCalls(
          { id: id('first'), name: 'present_choices', input: { prompt: 'Which organelle makes ATP?', options: ['Mitochondria', 'Nucleus'] } },
          { id: id('second'), name: 'request_free_text', input: { prompt: 'Explain it.' } },
        ),
      );
      const turn = await say(client, 'no idea');
      expect(turn.state.status).toBe('awaiting_client_action');
      const widget = await client.waitFor('widget', { from: turn.start });
      expect(widget.payload).toMatchObject({ kind: 'multiple_choice', props: { prompt: 'Which organelle makes ATP?', options: ['Mitochondria', 'Nucleus'] } });
      expect(client.events.slice(turn.start).filter((event) => event.type === 'widget')).toHaveLength(1);

      fake.enqueue('tutor', wire.replies.text('Right — mitochondria.'));
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: 0 } } });
      await client.waitFor('assistant', { from: start });
      const replayed = JSON.stringify(wire.conversation(fake.requestsFor('tutor').at(-1)!));
      expect(replayed).toContain(id('first'));
      expect(replayed).not.toContain(id('second'));
    });

    it('lets a first call that does not apply (leaving a rabbit hole while in recall) claim the reply: no widget follows it', async () => {
      const { client } = await openSession();
      fake.enqueue(
        'tutor',
        twoCalls(
          { id: id('exit'), name: 'exit_rabbit_hole', input: {} },
          { id: id('choice'), name: 'present_choices', input: { prompt: 'Which organelle makes ATP?', options: ['Mitochondria', 'Nucleus'] } },
        ),
      );
      const turn = await say(client, 'no idea');
      expect(turn.state).toMatchObject({ status: 'active', mode: 'recall' });
      expect(turn.events.some((event) => event.type === 'widget')).toBe(false);
    });
  });
}
