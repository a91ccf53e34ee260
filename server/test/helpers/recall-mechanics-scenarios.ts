/**
 * SPEC §4.1 recall mechanics through the real server, a provider's real SDK and its fake API:
 * three points in one message → three checked in that turn with their FSRS cards and review
 * logs; no recall → nothing checked and the tutor told so; the end reviews the rest as Again;
 * the next session's checklist holds only what is due; an unsafe message is redirected.
 * anthropic/ and openai/recall-mechanics.test.ts run these against their fakes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardList } from '@tutorloop/shared';
import type { Clock } from '../../src/core/ports';
import type { SocketClient, TestServer } from './test-server';

/** A reply of the fake, as scripted. */
type Reply = object;

/** The fake API as these scenarios script and inspect it. */
interface ScenarioFake<Request> {
  enqueue(route: 'evaluator' | 'safety' | 'tutor', ...scripts: Array<Reply | ((request: Request) => Reply)>): void;
  requestsFor(route: 'evaluator' | 'tutor'): Request[];
}

export interface RecallScenarioHarness<Request> {
  name: string;
  start(options: { clock: Clock }): Promise<{ fake: ScenarioFake<Request>; server: TestServer; close(): Promise<void> }>;
  replies: {
    text(text: string): Reply;
    evaluation(verdict: { recalledPoints: Array<{ id: string; confidence: number; observation: string }>; feedback: string }): Reply;
    safetyVerdict(safe: boolean, reason?: string): Reply;
  };
  /** The text of a request's user message (the evaluator's prompt, with the points' ids). */
  userPrompt(request: Request): string;
  /** The per-turn part of a tutor request's system prompt (where the evaluator's feedback goes). */
  tutorSystemText(request: Request): string;
}

