/**
 * Cards in a recall session with the offline tutor (issue 28 item 3): a point written as a
 * question and its answer — an imported Anki card (front as context) or "question → answer" —
 * is cued by its question, recalled by its answer however short, and never given away by a
 * cue, masked or not. Real room, in-memory storage, the offline provider.
 */
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { unlimitedModelBudget } from '../limits/model-budget';
import { createOfflineProvider } from '../offline/offline-provider';
import { silentLogger } from '../ports';
import type { RoomBase } from '../session/room-base';
import { recordingListener, seededIds } from '../session/test-support';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { Storage } from '../storage/storage';
import { recallModule } from './recall-module';

let storage: Storage;
let room: RoomBase;
let heard: ReturnType<typeof recordingListener>;
let sessionId: string;

async function start(title: string, points: Array<[string, string | null]>) {
  let tick = 0;
  // Each call a second later, so "recalled this turn" is told apart from earlier turns.
  const clock = { now: () => new Date(Date.UTC(2026, 10, 27, 9) + tick++ * 1000) };
  storage = createMemoryStorage(sessionTypeCatalog);
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.recallSets.create({ id: 'set1', learnerId: 'l1', name: title, description: null, createdAt: clock.now() });
    for (const [index, [content, context]] of points.entries()) {
      await tx.recallSets.addPoint({ id: `p${index}`, recallSetId: 'set1', content, context, position: index, createdAt: clock.now() });
    }
  });
  const recall = recallModule({ storage, provider: createOfflineProvider(), clock, ids: seededIds(), logger: silentLogger, modelBudget: unlimitedModelBudget });
  const created = await recall.create({ learnerId: 'l1', body: { type: 'recall', recallSetId: 'set1' }, now: clock.now() });
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value;
  room = recall.openRoom(sessionId, () => {});
  heard = recordingListener();
  await room.attach(heard.listener);
  await room.settled();
}

const replies = () => heard.events.filter((event): event is Extract<ServerEvent, { type: 'assistant' }> => event.type === 'assistant').map((event) => event.payload.message);
const widgets = () => heard.events.filter((event): event is Extract<ServerEvent, { type: 'widget' }> => event.type === 'widget');
const recalled = async () => (await storage.read((reader) => reader.sessions.get(sessionId)))!;

async function say(message: string): Promise<string> {
  await room.handle({ type: 'chat', payload: { message } }, heard.listener);
  await room.settled();
  return replies().at(-1)!;
}

const deck: Array<[string, string | null]> = [
  ['Paris', 'Capital of France'],
  ['Chemical formula of water → H2O', null],
  ['the mitochondria', 'Powerhouse of the cell'],
  ['Q: In which year did the French Revolution begin? A: 1789', null],
];

describe('cards (issue 28 item 3)', () => {
  beforeEach(async () => {
    await start('Quick facts', deck);
  });

  it('cues each card by its question and accepts short answers to it', async () => {
    expect(replies()[0]).toContain('Capital of France?');
    expect(await say("It's Paris")).toContain('Chemical formula of water?');
    expect(await say('H2O')).toContain('Powerhouse of the cell?');
    expect(await say('the mitochondria')).toContain('In which year did the French Revolution begin?');
    await say('1789');
    const session = await recalled();
    expect(heard.events.filter((event) => event.type === 'session_complete')).toHaveLength(1);
    expect(session.status).toBe('completed');
  });

  it('does not take an echo of the question for its answer', async () => {
    await say('the capital of France');
    const state = heard.events.filter((event): event is Extract<ServerEvent, { type: 'state_update' }> => event.type === 'state_update').at(-1)!.payload.state;
    expect(state.recalledCount).toBe(0);
  });

  it('never puts an answer into a cue, masked or not, and offers choices of the same kind', async () => {
    await say('Paris');
    await say('H2O');
    await say('the mitochondria');
    // The year card: missed twice, then multiple choice of nearby years.
    const first = await say('no idea');
    const second = await say('1492');
    const cues = [replies()[0], first, second].join(' ');
    expect(cues).not.toMatch(/1789|1_+|_{4}/);
    const choice = widgets().at(-1)!;
    expect(choice.payload.kind).toBe('multiple_choice');
    const options = (choice.payload.props as { options: string[] }).options;
    expect(options).toContain('1789');
    expect(options.every((option) => /^\d{4}$/.test(option))).toBe(true);
  });

  it('says "hint please" back with help, never a verdict', async () => {
    const reply = await say('hint please');
    expect(reply).not.toMatch(/not quite|not yet|Hmm/i);
    expect(reply).toContain('Capital of France?');
    expect(reply).not.toMatch(/Paris|P_/);
  });
});

describe('the learner’s own title (issue 28 item 3)', () => {
  it('is quoted as written, never masked, even when it names what is being recalled', async () => {
    await start('The solar system', [
      ['The solar system has eight planets', null],
      ['Jupiter is the largest planet in the solar system', null],
    ]);
    await say('no idea');
    expect(replies()[0]).toContain('“The solar system”');
    expect(replies().filter((reply) => /“The s_+ s_+”/.test(reply))).toEqual([]);
  });
});
