/**
 * SPEC §4.1, §4.2, §7 — the model provider as the `openai` TutorProvider, through the
 * resilient client, the OpenAI transport and the real `openai` SDK, against the fake Chat
 * Completions API: what each call sends (asserted on the captured request bodies) and what
 * comes back to the engine. The counterpart of anthropic/model-provider.test.ts: the same
 * provider code, so the same behaviour, with the Chat Completions wire format.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeEvaluation } from '../../src/core/evaluation/parse-evaluation';
import type { Logger } from '../../src/core/ports';
import type { ChecklistPoint, ConversationMessage, EvaluationInput, TutorEvent, TutorInput } from '../../src/core/provider';
import type { LlmCallRecord } from '../../src/llm/llm-client';
import { createModelProvider, emptyReplyFallback } from '../../src/llm/model-provider';
import { tutorInstructions } from '../../src/llm/tutor-request';
import { modeTools, tutorTools } from '../../src/llm/tutor-tools';
import { createOpenAiClient } from '../../src/llm/transports/openai';
import { openAiReplies, startFakeOpenAi, type FakeOpenAi, type RecordedOpenAiRequest } from '../helpers/fake-openai';

const models = { tutor: 'gpt-4.1', evaluator: 'gpt-4.1-mini', safety: 'gpt-4.1-nano' };

let fake: FakeOpenAi;
let records: LlmCallRecord[];
let warnings: Array<{ object: object; message: string | undefined }>;

const logger: Logger = {
  debug() {},
  info() {},
  warn: (object, message) => warnings.push({ object, message }),
  error() {},
};

beforeEach(async () => {
  fake = await startFakeOpenAi();
  records = [];
  warnings = [];
});
afterEach(async () => {
  await fake.close();
});

function makeProvider(options: { safetyModel?: string } = {}) {
  const client = createOpenAiClient({
    apiKey: 'test-key',
    baseURL: fake.url,
    timeoutMs: 2000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 10,
    recordCall: (record) => records.push(record),
  });
  return createModelProvider({ name: 'openai', client, tutorModel: models.tutor, evaluatorModel: models.evaluator, logger, ...options });
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

function only(requests: RecordedOpenAiRequest[]): RecordedOpenAiRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

/** The one system message (instructions, then the per-turn context). */
function systemOf(request: RecordedOpenAiRequest): string {
  const system = request.body.messages.filter((message) => message.role === 'system');
  expect(system).toHaveLength(1);
  expect(request.body.messages[0]!.role).toBe('system');
  return system[0]!.content as string;
}

/** Everything but the system message. */
function conversationOf(request: RecordedOpenAiRequest) {
  return request.body.messages.filter((message) => message.role !== 'system');
}

