/** The offline tutor hands a stuck learner a multiple-choice widget; answering it goes on (SPEC §4.2). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/test-server';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const points = ['Paris is the capital of France', 'Water boils at 100 degrees Celsius', 'The Pacific is the largest ocean'];

describe('offline tutor widgets', () => {
  it('offers choices after two misses, keeps the widget through a chat, and a right pick counts', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, points);
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });

    for (const miss of ['I do not remember', 'still no idea, sorry']) {
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: miss } });
      await client.waitFor('state_update', { from: start });
    }
    const widget = await client.waitFor('widget');
    expect(widget.payload.kind).toBe('multiple_choice');
    const state = client.events.filter((event) => event.type === 'state_update').at(-1)!;
    expect(state.payload.state.status).toBe('awaiting_client_action');
    if (widget.payload.kind !== 'multiple_choice') throw new Error('expected multiple choice');
    const options = widget.payload.props.options;
    expect(new Set(options).size).toBe(options.length);

    // A question while the widget is pending is answered as chat; the widget stays.
    let start = client.events.length;
    client.send({ type: 'chat', payload: { message: 'what do you mean?' } });
    const afterChat = await client.waitFor('state_update', { from: start });
    expect(afterChat.payload.state.status).toBe('awaiting_client_action');
    expect(afterChat.payload.state.status === 'awaiting_client_action' && afterChat.payload.state.pendingWidget.widgetId).toBe(widget.payload.widgetId);

    // Out-of-range index is refused; the widget stays pending.
    start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: options.length } } });
    expect((await client.waitFor('error', { from: start })).payload.code).toBe('invalid_payload');

    // Reconnecting restores the same widget.
    client.close();
    const again = await server.connect(sessionId, token);
    const restored = await again.waitFor('widget');
    expect(restored.payload).toEqual(widget.payload);

    const right = options.findIndex((option) => points.includes(option) && option === points[0]);
    expect(right).toBeGreaterThanOrEqual(0);
    start = again.events.length;
    again.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: right } } });
    const answered = await again.waitFor('state_update', { from: start });
    expect(answered.payload.state).toMatchObject({ status: 'active', recalledCount: 1 });

    // A second submit is not processed again.
    start = again.events.length;
    again.send({ type: 'widget_response', payload: { widgetId: widget.payload.widgetId, response: { selectedIndex: right } } });
    const error = await again.waitFor('error', { from: start });
    expect(error.payload).toEqual({ code: 'widget_not_pending', message: 'That widget was already answered.' });

    const history = await server.api<{ messages: Array<{ role: string; widget?: unknown; widgetAnswer?: unknown }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(history.body.messages.filter((message) => message.widget)).toHaveLength(1);
    expect(history.body.messages.filter((message) => message.widgetAnswer)).toEqual([
      expect.objectContaining({ role: 'learner', widgetAnswer: { widgetId: widget.payload.widgetId, response: { selectedIndex: right } } }),
    ]);
    again.close();
  });
});

describe('one offline session meets every widget and a tangent (no API key)', () => {
  const codePoint = '`len(s)` returns the number of characters in a string';
  const longPoint =
    'Photosynthesis converts light energy into chemical energy: chloroplasts capture sunlight with chlorophyll, split water to release oxygen, and fix carbon dioxide into glucose in the Calvin cycle';
  const shortPoint = 'Paris is the capital of France';

  it('code editor, free text and multiple choice, each answered, and the tutor follows a tangent and comes back', async () => {
    const { token } = await server.register();
    const set = await server.createSet(token, [codePoint, longPoint, shortPoint], 'Mixed bag');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('state_update', { where: (event) => event.payload.state.status === 'active' });
    await client.waitFor('assistant');

    async function chat(message: string) {
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message } });
      const state = await client.waitFor('state_update', { from: start });
      return { start, state: state.payload.state };
    }
    async function answer(response: { selectedIndex: number } | { text: string } | { code: string; language: 'python' | 'javascript' }, widgetId: string) {
      const start = client.events.length;
      client.send({ type: 'widget_response', payload: { widgetId, response } });
      return client.waitFor('state_update', { from: start });
    }

    // 1. Stuck on the code point: a Python code editor; code using len() recalls it.
    let turn = await chat('no idea');
    const code = await client.waitFor('widget', { from: turn.start });
    expect(code.payload).toMatchObject({ kind: 'code_editor', props: { language: 'python' } });
    let state = await answer({ code: 'word = "héllo"\nprint(len(word))', language: 'python' }, code.payload.widgetId);
    expect(state.payload.state).toMatchObject({ status: 'active', recalledCount: 1 });

    // A tangent the learner opens: the tutor follows it, then returns when asked.
    turn = await chat('By the way, how do cacti photosynthesize at night?');
    expect(turn.state).toMatchObject({ mode: 'rabbithole', rabbitholeTopic: 'how do cacti photosynthesize at night' });
    turn = await chat("OK, let's get back to the review");
    expect(turn.state.mode).toBe('recall');

    // 2. Stuck on the long point: a free-text box; writing it out recalls it.
    turn = await chat('no idea');
    const text = await client.waitFor('widget', { from: turn.start });
    expect(text.payload.kind).toBe('free_text');
    state = await answer({ text: 'Chloroplasts use chlorophyll to capture sunlight, split water releasing oxygen, and fix carbon dioxide into glucose — light energy becomes chemical energy.' }, text.payload.widgetId);
    expect(state.payload.state).toMatchObject({ status: 'active', recalledCount: 2 });

    // 3. Stuck twice on the short point: multiple choice; the right pick completes the session.
    await chat('no idea');
    turn = await chat('still nothing');
    const choice = await client.waitFor('widget', { from: turn.start });
    if (choice.payload.kind !== 'multiple_choice') throw new Error(`expected multiple choice, got ${choice.payload.kind}`);
    const start = client.events.length;
    client.send({ type: 'widget_response', payload: { widgetId: choice.payload.widgetId, response: { selectedIndex: choice.payload.props.options.indexOf(shortPoint) } } });
    const complete = await client.waitFor('session_complete', { from: start });
    expect(complete.payload.summary).toMatchObject({ reason: 'all_recalled', recalledCount: 3, totalPoints: 3 });

    // Answered widgets stay readable in the history.
    const replay = await server.api<{ messages: Array<{ widget?: { kind: string }; widgetAnswer?: unknown }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
    expect(replay.body.messages.flatMap((message) => (message.widget ? [message.widget.kind] : []))).toEqual(['code_editor', 'free_text', 'multiple_choice']);
    expect(replay.body.messages.filter((message) => message.widgetAnswer)).toHaveLength(3);
    client.close();
  });
});