export function recallMechanicsScenarios<Request>(harness: RecallScenarioHarness<Request>): void {
  const { replies } = harness;
  const points = ['mitochondria make ATP', 'ribosomes build proteins', 'the nucleus stores DNA', 'lysosomes digest waste'];

  let fake: ScenarioFake<Request>;
  let server: TestServer;
  let running: Awaited<ReturnType<RecallScenarioHarness<Request>['start']>>;
  /** The server's clock: real time plus an offset a test can move forward. */
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  beforeEach(async () => {
    offsetMs = 0;
    running = await harness.start({ clock });
    ({ fake, server } = running);
  });
  afterEach(async () => running.close());

  /** The point ids the evaluator request offers, by content. */
  function idsByContent(request: Request): Map<string, string> {
    const text = harness.userPrompt(request);
    const ids = new Map<string, string>();
    for (const line of text.split('\n')) {
      const match = /^- \[([^\]]+)\] (.+)$/.exec(line);
      if (match) ids.set(match[2]!, match[1]!);
    }
    return ids;
  }

  async function open(): Promise<{ client: SocketClient; sessionId: string; token: string; setId: string }> {
    fake.enqueue('tutor', replies.text('Welcome! Tell me about cells.'));
    const { token } = await server.register();
    const set = await server.createSet(token, points, 'Cells');
    const sessionId = await server.createSession(token, set.id);
    const client = await server.connect(sessionId, token);
    await client.waitFor('assistant');
    return { client, sessionId, token, setId: set.id };
  }

  async function turn(client: SocketClient, message: string) {
    const start = client.events.length;
    client.send({ type: 'chat', payload: { message } });
    await client.waitFor('assistant', { from: start });
    return (await client.waitFor('state_update', { from: start })).payload.state;
  }

  /** The session's review logs, read through the storage port. */
  const reviewLogs = (sessionId: string) =>
    server.server.storage.read(async (reader) => {
      const session = await reader.sessions.get(sessionId);
      return (await reader.cards.listReviewLogsByLearner(session!.learnerId)).filter((log) => log.sessionId === sessionId);
    });

  describe(`recall mechanics with the ${harness.name} provider`, () => {
    it('checks off three points from one message, each with its card and review log, in that turn', async () => {
      const { client, sessionId, token, setId } = await open();
      fake.enqueue('evaluator', (request) => {
        const ids = idsByContent(request);
        return replies.evaluation({
          recalledPoints: [
            { id: ids.get('mitochondria make ATP')!, confidence: 0.95, observation: 'exact' },
            { id: ids.get('ribosomes build proteins')!, confidence: 0.7, observation: 'close' },
            { id: ids.get('the nucleus stores DNA')!, confidence: 0.4, observation: 'vague but there' },
          ],
          feedback: 'Three recalled; lysosomes remain.',
        });
      });
      fake.enqueue('tutor', replies.text('Three at once — great. One more.'));
      const state = await turn(client, 'mitochondria make ATP, ribosomes build proteins and the nucleus keeps DNA');
      expect(state).toMatchObject({ recalledCount: 3, totalPoints: 4, turn: 1 });

      const checklist = await server.server.storage.read((reader) => reader.checklists.list(sessionId));
      expect(checklist.filter((entry) => entry.status === 'recalled').map((entry) => entry.turnRecalled)).toEqual([1, 1, 1]);
      const logs = (await reviewLogs(sessionId)).map(({ rating, confidence }) => ({ rating, confidence })).sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0));
      // The documented mapping (ARCHITECTURE.md): a free recall, unprompted as here, is Easy at
      // confidence ≥ 0.9 and Good otherwise; only hinted or recognised recalls go lower.
      expect(logs).toEqual([
        { rating: 'easy', confidence: 0.95 },
        { rating: 'good', confidence: 0.7 },
        { rating: 'good', confidence: 0.4 },
      ]);
      const cards = await server.api<CardList>('GET', `/api/cards?recallSetId=${setId}`, { token });
      const reviewed = cards.body.cards.filter((card) => card.reps > 0);
      expect(reviewed).toHaveLength(3);
      for (const card of reviewed) {
        expect(card.lastReview).not.toBeNull();
        expect(new Date(card.due).getTime()).toBeGreaterThan(Date.now());
        expect(card.stability).toBeGreaterThan(0);
      }

      // The next evaluation offers only the one point still unchecked.
      fake.enqueue('evaluator', replies.evaluation({ recalledPoints: [], feedback: 'No recall points were demonstrated in this message. Lysosomes remain.' }));
      fake.enqueue('tutor', replies.text('Think about the cell’s clean-up crew.'));
      const after = await turn(client, 'hmm, not sure');
      expect(after.recalledCount).toBe(3);
      const evaluator = fake.requestsFor('evaluator').at(-1)!;
      expect([...idsByContent(evaluator).keys()]).toEqual(['lysosomes digest waste']);
      // No recall: nothing checked, and the tutor was told so, privately.
      const tutor = fake.requestsFor('tutor').at(-1)!;
      expect(harness.tutorSystemText(tutor)).toContain('No recall points were demonstrated');
      expect(JSON.stringify(client.events)).not.toContain('No recall points were demonstrated');

      // Ending early reviews the point still unchecked as Again, and the next session holds only it.
      const start = client.events.length;
      client.send({ type: 'end_session', payload: {} });
      const complete = await client.waitFor('session_complete', { from: start });
      expect(complete.payload.summary).toMatchObject({ reason: 'ended_by_learner', recalledCount: 3, totalPoints: 4 });
      expect((await reviewLogs(sessionId)).filter((log) => log.rating === 'again')).toHaveLength(1);
      client.close();

      // Right now nothing is due (reviews are scheduled in whole days: no same-day learning
      // steps), so a new session holds every point; four days later the Again card (1 day) and
      // the two Good ones (3 days) are due and the Easy one (8 days) is not.
      fake.enqueue('tutor', replies.text('Welcome back!'), replies.text('Welcome back again!'));
      const now = await server.connect(await server.createSession(token, setId), token);
      expect((await now.waitFor('state_update')).payload.state.totalPoints).toBe(4);
      now.close();
      offsetMs = 4 * 24 * 3600_000;
      const later = await server.connect(await server.createSession(token, setId), token);
      expect((await later.waitFor('state_update')).payload.state.totalPoints).toBe(3);
      fake.enqueue('evaluator', (request) => {
        expect([...idsByContent(request).keys()].sort()).toEqual(['lysosomes digest waste', 'ribosomes build proteins', 'the nucleus stores DNA']);
        return replies.evaluation({ recalledPoints: [], feedback: '' });
      });
      fake.enqueue('tutor', replies.text('Go on.'));
      await turn(later, 'hello');
      later.close();
    });

    it('redirects an unsafe message calmly, without asking the tutor, and keeps it', async () => {
      const { client, sessionId, token } = await open();
      fake.enqueue('safety', replies.safetyVerdict(false, 'self-harm'));
      const tutorCalls = fake.requestsFor('tutor').length;
      const start = client.events.length;
      client.send({ type: 'chat', payload: { message: 'something unsafe' } });
      const reply = await client.waitFor('assistant', { from: start });
      expect(reply.payload.message).toMatch(/safe and useful space/);
      expect(fake.requestsFor('tutor')).toHaveLength(tutorCalls);
      const replay = await server.api<{ messages: Array<{ content: string }> }>('GET', `/api/sessions/${sessionId}/replay`, { token });
      expect(replay.body.messages.map((message) => message.content)).toContain('something unsafe');
      client.close();
    });
  });
}