function userText(request: RecordedOpenAiRequest): string {
  const [message, ...rest] = conversationOf(request);
  expect(rest).toHaveLength(0);
  expect(message!.role).toBe('user');
  return message!.content as string;
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
  const offered = new Set(input.points.map((point) => point.id));

  it('sends only the unchecked points and at most 10 messages to the evaluator model, strict JSON schema, 0.3, 1024, not streamed', async () => {
    await makeProvider().evaluate(input, live());
    const sent = only(fake.requestsFor('evaluator'));
    expect(sent.body.model).toBe(models.evaluator);
    expect(sent.body.temperature).toBe(0.3);
    expect(sent.body.max_tokens).toBe(1024);
    expect(sent.body.stream).toBeUndefined();
    expect(sent.body.tools).toBeUndefined();
    expect(sent.body.tool_choice).toBeUndefined();
    expect(sent.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'record_evaluation',
        description: expect.any(String),
        strict: true,
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
      },
    });
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

  it('returns the structured answer as the model gave it, which the engine cleans: unknown ids dropped, confidence clamped, duplicates removed', async () => {
    const answer = {
      recalledPoints: [
        { id: 'p-ribo', confidence: 1.4, observation: 'Said ribosomes build proteins from mRNA.' },
        { id: 'p-atp', confidence: 0.9, observation: 'Already recalled, not on offer.' },
        { id: 'p-ribo', confidence: 0.2, observation: 'Duplicate.' },
      ],
      feedback: 'Ribosomes recalled accurately. The nucleus remains.',
    };
    fake.enqueue('evaluator', openAiReplies.evaluation(answer));
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
    const [recall, rabbithole] = fake.requestsFor('evaluator').map(systemOf);
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
    fake.enqueue('evaluator', openAiReplies.structured(answer));
    const raw = await makeProvider().evaluate({ ...input, recentMessages: [{ role: 'learner', content: 'is it the ribosome?' }] }, live());
    expect(raw).toEqual(answer);
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: answer.feedback, messageKind: 'question' });
    const [system] = fake.requestsFor('evaluator').map(systemOf);
    expect(system).toContain('A question is not an answer');
    expect(system).toContain('"why was France broke?"');
    // A guess put as a question is a hedged attempt, graded (issue 28).
    expect(system).toContain('a guess put as a question ("is it the mitochondria?"');
  });

  it('passes an answer with garbage fields on, which the engine turns into the empty result', async () => {
    fake.enqueue('evaluator', openAiReplies.garbageEvaluation());
    const raw = await makeProvider().evaluate(input, live());
    expect(raw).toEqual({ recalledPoints: 'all of them!', feedback: 42, extra: true });
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: '' });
  });

  it('passes the text on when the model answers with fenced JSON instead, and the engine reads it', async () => {
    fake.enqueue('evaluator', openAiReplies.fencedEvaluationText({ recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }], feedback: 'Nucleus recalled.' }));
    const raw = await makeProvider().evaluate(input, live());
    expect(raw).toEqual(expect.stringContaining('```json'));
    expect(normalizeEvaluation(raw, offered)).toEqual({
      recalledPoints: [{ id: 'p-nuc', confidence: 0.7, observation: 'Named the genome store.' }],
      feedback: 'Nucleus recalled.',
    });
    expect(warnings.map((warning) => warning.message)).toContain('evaluator answered with text instead of the tool');
  });

  it('passes malformed JSON on as text, which the engine turns into the empty result', async () => {
    fake.enqueue('evaluator', openAiReplies.malformedEvaluation());
    const raw = await makeProvider().evaluate(input, live());
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: '' });
  });

  it('survives an overloaded evaluator through retries', async () => {
    fake.enqueue('evaluator', openAiReplies.unavailable(), openAiReplies.evaluation({ recalledPoints: [{ id: 'p-nuc', confidence: 0.8, observation: 'ok' }], feedback: 'Nucleus.' }));
    expect(normalizeEvaluation(await makeProvider().evaluate(input, live()), offered).recalledPoints.map((point) => point.id)).toEqual(['p-nuc']);
    expect(fake.requestsFor('evaluator')).toHaveLength(2);
  });

  it('rejects when every attempt fails (the engine turns that into an empty result)', async () => {
    fake.enqueue('evaluator', openAiReplies.serverError(), openAiReplies.serverError(), openAiReplies.serverError());
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
  it('streams the tutor model with the stable instructions first and the feedback in the system note, never in messages', async () => {
    fake.enqueue('tutor', openAiReplies.text('Nice work on energy! Now, what reads the mRNA?'));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Nice work on energy! Now, what reads the mRNA?');
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);

    const sent = only(fake.requestsFor('tutor'));
    expect(sent.body.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.body.model).toBe(models.tutor);
    expect(sent.body.temperature).toBe(0.7);
    expect(sent.body.max_tokens).toBe(1024);
    const system = systemOf(sent);
    // The stable instructions open the prompt (the prefix OpenAI caches), the per-turn context follows.
    expect(system.startsWith(`${tutorInstructions}\n\n`)).toBe(true);
    const context = system.slice(tutorInstructions.length);
    expect(tutorInstructions).not.toContain('FEEDBACK-SENTINEL');
    expect(context).toContain(`Note for this turn only, not visible to the learner (a silent check of their latest message): ${feedback}`);
    expect(context).toContain(points.ribosome.content);
    expect(context).toContain('1 of 3 ideas recalled');
    expect(context).toContain('Unsuccessful attempts on this idea so far: 1.');
    expect(JSON.stringify(conversationOf(sent))).not.toContain('FEEDBACK-SENTINEL');
    expect(sent.body.tools!.map((tool) => tool.function.name)).toEqual(['present_choices', 'request_free_text', 'present_code_editor', 'enter_rabbit_hole', 'exit_rabbit_hole']);
    expect(sent.body.tool_choice).toBe('auto');
    expect(sent.body.parallel_tool_calls).toBe(false);
  });

  it('sends the tutor tools as functions with the schemas generated from the shared widget schemas, strict where the schema allows', async () => {
    await collect(makeProvider().reply(tutorInput(), live()));
    const sent = only(fake.requestsFor('tutor'));
    expect(sent.body.tools).toEqual(
      [...tutorTools, ...modeTools].map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          description: tool.description,
          parameters: tool.inputSchema,
          // Widgets have optional fields (strict mode would make them required); mode tools do not.
          ...(tool.name.endsWith('rabbit_hole') ? { strict: true } : {}),
        },
      })),
    );
    expect(sent.body.tools![0]!.function.parameters).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The question.' },
        options: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 6, description: '2–6 answer options, in the order to show them.' },
        context: { type: 'string', description: 'Optional short line of context shown above the question.' },
      },
      required: ['prompt', 'options'],
      additionalProperties: false,
    });
    const safety = await makeProvider().checkSafety('hello', live()).then(() => only(fake.requestsFor('safety')));
    expect(safety.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'safety_verdict',
        description: expect.any(String),
        strict: true,
        schema: {
          type: 'object',
          properties: {
            safe: { type: 'boolean', description: 'false only for the unsafe categories in the instructions.' },
            reason: { type: 'string', description: 'A few words; empty when safe.' },
          },
          required: ['safe', 'reason'],
          additionalProperties: false,
        },
      },
    });
  });

  it('keeps the cacheable prefix (tools + the instructions) byte-identical across sessions and turns', async () => {
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
    expect(systemOf(second!).startsWith(tutorInstructions)).toBe(true);
    expect(systemOf(second!)).not.toBe(systemOf(first!));
    expect(systemOf(second!)).toContain('rabbit hole');
    expect(systemOf(second!)).toContain('“aqueducts”');
  });

  it('turns a present_choices tool call streamed in pieces into a validated widget event', async () => {
    fake.enqueue(
      'tutor',
      openAiReplies.toolCall(
        'present_choices',
        { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis', stray: 'dropped' },
        { text: 'Let’s try a quick one.', id: 'call_choice', chunkSize: 7 },
      ),
    );
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Let’s try a quick one.');
    expect(events.at(-1)).toEqual({
      type: 'widget',
      toolCallId: 'call_choice',
      widget: {
        kind: 'multiple_choice',
        props: { prompt: 'Which organelle translates mRNA?', options: ['Ribosome', 'Golgi apparatus', 'Lysosome'], context: 'Protein synthesis' },
      },
    });
  });

  it('gives a free-text widget the default maxLength of 1000, and passes a code editor through', async () => {
    fake.enqueue('tutor', openAiReplies.toolCall('request_free_text', { prompt: 'Explain translation in your words.' }, { id: 'call_text' }));
    fake.enqueue('tutor', openAiReplies.toolCall('present_code_editor', { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' }, { id: 'call_code' }));
    const provider = makeProvider();
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
      { type: 'widget', toolCallId: 'call_text', widget: { kind: 'free_text', props: { prompt: 'Explain translation in your words.', maxLength: 1000 } } },
    ]);
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([
      { type: 'widget', toolCallId: 'call_code', widget: { kind: 'code_editor', props: { prompt: 'Sum a list.', language: 'python', starterCode: 'def total(xs):\n    ...' } } },
    ]);
  });

  it("passes on every valid tool call of a reply: which one applies (the first) is the engine's rule", async () => {
    fake.enqueue('tutor', {
      kind: 'message',
      content: 'Two at once.',
      toolCalls: [
        { id: 'call_first', name: 'present_choices', arguments: { prompt: 'Which?', options: ['a', 'b'] } },
        { id: 'call_second', name: 'exit_rabbit_hole', arguments: {} },
      ],
    });
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(events.filter((event) => event.type !== 'text_delta')).toEqual([
      { type: 'widget', toolCallId: 'call_first', widget: { kind: 'multiple_choice', props: { prompt: 'Which?', options: ['a', 'b'] } } },
      { type: 'mode', toolCallId: 'call_second', change: { mode: 'recall' } },
    ]);
    expect(warnings).toEqual([]);
  });

  it('drops an invalid widget (logged) but keeps the text', async () => {
    fake.enqueue('tutor', openAiReplies.toolCall('present_choices', { prompt: 'Pick', options: ['only one'] }, { text: 'Choose below.', id: 'call_bad' }));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);
    expect(textOf(events)).toBe('Choose below.');
    expect(warnings).toEqual([{ object: expect.objectContaining({ tool: 'present_choices', toolCallId: 'call_bad' }), message: 'tutor tool call rejected; widget skipped' }]);
  });

  it('sends a fallback line instead of an empty bubble when the model produced nothing to show', async () => {
    fake.enqueue('tutor', openAiReplies.text('', { finishReason: 'content_filter' }));
    fake.enqueue('tutor', openAiReplies.toolCall('present_choices', { prompt: 'Pick', options: ['only one'] }));
    const provider = makeProvider();
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
    expect(await collect(provider.reply(tutorInput(), live()))).toEqual([{ type: 'text_delta', text: emptyReplyFallback }]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'tutor reply was empty; sent the fallback line',
      'tutor tool call rejected; widget skipped',
      'tutor reply was empty; sent the fallback line',
    ]);
  });

  it('rebuilds a conversation with tool calls: results as tool messages after their call, a pending widget answered synthetically, tutor-first fixed', async () => {
    const conversation: ConversationMessage[] = [
      { role: 'tutor', content: 'Welcome! What powers a cell?' },
      { role: 'learner', content: 'Mitochondria make ATP.' },
      { role: 'tutor', content: 'Great. Which of these builds proteins?', toolCall: { id: 'call_a', name: 'present_choices', input: { prompt: 'Which builds proteins?', options: ['Ribosome', 'Golgi'] } } },
      { role: 'tool_result', toolCallId: 'call_a', content: 'Ribosome' },
      { role: 'tutor', content: 'Right! Now explain how.', toolCall: { id: 'call_b', name: 'request_free_text', input: { prompt: 'Explain', maxLength: 500 } } },
      { role: 'learner', content: 'Can I just tell you here instead?' },
    ];
    await collect(makeProvider().reply(tutorInput({ conversation }), live()));
    expect(conversationOf(only(fake.requestsFor('tutor')))).toEqual([
      { role: 'user', content: '(The learner opened the session.)' },
      { role: 'assistant', content: 'Welcome! What powers a cell?' },
      { role: 'user', content: 'Mitochondria make ATP.' },
      {
        role: 'assistant',
        content: 'Great. Which of these builds proteins?',
        tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'present_choices', arguments: '{"prompt":"Which builds proteins?","options":["Ribosome","Golgi"]}' } }],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Ribosome' },
      {
        role: 'assistant',
        content: 'Right! Now explain how.',
        tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'request_free_text', arguments: '{"prompt":"Explain","maxLength":500}' } }],
      },
      { role: 'tool', tool_call_id: 'call_b', content: 'The learner has not answered yet; they wrote a chat message instead.' },
      { role: 'user', content: 'Can I just tell you here instead?' },
    ]);
  });

  it('opens a session with the opener as the only user message', async () => {
    await collect(makeProvider().reply(tutorInput({ trigger: 'session_start', conversation: [], justRecalled: [], feedback: '', probeAttempts: 0, turn: 0 }), live()));
    const sent = only(fake.requestsFor('tutor'));
    expect(conversationOf(sent)).toEqual([{ role: 'user', content: '(The learner opened the session.)' }]);
    expect(systemOf(sent)).toContain('greet the learner');
    expect(systemOf(sent)).not.toContain('Note for this turn only');
  });

  it('rejects when the tutor is unavailable (the engine shows an error event)', async () => {
    fake.enqueue('tutor', openAiReplies.unavailable(), openAiReplies.unavailable(), openAiReplies.unavailable());
    await expect(collect(makeProvider().reply(tutorInput(), live()))).rejects.toMatchObject({ kind: 'server_error', status: 503, attempts: 3 });
  });
});

