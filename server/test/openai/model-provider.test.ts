/**
 * SPEC §4.1, §4.2, §7 — the model provider as the `openai` TutorProvider, through the
 * resilient client, the OpenAI transport and the real `openai` SDK, against the fake Chat
 * Completions API: what each call sends (asserted on the captured request bodies) and what
 * comes back to the engine. The counterpart of anthropic/model-provider.test.ts: the same
 * provider code, so the same behaviour, with the Chat Completions wire format.
 */
import { describe, expect, it } from 'vitest';
import { normalizeEvaluation } from '../../src/core/evaluation/parse-evaluation';
import { tutorInstructions } from '../../src/llm/tutor-request';
import { modeTools, tutorTools } from '../../src/llm/tutor-tools';
import { openAiReplies, type RecordedOpenAiRequest } from '../helpers/fake-openai';
import { collect, evaluationInput, feedback, live, modelProviderScenarios, points, providerUnderTest, textOf, tutorInput } from '../helpers/model-provider-scenarios';
import { openAiWire } from '../helpers/provider-wire';

const models = { ...openAiWire.models, safety: 'gpt-4.1-nano' };

const under = providerUnderTest(openAiWire);
const makeProvider = under.makeProvider;

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

// ---------------------------------------------------------------------------
// evaluate
// ---------------------------------------------------------------------------

describe('evaluate (SPEC §4.1)', () => {
  const input = evaluationInput;
  const offered = new Set(input.points.map((point) => point.id));

  it('passes malformed JSON on as text, which the engine turns into the empty result', async () => {
    under.fake.enqueue('evaluator', openAiReplies.malformedEvaluation());
    const raw = await makeProvider().evaluate(input, live());
    expect(normalizeEvaluation(raw, offered)).toEqual({ recalledPoints: [], feedback: '' });
  });
});

// ---------------------------------------------------------------------------
// reply
// ---------------------------------------------------------------------------

describe('reply (SPEC §4.1 feedback injection, §4.2 widgets)', () => {
  it('streams the tutor model with the stable instructions first and the feedback in the system note, never in messages', async () => {
    under.fake.enqueue('tutor', openAiReplies.text('Nice work on energy! Now, what reads the mRNA?'));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Nice work on energy! Now, what reads the mRNA?');
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);

    const sent = only(under.fake.requestsFor('tutor'));
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
    const sent = only(under.fake.requestsFor('tutor'));
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
  });
});

// ---------------------------------------------------------------------------
// checkSafety
// ---------------------------------------------------------------------------

describe('checkSafety', () => {
  it('asks the safety model when one is given, at temperature 0 (the rest is shared: the scenarios below)', async () => {
    await makeProvider({ safetyModel: models.safety }).checkSafety('hello', live());
    const sent = only(under.fake.requestsFor('safety'));
    expect(sent.body.model).toBe(models.safety);
    expect(sent.body.temperature).toBe(0);
  });
});

// What comes back to the engine and what each call records, shared with the Anthropic suite.
modelProviderScenarios(openAiWire, under);
