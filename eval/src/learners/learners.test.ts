import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Widget } from '@tutorloop/shared';
import { anthropicSettingsFromEnvironment } from './anthropic-messages';
import { createLearner, simulatedMessages, type Learner, type LearnerView } from './learners';

const choice: Widget = { widgetId: 'w1', kind: 'multiple_choice', props: { prompt: 'Which one?', options: ['Rome', 'Paris'] } };
const noKey = { anthropic: null };

function view(turn: number, pendingWidget: Widget | null = null): LearnerView {
  return { turn, pendingWidget, transcript: [{ role: 'tutor', text: 'Welcome! What do you remember?' }] };
}

function learnerOf(result: ReturnType<typeof createLearner>): Learner {
  if (!result.ok) throw new Error(result.notRunReason);
  return result.learner;
}

describe('scripted learner', () => {
  const learner = learnerOf(
    createLearner({ type: 'scripted', turns: [{ say: 'Paris', expect: { recalledExactly: 1 } }, { widget: { answer: 'match', text: 'paris' } }] }, noKey),
  );

  it('plays its turns in order, then stops', async () => {
    expect(learner.label).toBe('scripted (2 turns)');
    expect(learner.turnExpectations).toEqual([{ recalledExactly: 1 }, undefined]);
    expect(await learner.next(view(1))).toEqual({ type: 'chat', message: 'Paris' });
    expect(await learner.next(view(2, choice))).toEqual({ type: 'widget_answer', widget: choice, response: { selectedIndex: 1 }, label: 'Paris' });
    expect(await learner.next(view(3))).toBeNull();
  });

  it('is stuck when it should answer a widget that is not there', async () => {
    expect(await learner.next(view(2))).toEqual({ type: 'stuck', reason: 'the script answers a widget here, but no widget is pending' });
  });
});

describe('policy learner', () => {
  it('chats from its list (repeating the last) and answers widgets by its rules', async () => {
    const learner = learnerOf(createLearner({ type: 'policy', say: ['one', 'two'], widgets: [{ answer: 'first' }], maxTurns: 4 }, noKey));
    expect(await learner.next(view(1))).toEqual({ type: 'chat', message: 'one' });
    expect(await learner.next(view(2, choice))).toMatchObject({ type: 'widget_answer', response: { selectedIndex: 0 } });
    expect(await learner.next(view(3))).toEqual({ type: 'chat', message: 'two' });
    expect(await learner.next(view(4))).toEqual({ type: 'chat', message: 'two' });
    expect(await learner.next(view(5))).toBeNull();
  });
});

describe('simulated learner', () => {
  const requests: Array<{ headers: Record<string, unknown>; body: { model: string; system: string; messages: Array<{ role: string; content: string }> } }> = [];
  const replies: string[] = [];
  let server: Server;
  let baseUrl = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push({ headers: request.headers, body: JSON.parse(body) });
        response.writeHead(request.url === '/v1/messages' ? 200 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ content: [{ type: 'text', text: replies.shift() ?? '' }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is not run without ANTHROPIC_API_KEY', () => {
    expect(anthropicSettingsFromEnvironment({})).toBeNull();
    expect(createLearner({ type: 'simulated', persona: 'curious', maxTurns: 3 }, noKey)).toEqual({
      ok: false,
      notRunReason: 'the simulated learner needs ANTHROPIC_API_KEY (and honours ANTHROPIC_BASE_URL); it is not set',
    });
  });

  it('asks the Messages API at ANTHROPIC_BASE_URL for chat and widget answers', async () => {
    const settings = anthropicSettingsFromEnvironment({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: baseUrl });
    const learner = learnerOf(createLearner({ type: 'simulated', persona: 'A hesitant student.', maxTurns: 2, model: 'test-model' }, { anthropic: settings }));
    replies.push('Is it Paris?', 'I pick 2');
    expect(await learner.next(view(1))).toEqual({ type: 'chat', message: 'Is it Paris?' });
    expect(await learner.next(view(2, choice))).toEqual({ type: 'widget_answer', widget: choice, response: { selectedIndex: 1 }, label: 'Paris' });
    expect(await learner.next(view(3))).toBeNull();
    expect(requests[0]?.headers['x-api-key']).toBe('test-key');
    expect(requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(requests[0]?.body.model).toBe('test-model');
    expect(requests[0]?.body.system).toContain('A hesitant student.');
    expect(requests[1]?.body.messages.at(-1)?.content).toContain('1. Rome\n2. Paris\nReply with only the number');
  });

  it('plays the tutor as the user and itself as the assistant', () => {
    expect(
      simulatedMessages({
        turn: 2,
        pendingWidget: null,
        transcript: [
          { role: 'tutor', text: 'Hi!' },
          { role: 'tutor', text: 'What do you remember?' },
          { role: 'learner', text: 'Paris' },
        ],
      }),
    ).toEqual([
      { role: 'user', content: 'Hi!\n\nWhat do you remember?' },
      { role: 'assistant', content: 'Paris' },
      { role: 'user', content: '(The tutor waits for your reply.)' },
    ]);
  });
});
