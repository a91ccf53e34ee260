/** The shared turn runner on the in-memory storage, with a recording fake tutor: no server, no database file. */
import type { TutorEvent, TutorInput } from '../provider';
import type { ServerEvent } from '@tutorloop/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../ports';
import { createMemoryStorage } from '../storage/memory-storage';
import { sessionTypeCatalog } from '../session-type-states';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { Storage } from '../storage/storage';
import { buildState, toConversation } from './session-view';
import { fixedClock, recordingListener, recordingProvider, seededIds, type RecordingProvider } from './test-support';
import { regenerationNote } from './tutor-draft';
import { TurnRunner, type TurnHooks } from './turn-runner';

interface Feedback {
  feedback: string;
}

let storage: Storage;
let provider: RecordingProvider;
let heard: ReturnType<typeof recordingListener>;
let applied: Feedback[];
let runner: TurnRunner<Feedback, TutorInput>;
const clock = fixedClock();

/** A tutored type with a checklist's leak markers and widgets, as recall is. */
function hooks(): TurnHooks<Feedback, TutorInput> {
  return {
    noEvaluation: { feedback: '' },
    evaluate: async (_snapshot, message) => ({ feedback: `about: ${message.content}` }),
    async applyEvaluation({ snapshot, evaluation }) {
      applied.push(evaluation);
      return snapshot;
    },
    modelInput: ({ snapshot, trigger, evaluation }) => ({
      sessionId: snapshot.session.id,
      trigger,
      title: snapshot.session.title,
      mode: 'recall',
      rabbitholeTopic: null,
      checklist: [],
      probePoint: null,
      probeAttempts: 0,
      justRecalled: [],
      feedback: evaluation.feedback,
      conversation: toConversation(snapshot.messages),
      turn: snapshot.session.turn,
    }),
    reply: (input, leaked, signal) => provider.reply(leaked ? { ...input, feedback: regenerationNote(input.feedback, leaked) } : input, signal),
    leakGuard: { markers: () => ['pt-secret'] },
    tools: {
      widgetGuard: () => ({ unchecked: [], recalled: [], cued: null, cueLevel: 0 }),
      modeChangeApplies: () => false,
      modeToolCall: () => ({ name: 'none', input: {} }),
      applyModeChange: async (_tx, session) => session,
      modeChangeResult: () => '',
    },
    finalText: (text, stopped) => (stopped ? text.trimEnd() : text.trim()),
    wording: { safetyRedirect: 'Let us keep this a safe and useful space.', unavailable: 'The tutor could not answer just now.' },
    state: (snapshot) => buildState(snapshot.session, { recalledCount: 0, totalPoints: 0 }, snapshot.pendingAction),
    afterReply: async () => false,
  };
}

function runnerWith(typeHooks: TurnHooks<Feedback, TutorInput>): TurnRunner<Feedback, TutorInput> {
  return new TurnRunner({
    deps: { storage, safety: provider, clock, ids: seededIds(), logger: silentLogger },
    room: { sessionId: 's1', broadcast: heard.listener, freshSignal: () => new AbortController().signal, noteCommit: () => {} },
    hooks: typeHooks,
  });
}

/** A type that takes no tools and streams its text unscreened, its own finishing and words (as thought is). */
function textOnlyHooks(reply: TurnHooks<Feedback, TutorInput>['reply']): TurnHooks<Feedback, TutorInput> {
  return {
    ...hooks(),
    reply,
    leakGuard: 'none',
    tools: 'none',
    finalText: (text, stopped) => (stopped ? `${text.trim()} [stopped]` : text.trim().toUpperCase()),
    wording: { safetyRedirect: 'Tell me what you would like to think through.', unavailable: 'Your thinking partner could not answer just now.' },
  };
}

function deltas(): string[] {
  return heard.events.flatMap((event) => (event.type === 'assistant_delta' ? [event.payload.delta] : []));
}

async function learnerSays(text: string): Promise<SessionSnapshot> {
  await storage.transaction(async (tx) => {
    await tx.messages.append({ id: `m-${text.length}`, sessionId: 's1', role: 'learner', content: text, toolCall: null, toolCallId: null, widgetAnswer: null, clientMessageId: null, createdAt: clock.now() });
    await tx.sessions.update('s1', { status: 'active', turn: 1 }, clock.now());
  });
  return (await storage.loadSessionSnapshot('s1'))!;
}

beforeEach(async () => {
  storage = createMemoryStorage(sessionTypeCatalog);
  provider = recordingProvider();
  heard = recordingListener();
  applied = [];
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'l1', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.sessions.create({ id: 's1', learnerId: 'l1', title: 'Rivers', recallSetId: null, typeState: { type: 'recall', mode: 'recall', rabbitholeTopic: null, probeIndex: 0, probeAttempts: 0, allPoints: false }, createdAt: clock.now() });
  });
  runner = runnerWith(hooks());
});

