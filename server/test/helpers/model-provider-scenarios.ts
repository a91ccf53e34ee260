/**
 * SPEC §4.1, §4.2, §7 — what the model provider gives back to the engine, whatever the wire:
 * run through the resilient client, the transport and the real SDK against a fake API. The
 * engine then applies the turn's rules (normalising the evaluation, counting a failed safety
 * check as safe, keeping one tool call per reply). What each wire sends — request bodies, tool
 * schemas, caching, streaming events, call records — is asserted in anthropic/ and
 * openai/model-provider.test.ts, which also run these scenarios.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeEvaluation } from '../../src/core/evaluation/parse-evaluation';
import type { Logger } from '../../src/core/ports';
import type { ChecklistPoint, ConversationMessage, EvaluationInput, TutorEvent, TutorInput } from '../../src/core/provider';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { emptyReplyFallback } from '../../src/llm/model-provider';
import type { ProviderWire, WireFake } from './provider-wire';

export const live = () => new AbortController().signal;

export const points = {
  atp: { id: 'p-atp', content: 'Mitochondria produce ATP through oxidative phosphorylation', context: 'cell energy' },
  ribosome: { id: 'p-ribo', content: 'Ribosomes translate mRNA into proteins', context: null },
  nucleus: { id: 'p-nuc', content: 'The nucleus stores the genome', context: 'organelles' },
} satisfies Record<string, ChecklistPoint>;

export const feedback = 'FEEDBACK-SENTINEL: recalled the ATP point precisely; ribosomes still open.';

export function tutorInput(overrides: Partial<TutorInput> = {}): TutorInput {
  return {
    trigger: 'learner_message',
    title: 'Cell biology',
    mode: 'recall',
    rabbitholeTopic: null,
    checklist: [
      { ...points.atp, recalled: true },
      { ...points.ribosome, recalled: false },
      { ...points.nucleus, recalled: false },
    ],
    probePoint: points.ribosome,
    probeAttempts: 1,
    justRecalled: [points.atp],
    feedback,
    conversation: [
      { role: 'tutor', content: 'Welcome! What powers a cell?' },
      { role: 'learner', content: 'Mitochondria make ATP by oxidative phosphorylation.' },
    ],
    turn: 1,
    ...overrides,
  };
}

const fourteen: ConversationMessage[] = Array.from({ length: 14 }, (_, index) => {
  const label = `turn-${String(index + 1).padStart(2, '0')}`;
  return index % 2 === 0 ? { role: 'tutor' as const, content: `${label} What else do you remember?` } : { role: 'learner' as const, content: `${label} something about cells` };
});

/** Fifteen messages and two unchecked points: what the evaluator is asked about. */
export const evaluationInput: EvaluationInput = {
  points: [points.ribosome, points.nucleus],
  recentMessages: [...fourteen, { role: 'learner', content: 'turn-15 Ribosomes read mRNA and build proteins from it.' }],
  mode: 'recall',
};

