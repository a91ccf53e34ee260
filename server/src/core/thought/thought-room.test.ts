/**
 * A thought room on the shared turn runner (SPEC §4.5, §5), on the in-memory storage with a
 * scripted partner, a fixed clock and seeded ids: no server, no database file.
 */
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { unlimitedModelBudget } from '../limits/model-budget';
import { silentLogger } from '../ports';
import type { RoomBase } from '../session/room-base';
import { fixedClock, recordingListener, recordingProvider, seededIds, type RecordingProvider } from '../session/test-support';
import { sessionTypeCatalog } from '../session-type-states';
import { createMemoryStorage } from '../storage/memory-storage';
import type { Storage } from '../storage/storage';
import { thoughtModule } from './thought-module';
import type { ThoughtPartner, ThoughtReplyInput } from './thought-port';

let storage: Storage;
let provider: RecordingProvider;
let room: RoomBase;
let sessionId: string;
/** What the partner was asked, and how it answers: a list of pieces, or pieces then a wait for the stop. */
let asked: ThoughtReplyInput[];
let script: Array<{ pieces: string[]; thenWait?: boolean }>;
const clock = fixedClock();

const partner: ThoughtPartner = {
  async *reply(input, signal) {
    asked.push(structuredClone(input));
    const next = script.shift() ?? { pieces: ['What makes you say so?'] };
    for (const piece of next.pieces) yield piece;
    if (next.thenWait) await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  },
  summarize: () => Promise.reject(new Error('no summary in these short sessions')),
};

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  provider = recordingProvider();
  asked = [];
  script = [];
  await storage.transaction((tx) => tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() }));
  const thought = thoughtModule({ storage, provider, thoughtPartner: partner, clock, ids: seededIds(), logger: silentLogger, modelBudget: unlimitedModelBudget });
  const created = await thought.create({ learnerId: 'l1', body: { type: 'thought', topic: 'habits' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
  room = thought.openRoom(sessionId, () => {});
});

/** Attaches a listener and lets the opening turn finish; the listener then starts empty. */
async function opened(): Promise<ReturnType<typeof recordingListener>> {
  const heard = recordingListener();
  await room.attach(heard.listener);
  await room.settled();
  heard.events.length = 0;
  return heard;
}

describe('ThoughtRoom on the turn runner', () => {
  it('opens with the partner, then answers a message with the window: typing, the pieces as written, the reply, the state', async () => {
    script.push({ pieces: ['What would you like ', 'to think through about habits?'] });
    const heard = await opened();
    expect(asked).toEqual([{ sessionId, topic: 'habits', summary: '', recentMessages: [] }]);

    script.push({ pieces: ['Why do you think ', 'the cue matters?'] });
    await room.handle({ type: 'chat', payload: { message: 'A habit runs on cues' } }, heard.listener);
    await room.settled();

    expect(heard.types()).toEqual(['typing', 'assistant_delta', 'assistant_delta', 'assistant', 'state_update']);
    expect(heard.events.slice(1, 4)).toEqual([
      { type: 'assistant_delta', payload: { messageId: 'id-4', delta: 'Why do you think ' } },
      { type: 'assistant_delta', payload: { messageId: 'id-4', delta: 'the cue matters?' } },
      { type: 'assistant', payload: { messageId: 'id-4', message: 'Why do you think the cue matters?' } },
    ]);
    expect(heard.events[4]).toMatchObject({ type: 'state_update', payload: { state: { status: 'active', type: 'thought', turn: 1, thought: { topic: 'habits' } } } });
    expect(asked[1]).toEqual({
      sessionId,
      topic: 'habits',
      summary: '',
      recentMessages: [
        { role: 'partner', content: 'What would you like to think through about habits?' },
        { role: 'learner', content: 'A habit runs on cues' },
      ],
    });
  });

  it('answers an unsafe message with its own redirect, without asking the partner', async () => {
    const heard = await opened();
    provider.scriptedSafety.push({ safe: false, reason: 'self-harm' });
    await room.handle({ type: 'chat', payload: { message: 'something unsafe' } }, heard.listener);
    await room.settled();

    expect(asked).toHaveLength(1);
    expect(heard.types()).toEqual(['typing', 'assistant', 'state_update']);
    const redirect = heard.events[1] as Extract<ServerEvent, { type: 'assistant' }>;
    expect(redirect.payload.message).toMatch(/Whenever you’re ready, tell me what you’d like to think through\.$/);
  });

  it('stops the reply mid-stream: what was sent is kept, marked stopped, and the turn ends as usual (SPEC §5)', async () => {
    const heard = await opened();
    script.push({ pieces: ['So you think cues '], thenWait: true });
    let firstPiece!: () => void;
    const streamed = new Promise<void>((resolve) => (firstPiece = resolve));
    room.subscribe((event) => {
      if (event.type === 'assistant_delta') firstPiece();
    });
    // The chat resolves once its turn is done, so it is awaited after the stop.
    const turn = room.handle({ type: 'chat', payload: { message: 'cues matter most' } }, heard.listener);
    await streamed;
    await room.handle({ type: 'stop', payload: {} }, heard.listener);
    await turn;

    const assistant = heard.events.find((event) => event.type === 'assistant');
    expect(assistant).toEqual({ type: 'assistant', payload: { messageId: 'id-4', message: 'So you think cues', stopped: true } });
    expect(heard.events.at(-1)?.type).toBe('state_update');
    const after = await storage.loadSessionSnapshot(sessionId);
    expect(after?.oldestUnanswered).toBeNull();
    expect(after?.messages.at(-1)).toMatchObject({ role: 'tutor', content: 'So you think cues', stopped: true });

    // Nothing is in flight any more.
    const from = heard.events.length;
    await room.handle({ type: 'stop', payload: {} }, heard.listener);
    expect(heard.events.slice(from)).toEqual([{ type: 'error', payload: { code: 'nothing_to_stop', message: 'No reply is being written just now.' } }]);
  });
});
