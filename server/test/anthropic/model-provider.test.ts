/**
 * SPEC §4.1, §4.2, §7 — the model provider as the `anthropic` TutorProvider, through the
 * resilient client, the Anthropic transport and the real SDK, against the fake Messages
 * API: what each call sends (asserted on the captured request bodies) and what comes back
 * to the engine (which then applies the turn's rules: normalising the evaluation, counting
 * a failed safety check as safe, keeping one tool call per reply).
 */
import { describe, expect, it } from 'vitest';
import { fakeReplies, type RecordedRequest } from '../helpers/fake-anthropic';
import { collect, feedback, live, modelProviderScenarios, points, providerUnderTest, textOf, tutorInput } from '../helpers/model-provider-scenarios';
import { anthropicWire } from '../helpers/provider-wire';

const models = anthropicWire.models;

const under = providerUnderTest(anthropicWire);
const makeProvider = under.makeProvider;

function only(requests: RecordedRequest[]): RecordedRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

// ---------------------------------------------------------------------------
// reply
// ---------------------------------------------------------------------------

describe('reply (SPEC §4.1 feedback injection, §4.2 widgets)', () => {
  it('streams the tutor model with the stable instructions cached and the feedback after the breakpoint, never in messages', async () => {
    under.fake.enqueue('tutor', fakeReplies.text('Nice work on energy! Now, what reads the mRNA?'));
    const events = await collect(makeProvider().reply(tutorInput(), live()));
    expect(textOf(events)).toBe('Nice work on energy! Now, what reads the mRNA?');
    expect(events.every((event) => event.type === 'text_delta')).toBe(true);

    const sent = only(under.fake.requestsFor('tutor'));
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
    const sent = only(under.fake.requestsFor('tutor'));
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
  });
});

// What comes back to the engine and what each call records, shared with the OpenAI suite.
modelProviderScenarios(anthropicWire, under);