export async function collect(iterable: AsyncIterable<TutorEvent>): Promise<TutorEvent[]> {
  const events: TutorEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

export function textOf(events: TutorEvent[]): string {
  return events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
}

/**
 * A fresh fake per test (hooks of the enclosing block), and the provider on it: its model
 * calls recorded in `records`, its warnings in `warnings`.
 */
export function providerUnderTest<Request, Reply>(wire: ProviderWire<Request, Reply>) {
  let fake: WireFake<Request, Reply>;
  let records: LlmCallRecord[] = [];
  let warnings: Array<{ object: object; message: string | undefined }> = [];
  const logger: Logger = { debug() {}, info() {}, warn: (object, message) => warnings.push({ object, message }), error() {} };
  beforeEach(async () => {
    fake = await wire.startFake();
    records = [];
    warnings = [];
  });
  afterEach(async () => {
    await fake.close();
  });
  return {
    get fake() {
      return fake;
    },
    get records() {
      return records;
    },
    get warnings() {
      return warnings;
    },
    makeProvider: (options: { safetyModel?: string } = {}) => wire.modelProvider(fake.url, { logger, recordCall: (record) => records.push(record), ...options }),
  };
}

/** The shared scenarios; `under` is the suite's own `providerUnderTest(wire)` when it has one (one fake per test, not two). */
export function modelProviderScenarios<Request, Reply>(wire: ProviderWire<Request, Reply>, shared?: ReturnType<typeof providerUnderTest<Request, Reply>>): void {
  const { replies } = wire;
  const input = evaluationInput;
  /** What the engine normalises against: the unchecked points on offer. */
  const offered = new Set(input.points.map((point) => point.id));
  const id = (name: string) => `${wire.toolIdPrefix}${name}`;

  describe(`the ${wire.name} model provider, as the engine sees it`, () => {
    const under = shared ?? providerUnderTest(wire);
    const makeProvider = () => under.makeProvider();

    describe('call records through the provider (SPEC §7)', () => {
      it('records each call with its purpose, model, tokens (cache reads and writes as the wire reports them) and outcome', async () => {
        const evaluated = { input: 310, output: 41, cacheRead: 0, cacheWrite: 0 };
        const cached = { input: 25, output: 12, cacheRead: 1800, cacheWrite: 0 };
        const newPrefix = { input: 25, output: 9, cacheRead: 0, cacheWrite: 1800 };
        under.fake.enqueue('safety', replies.safetyVerdict(true, ''));
        under.fake.enqueue('evaluator', replies.rateLimited(0), replies.withUsage({ evaluation: { recalledPoints: [], feedback: 'Nothing yet.' } }, evaluated));
        under.fake.enqueue('tutor', replies.withUsage({ text: 'Keep going!' }, cached), replies.withUsage({ text: 'First turn of a new prefix.' }, newPrefix));
        const provider = makeProvider();
        await provider.checkSafety('hi', live());
        await provider.evaluate({ points: [points.nucleus], recentMessages: [{ role: 'learner', content: 'hi' }], mode: 'recall' }, live());
        await collect(provider.reply(tutorInput(), live()));
        await collect(provider.reply(tutorInput(), live()));
        const { evaluator, tutor } = wire.models;
        const noTokens = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
        expect(under.records.map(({ purpose, model, streamed, outcome, status, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, attempt }) => ({ purpose, model, streamed, outcome, status, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, attempt }))).toEqual([
          { purpose: 'safety', model: evaluator, streamed: false, outcome: 'ok', status: null, ...wire.recordedUsage({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0 }), attempt: 1 },
          { purpose: 'evaluator', model: evaluator, streamed: false, outcome: 'error', status: 429, ...noTokens, attempt: 1 },
          { purpose: 'evaluator', model: evaluator, streamed: false, outcome: 'ok', status: null, ...wire.recordedUsage(evaluated), attempt: 2 },
          { purpose: 'tutor', model: tutor, streamed: true, outcome: 'ok', status: null, ...wire.recordedUsage(cached), attempt: 1 },
          { purpose: 'tutor', model: tutor, streamed: true, outcome: 'ok', status: null, ...wire.recordedUsage(newPrefix), attempt: 1 },
        ]);
        expect(under.records.every((record) => record.provider === wire.name && record.latencyMs >= 0 && record.sessionId === null)).toBe(true);
      });
    });

    describe('evaluate (SPEC §4.1)', () => {
      it('sends only the unchecked points and at most 10 messages to the evaluator model as a structured request, 0.3, 1024, not streamed', async () => {
        await makeProvider().evaluate(input, live());
        const sent = under.fake.requestsFor('evaluator');
        expect(sent).toHaveLength(1);
        expect(wire.params(sent[0]!)).toEqual({ model: wire.models.evaluator, temperature: 0.3, maxTokens: 1024, stream: undefined });
        expect(wire.structuredOutput(sent[0]!)).toEqual({
          name: 'record_evaluation',
          description: expect.any(String),
          schema: {
            type: 'object',
            properties: {
              messageKind: { type: 'string', enum: ['attempt', 'question'], description: expect.any(String) },
              recalledPoints: {
                type: 'array',
                description: expect.any(String),
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string', enum: ['p-ribo', 'p-nuc'], description: expect.any(String) },
                    confidence: { type: 'number', minimum: 0, maximum: 1, description: expect.any(String) },
                    observation: { type: 'string', description: expect.any(String) },
                  },
                  required: ['id', 'confidence', 'observation'],
                  additionalProperties: false,
                },
              },
              feedback: { type: 'string', description: expect.any(String) },
            },
            required: ['messageKind', 'recalledPoints', 'feedback'],
            additionalProperties: false,
          },
        });
        // One user message holds the whole prompt.
        expect(wire.conversation(sent[0]!)).toHaveLength(1);
        const text = wire.userPrompt(sent[0]!);
        const pointsBlock = /<points_not_yet_recalled>\n([\s\S]*?)\n<\/points_not_yet_recalled>/.exec(text)![1]!;
        expect(pointsBlock.split('\n')).toEqual([
          '- [p-ribo] Ribosomes translate mRNA into proteins',
          '- [p-nuc] The nucleus stores the genome (context: organelles)',
        ]);
        expect(JSON.stringify(sent[0])).not.toContain('p-atp');
        const transcript = /<transcript>\n([\s\S]*?)\n<\/transcript>/.exec(text)![1]!.split('\n');
        expect(transcript).toHaveLength(10);
        expect(transcript[0]).toBe('[1] Learner: turn-06 something about cells');
        expect(transcript[9]).toBe('[10] Learner (latest): turn-15 Ribosomes read mRNA and build proteins from it.');
        expect(text).not.toContain('turn-05');
      });

      it('returns the answer as the model gave it, which the engine cleans: unknown ids dropped, confidence clamped, duplicates removed', async () => {
        const answer = {
          recalledPoints: [
            { id: 'p-ribo', confidence: 1.4, observation: 'Said ribosomes build proteins from mRNA.' },
            { id: 'p-atp', confidence: 0.9, observation: 'Already recalled, not on offer.' },
            { id: 'p-ribo', confidence: 0.2, observation: 'Duplicate.' },
          ],
          feedback: 'Ribosomes recalled accurately. The nucleus remains.',
        };
        under.fake.enqueue('evaluator', replies.evaluation(answer));
        const raw = await makeProvider().evaluate(input, live());
        expect(raw).toEqual(answer);
        expect(normalizeEvaluation(raw, offered)).toEqual({
          recalledPoints: [{ id: 'p-ribo', confidence: 1, observation: 'Said ribosomes build proteins from mRNA.' }],
          feedback: 'Ribosomes recalled accurately. The nucleus remains.',
        });
      });

      it('asks for specific, actionable feedback in recall mode and for a bare list in rabbithole mode', async () => {
        const provider = makeProvider();
        await provider.evaluate(input, live());
        await provider.evaluate({ ...input, mode: 'rabbithole' }, live());
        const [recall, rabbithole] = under.fake.requestsFor('evaluator').map((request) => wire.systemText(request));
        expect(recall).toContain('near-misses');
        expect(recall).toContain('what remains unrecalled');
        expect(rabbithole).toContain('only list which points were recalled');
        expect(rabbithole).not.toContain('near-misses');
      });

      it('tells a question from an attempt (issue 15): the prompt asks for messageKind, and a question grades nothing whatever ids come with it', async () => {
        const answer = {
          messageKind: 'question',
          recalledPoints: [{ id: 'p-ribo', confidence: 0.9, observation: 'Asked whether it is the ribosome.' }],
          feedback: 'The learner asked a question; answer briefly and return to the same cue.',
        };
        under.fake.enqueue('evaluator', replies.evaluation(answer));
        const raw = await makeProvider().evaluate({ ...input, recentMessages: [{ role: 'learner', content: 'is it the ribosome?' }] }, live());
        expect(raw).toEqual(answer);
        expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: answer.feedback, messageKind: 'question' });
        const system = wire.systemText(under.fake.requestsFor('evaluator')[0]!);
        expect(system).toContain('A question is not an answer');
        expect(system).toContain('"why was France broke?"');
        // A guess put as a question is a hedged attempt, graded (issue 28).
        expect(system).toContain('a guess put as a question ("is it the mitochondria?"');
      });

      it('passes an answer with garbage fields on, which the engine turns into the empty result', async () => {
        under.fake.enqueue('evaluator', replies.garbageEvaluation());
        const raw = await makeProvider().evaluate(input, live());
        expect(raw).toEqual({ recalledPoints: 'all of them!', feedback: 42, extra: true });
        expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: '' });
      });

      it('passes the text on when the model answers with fenced JSON instead, and the engine reads it', async () => {
        under.fake.enqueue('evaluator', replies.fencedEvaluationText({ recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }], feedback: 'Nucleus recalled.' }));
        const raw = await makeProvider().evaluate(input, live());
        expect(raw).toEqual(expect.stringContaining('```json'));
        expect(normalizeEvaluation(raw, offered)).toEqual({
          recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }],
          feedback: 'Nucleus recalled.',
        });
        expect(under.warnings.map((warning) => warning.message)).toContain('evaluator answered with text instead of the tool');
      });

      it('survives an overloaded evaluator through retries', async () => {
        under.fake.enqueue('evaluator', wire.transientFailure.reply(), replies.evaluation({ recalledPoints: [{ id: 'p-nuc', confidence: 0.8, observation: 'ok' }], feedback: 'Nucleus.' }));
        expect(normalizeEvaluation(await makeProvider().evaluate(input, live()), offered).recalledPoints.map((point) => point.id)).toEqual(['p-nuc']);
        expect(under.fake.requestsFor('evaluator')).toHaveLength(2);
      });

      it('rejects when every attempt fails (the engine turns that into an empty result)', async () => {
        under.fake.enqueue('evaluator', replies.serverError(), replies.serverError(), replies.serverError());
        await expect(makeProvider().evaluate(input, live())).rejects.toMatchObject({ kind: 'server_error', attempts: 3 });
      });

      it('makes no call when nothing is unchecked', async () => {
        expect(await makeProvider().evaluate({ ...input, points: [] }, live())).toEqual({ recalledPoints: [], feedback: '' });
        expect(under.fake.requests).toHaveLength(0);
      });
    });

    describe('reply (SPEC §4.1, §4.2 widgets)', () => {
      it('turns a present_choices tool call streamed in pieces into a validated widget event', async () => {
        under.fake.enqueue(
          'tutor',
          replies.toolCall(
            'present_choices',
            { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis', stray: 'dropped' },
            { text: 'Let’s try a quick one.', id: id('choice'), chunkSize: 7 },
          ),
        );
        const events = await collect(makeProvider().reply(tutorInput(), live()));
        expect(textOf(events)).toBe('Let’s try a quick one.');
        expect(events.at(-1)).toEqual({
          type: 'widget',
          toolCallId: id('choice'),
          widget: {
            kind: 'multiple_choice',
            props: { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis' },
          },
        });
      });

      it('keeps the cached prefix (tools + the stable instructions) byte-identical across sessions and turns', async () => {
        const provider = makeProvider();
        await collect(provider.reply(tutorInput(), live()));
        await collect(
          provider.reply(
            tutorInput({ title: 'Roman history', probePoint: points.nucleus, feedback: 'Something else entirely.', mode: 'rabbithole', rabbitholeTopic: 'aqueducts', turn: 7 }),
            live(),
          ),
        );
        const [first, second] = under.fake.requestsFor('tutor');
        expect(wire.cachedPrefix(second!)).toBe(wire.cachedPrefix(first!));
        expect(wire.systemText(second!)).not.toBe(wire.systemText(first!));
        expect(wire.systemText(second!)).toContain('rabbit hole');
        expect(wire.systemText(second!)).toContain('“aqueducts”');
      });

      it('gives a free-text widget the default maxLength of 1000, and passes a code editor through', async () => {
        under.fake.enqueue('tutor', replies.toolCall('request_free_text', { prompt: 'Explain translation in your words.' }, { id: id('text') }));
        under.fake.enqueue('tutor', replies.toolCall('present_code_editor', { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' }, { id: id('code') }));
        const provider = makeProvider();
        expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
          { type: 'widget', toolCallId: id('text'), widget: { kind: 'free_text', props: { prompt: 'Explain translation in your words.', maxLength: 1000 } } },
        ]);
        expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
          { type: 'widget', toolCallId: id('code'), widget: { kind: 'code_editor', props: { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' } } },
        ]);
      });

      it("passes on every valid tool call of a reply: which one applies (the first) is the engine's rule", async () => {
        under.fake.enqueue(
          'tutor',
          replies.toolCalls('Two at once.', [
            { id: id('first'), name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } },
            { id: id('second'), name: 'exit_rabbit_hole', input: {} },
          ]),
        );
        const events = await collect(makeProvider().reply(tutorInput(), live()));
        expect(events.filter((event) => event.type !== 'text_delta')).toEqual([
          { type: 'widget', toolCallId: id('first'), widget: { kind: 'multiple_choice', props: { prompt: 'Which?', options: ['a', 'b'] } } },
          { type: 'mode', toolCallId: id('second'), change: { mode: 'recall' } },
        ]);
        expect(under.warnings).toEqual([]);
      });

      it('drops an invalid widget (logged) but keeps the text', async () => {
        under.fake.enqueue('tutor', replies.toolCall('present_choices', { prompt: 'Pick', options: ['only one'] }, { text: 'Choose below.', id: id('bad') }));
        const events = await collect(makeProvider().reply(tutorInput(), live()));
        expect(events.every((event) => event.type === 'text_delta')).toBe(true);
        expect(textOf(events)).toBe('Choose below.');
        expect(under.warnings).toEqual([{ object: expect.objectContaining({ tool: 'present_choices', toolCallId: id('bad') }), message: 'tutor tool call rejected; widget skipped' }]);
      });

      it('sends a fallback line instead of an empty bubble when the model produced nothing to show', async () => {
        under.fake.enqueue('tutor', replies.emptyRefusal());
        under.fake.enqueue('tutor', replies.toolCall('present_choices', { prompt: 'Pick', options: ['only one'] }));
        const provider = makeProvider();
        expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
        expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
        expect(under.warnings.map((warning) => warning.message)).toEqual([
          'tutor reply was empty; sent the fallback line',
          'tutor tool call rejected; widget skipped',
          'tutor reply was empty; sent the fallback line',
        ]);
      });

      it('rebuilds a conversation with tool calls: results after their call, a pending widget answered synthetically, tutor-first fixed', async () => {
        const choices = { prompt: 'Which builds proteins?', options: ['Ribosome', 'Golgi'] };
        const explain = { prompt: 'Explain', maxLength: 500 };
        const conversation: ConversationMessage[] = [
          { role: 'tutor', content: 'Welcome! What powers a cell?' },
          { role: 'learner', content: 'Mitochondria make ATP.' },
          { role: 'tutor', content: 'Great. Which of these builds proteins?', toolCall: { id: id('a'), name: 'present_choices', input: choices } },
          { role: 'tool_result', toolCallId: id('a'), content: 'Ribosome' },
          { role: 'tutor', content: 'Right! Now explain how.', toolCall: { id: id('b'), name: 'request_free_text', input: explain } },
          { role: 'learner', content: 'Can I just tell you here instead?' },
        ];
        await collect(makeProvider().reply(tutorInput({ conversation }), live()));
        const sent = under.fake.requestsFor('tutor');
        expect(sent).toHaveLength(1);
        const synthetic = { toolCallId: id('b'), content: 'The learner has not answered yet; they wrote a chat message instead.' };
        const chat = 'Can I just tell you here instead?';
        expect(wire.conversation(sent[0]!)).toEqual([
          { role: 'user', text: '(The learner opened the session.)' },
          { role: 'assistant', text: 'Welcome! What powers a cell?' },
          { role: 'user', text: 'Mitochondria make ATP.' },
          { role: 'assistant', text: 'Great. Which of these builds proteins?', toolCalls: [{ id: id('a'), name: 'present_choices', input: choices }] },
          { role: 'user', toolResults: [{ toolCallId: id('a'), content: 'Ribosome' }] },
          { role: 'assistant', text: 'Right! Now explain how.', toolCalls: [{ id: id('b'), name: 'request_free_text', input: explain }] },
          ...(wire.toolResultsJoinText
            ? [{ role: 'user', text: chat, toolResults: [synthetic] }]
            : [
                { role: 'user', toolResults: [synthetic] },
                { role: 'user', text: chat },
              ]),
        ]);
      });

      it('opens a session with the opener as the only user message', async () => {
        await collect(makeProvider().reply(tutorInput({ trigger: 'session_start', conversation: [], justRecalled: [], feedback: '', probeAttempts: 0, turn: 0 }), live()));
        const sent = under.fake.requestsFor('tutor');
        expect(sent).toHaveLength(1);
        expect(wire.conversation(sent[0]!)).toEqual([{ role: 'user', text: '(The learner opened the session.)' }]);
        expect(wire.systemText(sent[0]!)).toContain('greet the learner');
        expect(wire.systemText(sent[0]!)).not.toContain('Note for this turn only');
      });

      it('rejects when the tutor is unavailable (the engine shows an error event)', async () => {
        const { reply, error } = wire.transientFailure;
        under.fake.enqueue('tutor', reply(), reply(), reply());
        await expect(collect(makeProvider().reply(tutorInput(), live()))).rejects.toMatchObject({ ...error, attempts: 3 });
      });
    });

    describe('checkSafety', () => {
      it('asks the evaluator model for a structured safety verdict and reports an unsafe one', async () => {
        under.fake.enqueue('safety', replies.safetyVerdict(false, 'threat of violence'));
        expect(await makeProvider().checkSafety('a worrying message', live())).toEqual({ safe: false, reason: 'threat of violence' });
        const sent = under.fake.requestsFor('safety');
        expect(sent).toHaveLength(1);
        expect(wire.params(sent[0]!)).toMatchObject({ model: wire.models.evaluator, maxTokens: 200, stream: undefined });
        expect(wire.structuredOutput(sent[0]!)).toEqual({
          name: 'safety_verdict',
          description: expect.any(String),
          schema: {
            type: 'object',
            properties: {
              safe: { type: 'boolean', description: 'false only for the unsafe categories in the instructions.' },
              reason: { type: 'string', description: 'A few words; empty when safe.' },
            },
            required: ['safe', 'reason'],
            additionalProperties: false,
          },
        });
        expect(wire.userPrompt(sent[0]!)).toContain('a worrying message');
      });

      it('reports a safe verdict as safe, and lets a failed check reject (the engine counts it as safe: failures-through-server.test.ts)', async () => {
        const provider = makeProvider();
        expect(await provider.checkSafety('What do ribosomes do?', live())).toEqual({ safe: true });
        under.fake.enqueue('safety', replies.badRequest());
        await expect(provider.checkSafety('What do ribosomes do?', live())).rejects.toMatchObject({ kind: 'request_rejected', status: 400 });
      });

      it('still rejects when the session is cancelled', async () => {
        const controller = new AbortController();
        controller.abort();
        await expect(makeProvider().checkSafety('hello', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
      });
    });
  });
}
