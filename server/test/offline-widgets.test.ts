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
