/**
 * SPEC §4.1, §4.2, §7 — the model provider as the `anthropic` TutorProvider, through the
 * resilient client, the Anthropic transport and the real SDK, against the fake Messages
 * API: what each call sends (asserted on the captured request bodies) and what comes back
 * to the engine (which then applies the turn's rules: normalising the evaluation, counting
 * a failed safety check as safe, keeping one tool call per reply).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/ports';
import { normalizeEvaluation } from '../../src/core/evaluation/parse-evaluation';
import type { ChecklistPoint, ConversationMessage, EvaluationInput, TutorEvent, TutorInput } from '../../src/core/provider';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { createModelProvider, emptyReplyFallback } from '../../src/llm/model-provider';
import { createAnthropicClient } from '../../src/llm/transports/anthropic';
import { fakeReplies, startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../helpers/fake-anthropic';

const models = { tutor: 'claude-sonnet-4-6', evaluator: 'claude-haiku-4-5' };

let fake: FakeAnthropic;
let records: LlmCallRecord[];
let warnings: Array<{ object: object; message: string | undefined }>;

const logger: Logger = {
  debug() {},
  info() {},
  warn: (object, message) => warnings.push({ object, message }),
  error() {},
};

beforeEach(async () => {
  fake = await startFakeAnthropic();
  records = [];
  warnings = [];
});
afterEach(async () => {
  await fake.close();
});

function makeProvider() {
  const client = createAnthropicClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    timeoutMs: 2000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 10,
    recordCall: (record) => records.push(record),
  });
  return createModelProvider({ name: 'anthropic', client, tutorModel: models.tutor, evaluatorModel: models.evaluator, logger });
}

const live = () => new AbortController().signal;

const points = {
  atp: { id: 'p-atp', content: 'Mitochondria produce ATP through oxidative phosphorylation', context: 'cell energy' },
  ribosome: { id: 'p-ribo', content: 'Ribosomes translate mRNA into proteins', context: null },
  nucleus: { id: 'p-nuc', content: 'The nucleus stores the genome', context: 'organelles' },
} satisfies Record<string, ChecklistPoint>;

const feedback = 'FEEDBACK-SENTINEL: recalled the ATP point precisely; ribosomes still open.';

function tutorInput(overrides: Partial<TutorInput> = {}): TutorInput {
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

async function collect(iterable: AsyncIterable<TutorEvent>): Promise<TutorEvent[]> {
  const events: TutorEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

function textOf(events: TutorEvent[]): string {
  return events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
}

function only(requests: RecordedRequest[]): RecordedRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

function userText(request: RecordedRequest): string {
  const message = request.body.messages[0]!;
  expect(message.role).toBe('user');
  expect(typeof message.content).toBe('string');
  return message.content as string;
}

// ---------------------------------------------------------------------------
// evaluate
// ---------------------------------------------------------------------------

describe('evaluate (SPEC §4.1)', () => {
  const fourteen: ConversationMessage[] = Array.from({ length: 14 }, (_, index) => {
    const label = `turn-${String(index + 1).padStart(2, '0')}`;
    return index % 2 === 0 ? { role: 'tutor' as const, content: `${label} What else do you remember?` } : { role: 'learner' as const, content: `${label} something about cells` };
  });
  const input: EvaluationInput = {
    points: [points.ribosome, points.nucleus],
    recentMessages: [...fourteen, { role: 'learner', content: 'turn-15 Ribosomes read mRNA and build proteins from it.' }],
    mode: 'recall',
  };
  /** What the engine normalises against: the unchecked points on offer. */
  const offered = new Set(input.points.map((point) => point.id));

  it('sends only the unchecked points and at most 10 messages to the evaluator model, forced tool, 0.3, 1024, not streamed', async () => {
    await makeProvider().evaluate(input, live());
    const sent = only(fake.requestsFor('evaluator'));
    expect(sent.body.model).toBe(models.evaluator);
    expect(sent.body.temperature).toBe(0.3);
    expect(sent.body.max_tokens).toBe(1024);
    expect(sent.body.stream).toBeUndefined();
    expect(sent.body.tool_choice).toEqual({ type: 'tool', name: 'record_evaluation' });
    expect(sent.body.tools).toEqual([
      {
        name: 'record_evaluation',
        description: expect.any(String),
        input_schema: {
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
      },
    ]);
    expect(sent.body.messages).toHaveLength(1);
    const text = userText(sent);
    const pointsBlock = /<points_not_yet_recalled>\n([\s\S]*?)\n<\/points_not_yet_recalled>/.exec(text)![1]!;
    expect(pointsBlock.split('\n')).toEqual([
      '- [p-ribo] Ribosomes translate mRNA into proteins',
      '- [p-nuc] The nucleus stores the genome (context: organelles)',
    ]);
    expect(JSON.stringify(sent.body)).not.toContain('p-atp');
    const transcript = /<transcript>\n([\s\S]*?)\n<\/transcript>/.exec(text)![1]!.split('\n');
    expect(transcript).toHaveLength(10);
    expect(transcript[0]).toBe('[1] Learner: turn-06 something about cells');
    expect(transcript[9]).toBe('[10] Learner (latest): turn-15 Ribosomes read mRNA and build proteins from it.');
    expect(text).not.toContain('turn-05');
  });

  it('returns the tool input as the model gave it, which the engine cleans: unknown ids dropped, confidence clamped, duplicates removed', async () => {
    const answer = {
      recalledPoints: [
        { id: 'p-ribo', confidence: 1.4, observation: 'Said ribosomes build proteins from mRNA.' },
        { id: 'p-atp', confidence: 0.9, observation: 'Already recalled, not on offer.' },
        { id: 'p-ribo', confidence: 0.2, observation: 'Duplicate.' },
      ],
      feedback: 'Ribosomes recalled accurately. The nucleus remains.',
    };
    fake.enqueue('evaluator', fakeReplies.evaluation(answer));
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
    const [recall, rabbithole] = fake.requestsFor('evaluator').map((request) => request.body.system!.map((block) => block.text).join('\n'));
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
    fake.enqueue('evaluator', fakeReplies.toolUse('record_evaluation', answer));
    const raw = await makeProvider().evaluate({ ...input, recentMessages: [{ role: 'learner', content: 'is it the ribosome?' }] }, live());
    expect(raw).toEqual(answer);
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: answer.feedback, messageKind: 'question' });
    const [system] = fake.requestsFor('evaluator').map((request) => request.body.system!.map((block) => block.text).join('\n'));
    expect(system).toContain('A question is not an answer');
    expect(system).toContain('"why was France broke?"');
    // A guess put as a question is a hedged attempt, graded (issue 28).
    expect(system).toContain('a guess put as a question ("is it the mitochondria?"');
  });

  it('passes a tool call with garbage input on, which the engine turns into the empty result', async () => {
    fake.enqueue('evaluator', fakeReplies.garbageEvaluation());
    const raw = await makeProvider().evaluate(input, live());
    expect(raw).toEqual({ recalledPoints: 'all of them!', feedback: 42, extra: true });
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: '' });
  });

  it('passes the text on when the model answers with fenced JSON instead of the tool, and the engine reads it', async () => {
    fake.enqueue('evaluator', fakeReplies.fencedEvaluationText({ recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }], feedback: 'Nucleus recalled.' }));
    const raw = await makeProvider().evaluate(input, live());
    expect(raw).toEqual(expect.stringContaining('```json'));
    expect(normalizeEvaluation(raw, offered)).toEqual({
      recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }],
      feedback: 'Nucleus recalled.',
    });
    expect(warnings.map((warning) => warning.message)).toContain('evaluator answered with text instead of the tool');
  });

  it('survives an overloaded evaluator through retries', async () => {
    fake.enqueue('evaluator', fakeReplies.overloaded(), fakeReplies.evaluation({ recalledPoints: [{ id: 'p-nuc', confidence: 0.8, observation: 'ok' }], feedback: 'Nucleus.' }));
    expect(normalizeEvaluation(await makeProvider().evaluate(input, live()), offered).recalledPoints.map((point) => point.id)).toEqual(['p-nuc']);
    expect(fake.requestsFor('evaluator')).toHaveLength(2);
  });

  it('rejects when every attempt fails (the engine turns that into an empty result)', async () => {
    fake.enqueue('evaluator', fakeReplies.serverError(), fakeReplies.serverError(), fakeReplies.serverError());
    await expect(makeProvider().evaluate(input, live())).rejects.toMatchObject({ kind: 'server_error', attempts: 3 });
  });

  it('makes no call when nothing is unchecked', async () => {
    expect(await makeProvider().evaluate({ ...input, points: [] }, live())).toEqual({ recalledPoints: [], feedback: '' });
    expect(fake.requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------
// reply
// ---------------------------------------------------------------------------

describe('reply (SPEC §4.1 feedback injection, §4.2 widgets)', () => {
  it('streams the tutor model with the stable instructions cached and the feedback after the breakpoint, never in messages', async () => {
    fake.enqueue('tutor', fakeReplies.text('Nice work on energy! Now, what reads the mRNA?'));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Nice work on energy! Now, what reads the mRNA?');
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);

    const sent = only(fake.requestsFor('tutor'));
    expect(sent.body.stream).toBe(true);
    expect(sent.body.model).toBe(models.tutor);
    const system = sent.body.system!;
    expect(system).toHaveLength(2);
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(system[1]!.cache_control).toBeUndefined();
    expect(system[0]!.text).not.toContain('FEEDBACK-SENTINEL');
    expect(system[0]!.text).not.toContain(points.ribosome.content);
    expect(system[0]!.text).not.toContain('Cell biology');
    expect(system[1]!.text).toContain(`Note for this turn only, not visible to the learner (a silent check of their latest message): ${feedback}`);
    expect(system[1]!.text).toContain(points.ribosome.content);
    expect(system[1]!.text).toContain('1 of 3 ideas recalled');
    expect(system[1]!.text).toContain('Unsuccessful attempts on this idea so far: 1.');
    expect(JSON.stringify(sent.body.messages)).not.toContain('FEEDBACK-SENTINEL');
    expect(sent.body.tools!.map((tool) => tool.name)).toEqual(['present_choices', 'request_free_text', 'present_code_editor', 'enter_rabbit_hole', 'exit_rabbit_hole']);
    expect(sent.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('sends the tutor tools with input schemas generated from the shared widget schemas, exactly as before they were generated', async () => {
    await collect(makeProvider().reply(tutorInput(), live()));
    const sent = only(fake.requestsFor('tutor'));
    expect(sent.body.tools).toEqual([
      {
        name: 'present_choices',
        description: expect.stringContaining('multiple-choice question'),
        input_schema: {
          type: 'object',
          properties: {
            prompt: { type: 'string', description: 'The question.' },
            options: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 6, description: '2–6 answer options, in the order to show them.' },
            context: { type: 'string', description: 'Optional short line of context shown above the question.' },
          },
          required: ['prompt', 'options'],
          additionalProperties: false,
        },
      },
      {
        name: 'request_free_text',
        description: expect.stringContaining('text box'),
        input_schema: {
          type: 'object',
          properties: {
            prompt: { type: 'string', description: 'What to write about.' },
            placeholder: { type: 'string', description: 'Optional placeholder text for the box.' },
            context: { type: 'string', description: 'Optional short line of context shown above the box.' },
            maxLength: { type: 'integer', minimum: 1, maximum: 4000, description: 'Longest answer in characters (default 1000).' },
          },
          required: ['prompt'],
          additionalProperties: false,
        },
      },
      {
        name: 'present_code_editor',
        description: expect.stringContaining('code in an editor'),
        input_schema: {
          type: 'object',
          properties: {
            prompt: { type: 'string', description: 'The task.' },
            language: { type: 'string', enum: ['python', 'javascript'] },
            starterCode: { type: 'string', description: 'Optional code to start from (never the solution).' },
          },
          required: ['prompt', 'language'],
          additionalProperties: false,
        },
      },
      {
        name: 'enter_rabbit_hole',
        description: expect.stringContaining('tangent'),
        input_schema: {
          type: 'object',
          properties: { topic: { type: 'string', description: 'The tangent in a few words, as the learner put it.' } },
          required: ['topic'],
          additionalProperties: false,
        },
      },
      {
        name: 'exit_rabbit_hole',
        description: expect.stringContaining('return to the review'),
        input_schema: { type: 'object', properties: {}, additionalProperties: false },
      },
    ]);
    const safety = await makeProvider().checkSafety('hello', live()).then(() => only(fake.requestsFor('safety')));
    expect(safety.body.tools).toEqual([
      {
        name: 'safety_verdict',
        description: expect.any(String),
        input_schema: {
          type: 'object',
          properties: {
            safe: { type: 'boolean', description: 'false only for the unsafe categories in the instructions.' },
            reason: { type: 'string', description: 'A few words; empty when safe.' },
          },
          required: ['safe', 'reason'],
          additionalProperties: false,
        },
      },
    ]);
  });

  it('keeps the cached prefix (tools + first system block) byte-identical across sessions and turns', async () => {
    const provider = makeProvider();
    await collect(provider.reply(tutorInput(), live()));
    await collect(
      provider.reply(
        tutorInput({ title: 'Roman history', probePoint: points.nucleus, feedback: 'Something else entirely.', mode: 'rabbithole', rabbitholeTopic: 'aqueducts', turn: 7 }),
        live(),
      ),
    );
    const [first, second] = fake.requestsFor('tutor');
    expect(JSON.stringify(second!.body.tools)).toBe(JSON.stringify(first!.body.tools));
    expect(second!.body.system![0]).toEqual(first!.body.system![0]);
    expect(second!.body.system![1]!.text).not.toBe(first!.body.system![1]!.text);
    expect(second!.body.system![1]!.text).toContain('rabbit hole');
    expect(second!.body.system![1]!.text).toContain('“aqueducts”');
  });

  it('turns a present_choices tool call streamed as input_json_delta into a validated widget event', async () => {
    fake.enqueue(
      'tutor',
      fakeReplies.toolUse(
        'present_choices',
        { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis', stray: 'dropped' },
        { text: 'Let’s try a quick one.', id: 'toolu_choice', chunkSize: 7 },
      ),
    );
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Let’s try a quick one.');
    expect(events.at(-1)).toEqual({
      type: 'widget',
      toolCallId: 'toolu_choice',
      widget: {
        kind: 'multiple_choice',
        props: { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis' },
      },
    });
  });

  it('gives a free-text widget the default maxLength of 1000, and passes a code editor through', async () => {
    fake.enqueue('tutor', fakeReplies.toolUse('request_free_text', { prompt: 'Explain translation in your words.' }, { id: 'toolu_text' }));
    fake.enqueue('tutor', fakeReplies.toolUse('present_code_editor', { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' }, { id: 'toolu_code' }));
    const provider = makeProvider();
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
      { type: 'widget', toolCallId: 'toolu_text', widget: { kind: 'free_text', props: { prompt: 'Explain translation in your words.', maxLength: 1000 } } },
    ]);
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
      { type: 'widget', toolCallId: 'toolu_code', widget: { kind: 'code_editor', props: { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' } } },
    ]);
  });

  it('passes on every valid tool call of a reply: which one applies (the first) is the engine\'s rule', async () => {
    fake.enqueue('tutor', {
      kind: 'message',
      content: [
        { type: 'text', text: 'Two at once.' },
        { type: 'tool_use', id: 'toolu_first', name: 'present_choices', input: { prompt: 'Which?', options: ['a', 'b'] } },
        { type: 'tool_use', id: 'toolu_second', name: 'exit_rabbit_hole', input: {} },
      ],
      stopReason: 'tool_use',
    });
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(events.filter((event) => event.type !== 'text_delta')).toEqual([
      { type: 'widget', toolCallId: 'toolu_first', widget: { kind: 'multiple_choice', props: { prompt: 'Which?', options: ['a', 'b'] } } },
      { type: 'mode', toolCallId: 'toolu_second', change: { mode: 'recall' } },
    ]);
    expect(warnings).toEqual([]);
  });

  it('drops an invalid widget (logged) but keeps the text', async () => {
    fake.enqueue('tutor', fakeReplies.toolUse('present_choices', { prompt: 'Pick', options: ['only one'] }, { text: 'Choose below.', id: 'toolu_bad' }));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);
    expect(textOf(events)).toBe('Choose below.');
    expect(warnings).toEqual([{ object: expect.objectContaining({ tool: 'present_choices', toolCallId: 'toolu_bad' }), message: 'tutor tool call rejected; widget skipped' }]);
  });

  it('sends a fallback line instead of an empty bubble when the model produced nothing to show', async () => {
    fake.enqueue('tutor', { ...fakeReplies.text(''), stopReason: 'refusal' });
    fake.enqueue('tutor', fakeReplies.toolUse('present_choices', { prompt: 'Pick', options: ['only one'] }));
    const provider = makeProvider();
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'tutor reply was empty; sent the fallback line',
      'tutor tool call rejected; widget skipped',
      'tutor reply was empty; sent the fallback line',
    ]);
  });

  it('rebuilds a conversation with tool calls: results paired, a pending widget answered synthetically, tutor-first fixed', async () => {
    const conversation: ConversationMessage[] = [
      { role: 'tutor', content: 'Welcome! What powers a cell?' },
      { role: 'learner', content: 'Mitochondria make ATP.' },
      { role: 'tutor', content: 'Great. Which of these builds proteins?', toolCall: { id: 'toolu_a', name: 'present_choices', input: { prompt: 'Which builds proteins?', options: ['Ribosome', 'Golgi'] } } },
      { role: 'tool_result', toolCallId: 'toolu_a', content: 'Ribosome' },
      { role: 'tutor', content: 'Right! Now explain how.', toolCall: { id: 'toolu_b', name: 'request_free_text', input: { prompt: 'Explain', maxLength: 500 } } },
      { role: 'learner', content: 'Can I just tell you here instead?' },
    ];
    await collect(makeProvider().reply(tutorInput({ conversation }), live()));
    expect(only(fake.requestsFor('tutor')).body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(The learner opened the session.)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Welcome! What powers a cell?' }] },
      { role: 'user', content: [{ type: 'text', text: 'Mitochondria make ATP.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Great. Which of these builds proteins?' },
          { type: 'tool_use', id: 'toolu_a', name: 'present_choices', input: { prompt: 'Which builds proteins?', options: ['Ribosome', 'Golgi'] } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'Ribosome' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Right! Now explain how.' },
          { type: 'tool_use', id: 'toolu_b', name: 'request_free_text', input: { prompt: 'Explain', maxLength: 500 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'The learner has not answered yet; they wrote a chat message instead.' },
          { type: 'text', text: 'Can I just tell you here instead?' },
        ],
      },
    ]);
  });

  it('opens a session with the opener as the only user message', async () => {
    await collect(makeProvider().reply(tutorInput({ trigger: 'session_start', conversation: [], justRecalled: [], feedback: '', probeAttempts: 0, turn: 0 }), live()));
    const sent = only(fake.requestsFor('tutor'));
    expect(sent.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '(The learner opened the session.)' }] }]);
    expect(sent.body.system![1]!.text).toContain('greet the learner');
    expect(sent.body.system![1]!.text).not.toContain('Note for this turn only');
  });

  it('rejects when the tutor is unavailable (the engine shows an error event)', async () => {
    fake.enqueue('tutor', fakeReplies.overloaded(), fakeReplies.overloaded(), fakeReplies.overloaded());
    await expect(collect(makeProvider().reply(tutorInput(), live()))).rejects.toMatchObject({ kind: 'overloaded', attempts: 3 });
  });
});

// ---------------------------------------------------------------------------
// checkSafety
// ---------------------------------------------------------------------------

describe('checkSafety', () => {
  it('asks the fast model with a forced safety_verdict call and reports an unsafe verdict', async () => {
    fake.enqueue('safety', fakeReplies.safetyVerdict(false, 'threat of violence'));
    expect(await makeProvider().checkSafety('a worrying message', live())).toEqual({ safe: false, reason: 'threat of violence' });
    const sent = only(fake.requestsFor('safety'));
    expect(sent.body.model).toBe(models.evaluator);
    expect(sent.body.stream).toBeUndefined();
    expect(sent.body.max_tokens).toBe(200);
    expect(sent.body.tool_choice).toEqual({ type: 'tool', name: 'safety_verdict' });
    expect(sent.body.tools!.map((tool) => [tool.name, Object.keys(tool.input_schema['properties'] as object)])).toEqual([['safety_verdict', ['safe', 'reason']]]);
    expect(userText(sent)).toContain('a worrying message');
  });

  it('reports a safe verdict as safe, and lets a failed check reject (the engine counts it as safe: failures-through-server.test.ts)', async () => {
    const provider = makeProvider();
    expect(await provider.checkSafety('What do ribosomes do?', live())).toEqual({ safe: true });
    fake.enqueue('safety', fakeReplies.badRequest());
    await expect(provider.checkSafety('What do ribosomes do?', live())).rejects.toMatchObject({ kind: 'request_rejected', status: 400 });
  });

  it('still rejects when the session is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(makeProvider().checkSafety('hello', controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

// ---------------------------------------------------------------------------
// llm_calls records
// ---------------------------------------------------------------------------

describe('recordCall through the provider (SPEC §7)', () => {
  it('records each call with its purpose, model, tokens (cache reads and writes) and outcome', async () => {
    fake.enqueue('safety', fakeReplies.safetyVerdict(true, ''));
    fake.enqueue('evaluator', fakeReplies.rateLimited(0), fakeReplies.evaluation({ recalledPoints: [], feedback: 'Nothing yet.' }, { usage: { input_tokens: 310, output_tokens: 41 } }));
    fake.enqueue('tutor', fakeReplies.text('Keep going!', { usage: { input_tokens: 25, output_tokens: 12, cache_read_input_tokens: 1800, cache_creation_input_tokens: 0 } }));
    fake.enqueue('tutor', fakeReplies.text('First turn of a new prefix.', { usage: { input_tokens: 25, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 1800 } }));
    const provider = makeProvider();
    await provider.checkSafety('hi', live());
    await provider.evaluate({ points: [points.nucleus], recentMessages: [{ role: 'learner', content: 'hi' }], mode: 'recall' }, live());
    await collect(provider.reply(tutorInput(), live()));
    await collect(provider.reply(tutorInput(), live()));
    expect(records.map(({ purpose, model, streamed, outcome, status, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, attempt }) => ({ purpose, model, streamed, outcome, status, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, attempt }))).toEqual([
      { purpose: 'safety', model: models.evaluator, streamed: false, outcome: 'ok', status: null, inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, attempt: 1 },
      { purpose: 'evaluator', model: models.evaluator, streamed: false, outcome: 'error', status: 429, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, attempt: 1 },
      { purpose: 'evaluator', model: models.evaluator, streamed: false, outcome: 'ok', status: null, inputTokens: 310, outputTokens: 41, cacheReadTokens: 0, cacheWriteTokens: 0, attempt: 2 },
      { purpose: 'tutor', model: models.tutor, streamed: true, outcome: 'ok', status: null, inputTokens: 25, outputTokens: 12, cacheReadTokens: 1800, cacheWriteTokens: 0, attempt: 1 },
      { purpose: 'tutor', model: models.tutor, streamed: true, outcome: 'ok', status: null, inputTokens: 25, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 1800, attempt: 1 },
    ]);
    expect(records.every((record) => record.provider === 'anthropic' && record.latencyMs >= 0 && record.sessionId === null)).toBe(true);
  });
});