describe('TurnRunner', () => {
  it('streams the reply, then commits it with the learner message answered, then announces it', async () => {
    provider.scriptedReplies.push([
      { type: 'text_delta', text: 'Rivers flow ' },
      { type: 'text_delta', text: 'downhill.' },
    ]);
    const snapshot = await learnerSays('water goes down');
    expect(await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!)).toBe(true);

    expect(heard.types()[0]).toBe('typing');
    expect(heard.events.filter((event) => event.type === 'assistant_delta').map((event) => (event as Extract<ServerEvent, { type: 'assistant_delta' }>).payload.delta).join('')).toBe('Rivers flow downhill.');
    expect(heard.types().slice(-2)).toEqual(['assistant', 'state_update']);
    expect(heard.events.at(-2)).toEqual({ type: 'assistant', payload: { messageId: 'id-1', message: 'Rivers flow downhill.' } });
    // The evaluation hook ran beside the safety gate, and its feedback reached the tutor only as input.
    expect(provider.safetyChecks).toEqual(['water goes down']);
    expect(applied).toEqual([{ feedback: 'about: water goes down' }]);
    expect(provider.replies[0]!.feedback).toBe('about: water goes down');
    const after = (await storage.loadSessionSnapshot('s1'))!;
    expect(after.oldestUnanswered).toBeNull();
    expect(after.messages.map((message) => [message.role, message.content])).toEqual([
      ['learner', 'water goes down'],
      ['tutor', 'Rivers flow downhill.'],
    ]);
  });

  it('regenerates a leaking draft once, never streaming the leak, and sends the clean one', async () => {
    provider.scriptedReplies.push([{ type: 'text_delta', text: 'You still miss pt-secret here.' }], [{ type: 'text_delta', text: 'Tell me more about the delta.' }]);
    const snapshot = await learnerSays('hmm');
    await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);

    expect(JSON.stringify(heard.events)).not.toContain('pt-secret');
    expect(provider.replies).toHaveLength(2);
    expect(provider.replies[1]!.feedback).toBe('about: hmm\nYour previous draft of this reply mentioned internal details (point id pt-secret). Write the reply again, speaking to the learner directly, without any of them.');
    expect(heard.events.find((event) => event.type === 'assistant')).toEqual({ type: 'assistant', payload: { messageId: 'id-1', message: 'Tell me more about the delta.' } });
  });

  it('turns a widget tool call into a pending action, the awaiting status and a widget event (the durable loop)', async () => {
    provider.scriptedReplies.push([
      { type: 'text_delta', text: 'Pick one.' },
      { type: 'widget', toolCallId: 'tool-1', widget: { kind: 'multiple_choice', props: { prompt: 'Which way?', options: ['up', 'down'] } } },
    ]);
    const snapshot = await learnerSays('ok');
    await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);

    expect(heard.types().slice(-3)).toEqual(['assistant', 'state_update', 'widget']);
    expect(heard.events.at(-1)).toEqual({ type: 'widget', payload: { widgetId: 'id-2', kind: 'multiple_choice', props: { prompt: 'Which way?', options: ['up', 'down'] } } });
    const after = (await storage.loadSessionSnapshot('s1'))!;
    expect(after.session.status).toBe('awaiting_client_action');
    expect(after.pendingAction).toMatchObject({ id: 'id-2', toolCallId: 'tool-1', status: 'pending' });
    expect(after.messages.at(-1)!.toolCall).toEqual({ id: 'tool-1', name: 'present_choices', input: { prompt: 'Which way?', options: ['up', 'down'] } });
  });

  it('answers an unsafe message with the redirect, without committing its evaluation or calling the tutor', async () => {
    provider.scriptedSafety.push({ safe: false, reason: 'self-harm' });
    const snapshot = await learnerSays('something unsafe');
    await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);

    expect(applied).toEqual([]);
    expect(provider.replies).toEqual([]);
    expect(heard.types()).toEqual(['typing', 'assistant', 'state_update']);
    expect((heard.events[1] as Extract<ServerEvent, { type: 'assistant' }>).payload.message).toMatch(/safe and useful space/);
  });

  it('keeps the learner message unanswered and reports llm_unavailable when the tutor fails', async () => {
    provider.scriptedReplies.push(new Error('model down'));
    const snapshot = await learnerSays('hello');
    expect(await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!)).toBe(false);

    expect(heard.events.at(-1)).toMatchObject({ type: 'error', payload: { code: 'llm_unavailable' } });
    expect((await storage.loadSessionSnapshot('s1'))!.oldestUnanswered?.content).toBe('hello');
    expect(runner.streaming).toBeNull();
  });
  it('runs a type without tools or leak guard (as thought): text streamed as written, tool calls ignored, options left as text, the text finished the type’s way', async () => {
    const text = 'Which do you mean?\nA) habits\nB) motivation';
    runner = runnerWith(
      textOnlyHooks(async function* (): AsyncIterable<TutorEvent> {
        yield { type: 'text_delta', text: text.slice(0, 20) };
        yield { type: 'text_delta', text: text.slice(20) };
        yield { type: 'widget', toolCallId: 'tool-1', widget: { kind: 'multiple_choice', props: { prompt: 'Which one?', options: ['habits', 'motivation'] } } };
      }),
    );
    const snapshot = await learnerSays('hmm');
    expect(await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!)).toBe(true);

    expect(deltas()).toEqual([text.slice(0, 20), text.slice(20)]);
    expect(heard.types()).toEqual(['typing', 'assistant_delta', 'assistant_delta', 'assistant', 'state_update']);
    expect(heard.events.at(-2)).toEqual({ type: 'assistant', payload: { messageId: 'id-1', message: text.toUpperCase() } });
    const after = (await storage.loadSessionSnapshot('s1'))!;
    expect(after.pendingAction).toBeNull();
    expect(after.session.status).toBe('active');
    expect(after.messages.at(-1)).toMatchObject({ role: 'tutor', content: text.toUpperCase(), toolCall: null });
  });

  it('writes the redirect and the llm_unavailable error in the type’s words', async () => {
    runner = runnerWith(
      textOnlyHooks(async function* () {
        throw new Error('model down');
      }),
    );
    provider.scriptedSafety.push({ safe: false, reason: 'self-harm' });
    let snapshot = await learnerSays('something unsafe');
    await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);
    expect(heard.events[1]).toEqual({ type: 'assistant', payload: { messageId: 'id-1', message: 'Tell me what you would like to think through.' } });

    snapshot = await learnerSays('a fair question');
    expect(await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!)).toBe(false);
    expect(heard.events.at(-1)).toEqual({ type: 'error', payload: { code: 'llm_unavailable', message: 'Your thinking partner could not answer just now.' } });
    expect((await storage.loadSessionSnapshot('s1'))!.oldestUnanswered?.content).toBe('a fair question');
  });

  it('stops a reply mid-stream: what was sent is stored as the reply, marked stopped and finished the type’s way (SPEC §5)', async () => {
    let streamed!: () => void;
    const firstPieceSent = new Promise<void>((resolve) => (streamed = resolve));
    runner = runnerWith(
      textOnlyHooks(async function* (_input, _leaked, signal): AsyncIterable<TutorEvent> {
        yield { type: 'text_delta', text: 'So you think ' };
        // Asked for the next piece: the first one has been broadcast.
        streamed();
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      }),
    );
    const snapshot = await learnerSays('habits matter');
    const turn = runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);
    await firstPieceSent;
    expect(runner.stop()).toBe(true);
    expect(await turn).toBe(true);

    expect(heard.types()).toEqual(['typing', 'assistant_delta', 'assistant', 'state_update']);
    expect(heard.events[2]).toEqual({ type: 'assistant', payload: { messageId: 'id-1', message: 'So you think [stopped]', stopped: true } });
    expect(runner.stop()).toBe(false);
    const after = (await storage.loadSessionSnapshot('s1'))!;
    expect(after.oldestUnanswered).toBeNull();
    expect(after.messages.at(-1)).toMatchObject({ role: 'tutor', content: 'So you think [stopped]', stopped: true });
  });

  it('hands a retry the reply it replaces, and supersedes it', async () => {
    const retried: Array<string | null> = [];
    runner = runnerWith({
      ...textOnlyHooks(async function* (input) {
        yield { type: 'text_delta', text: input.retryOf ? 'Put another way.' : 'First words.' };
      }),
      modelInput: (request) => {
        retried.push(request.retryOf?.content ?? null);
        return { ...hooks().modelInput(request), ...(request.retryOf ? { retryOf: request.retryOf.content } : {}) };
      },
    });
    let snapshot = await learnerSays('hello');
    await runner.learnerTurn(snapshot, snapshot.oldestUnanswered!);
    snapshot = (await storage.loadSessionSnapshot('s1'))!;
    const previous = snapshot.messages.at(-1)!;
    expect(await runner.retryTurn(snapshot, { previous, replyTo: snapshot.messages.at(-2)!, followers: [], pendingAction: null })).toBe(true);

    expect(retried).toEqual([null, 'FIRST WORDS.']);
    expect(heard.events.at(-2)).toEqual({ type: 'assistant', payload: { messageId: 'id-2', message: 'PUT ANOTHER WAY.', replaces: previous.id } });
    // The old reply stays stored but leaves the conversation.
    const after = (await storage.loadSessionSnapshot('s1'))!;
    expect(after.messages.map((message) => [message.role, message.content])).toEqual([
      ['learner', 'hello'],
      ['tutor', 'PUT ANOTHER WAY.'],
    ]);
  });
});