// ---------------------------------------------------------------------------
// checkSafety
// ---------------------------------------------------------------------------

describe('checkSafety', () => {
  it('asks the safety model for a strict structured verdict and reports an unsafe one', async () => {
    fake.enqueue('safety', openAiReplies.safetyVerdict(false, 'threat of violence'));
    expect(await makeProvider({ safetyModel: models.safety }).checkSafety('a worrying message', live())).toEqual({ safe: false, reason: 'threat of violence' });
    const sent = only(fake.requestsFor('safety'));
    expect(sent.body.model).toBe(models.safety);
    expect(sent.body.stream).toBeUndefined();
    expect(sent.body.max_tokens).toBe(200);
    expect(sent.body.temperature).toBe(0);
    expect(sent.body.response_format?.json_schema?.name).toBe('safety_verdict');
    expect(Object.keys(sent.body.response_format!.json_schema!.schema['properties'] as object)).toEqual(['safe', 'reason']);
    expect(userText(sent)).toContain('a worrying message');
  });

  it('uses the evaluator model when no safety model is given', async () => {
    await makeProvider().checkSafety('hello', live());
    expect(only(fake.requestsFor('safety')).body.model).toBe(models.evaluator);
  });

  it('reports a safe verdict as safe, and lets a failed check reject (the engine counts it as safe: failures-through-server.test.ts)', async () => {
    const provider = makeProvider();
    expect(await provider.checkSafety('What do ribosomes do?', live())).toEqual({ safe: true });
    fake.enqueue('safety', openAiReplies.badRequest());
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
  it('records each call with its purpose, model, tokens (cached tokens apart) and outcome', async () => {
    fake.enqueue('safety', openAiReplies.safetyVerdict(true, ''));
    fake.enqueue('evaluator', openAiReplies.rateLimited(0), openAiReplies.evaluation({ recalledPoints: [], feedback: 'Nothing yet.' }, { usage: { prompt_tokens: 310, completion_tokens: 41 } }));
    fake.enqueue('tutor', openAiReplies.text('Keep going!', { usage: { prompt_tokens: 1825, completion_tokens: 12, cached_tokens: 1800 } }));
    fake.enqueue('tutor', openAiReplies.text('First turn of a new prefix.', { usage: { prompt_tokens: 1825, completion_tokens: 9, cached_tokens: 0 } }));
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
      { purpose: 'tutor', model: models.tutor, streamed: true, outcome: 'ok', status: null, inputTokens: 1825, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, attempt: 1 },
    ]);
    expect(records.every((record) => record.provider === 'openai' && record.latencyMs >= 0 && record.sessionId === null)).toBe(true);
  });
});
