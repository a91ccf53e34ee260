/** The thought partner's requests (SPEC §4.5): a retry asks for the replaced reply in other words; the models a provider has answer. */
import { describe, expect, it } from 'vitest';
import { zeroUsage, type LlmClient, type LlmRequest } from '../llm-port';
import { buildThoughtReplyRequest, thoughtPartnerFor } from './thought-model';

const base = {
  sessionId: 's1',
  topic: 'sleep',
  summary: '',
  recentMessages: [
    { role: 'partner' as const, content: 'What do you already believe about sleep?' },
    { role: 'learner' as const, content: 'I think sleep is when memories settle' },
  ],
};

describe('buildThoughtReplyRequest', () => {
  it('sends the window as alternating messages, the learner last, with no retry note', () => {
    const request = buildThoughtReplyRequest(base, 'model-a');
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages.at(-1)?.content).toBe('I think sleep is when memories settle');
    expect(JSON.stringify(request.messages)).not.toContain('asked for your reply again');
  });

  it('on a retry, quotes the replaced reply after the learner’s words and asks for another way', () => {
    const request = buildThoughtReplyRequest({ ...base, replacing: 'You said “memories settle”. Why at night?' }, 'model-a');
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const last = request.messages.at(-1)?.content as string;
    expect(last.startsWith('I think sleep is when memories settle')).toBe(true);
    expect(last).toContain('You said before: "You said “memories settle”. Why at night?" Say it another way.');
  });

  it('on a retried opening, the note follows the opening instruction', () => {
    const request = buildThoughtReplyRequest({ ...base, recentMessages: [], replacing: 'What do you already believe about sleep?' }, 'model-a');
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]?.content).toMatch(/^\(Open the session: .*sleep.*\)\n\n\(I asked for your reply again\./s);
  });
});

describe('thoughtPartnerFor (the registry builds the partner from the provider)', () => {
  /** A recording LLM client: one text reply for every call. */
  function recordingClient(text: string): LlmClient & { requests: LlmRequest[] } {
    const requests: LlmRequest[] = [];
    return {
      requests,
      async complete(request) {
        requests.push(request);
        return { content: [{ type: 'text', text }], usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 }, stopReason: 'end_turn' };
      },
      async *stream(request) {
        requests.push(request);
        yield { type: 'text_delta', text };
        yield { type: 'done', usage: zeroUsage, stopReason: 'end_turn' };
      },
    };
  }

  const summaryInput = { sessionId: 's1', topic: 'sleep', previousSummary: '', messages: base.recentMessages, final: false };

  it('on a provider with models: the tutor model replies, the evaluator model summarises', async () => {
    const client = recordingClient('Why at night?');
    const partner = thoughtPartnerFor({ models: { client, tutorModel: 'tutor-m', evaluatorModel: 'small-m' } });
    const pieces: string[] = [];
    for await (const piece of partner.reply(base, new AbortController().signal)) pieces.push(piece);
    const summary = await partner.summarize(summaryInput, new AbortController().signal);
    expect(pieces).toEqual(['Why at night?']);
    expect(summary).toEqual({ output: 'Why at night?', usage: { inputTokens: 13, outputTokens: 5 }, model: 'small-m' });
    expect(client.requests.map((request) => [request.purpose, request.model])).toEqual([
      ['thought_partner', 'tutor-m'],
      ['thought_summary', 'small-m'],
    ]);
  });

  it('on a provider without models (offline): the offline partner answers, calling no model', async () => {
    const partner = thoughtPartnerFor({});
    const summary = await partner.summarize(summaryInput, new AbortController().signal);
    expect(summary.model).toBe('offline');
    expect(summary.output).toContain('memories settle');
  });
});
