import { describe, expect, it } from 'vitest';
import { LlmError, type LlmClient, type LlmRequest, type LlmResponse } from '../llm-port';
import { clozeFeedbackMaxLength, clozeFeedbackMaxTokens, clozeFeedbackWriter, firstSentence, type FinishedPoint } from './cloze-feedback';

const point: FinishedPoint = { item: { pointId: 'p1', prompt: 'The _____ is the powerhouse of the cell.', answer: 'mitochondria' }, given: ['nucleus', 'mitochondria'], right: true };
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A recording fake of the LLM port: answers each call with the next scripted reply (or failure). */
function fakeClient(replies: Array<string | Error>): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const reply = replies.shift() ?? '';
      if (reply instanceof Error) throw reply;
      return { content: [{ type: 'text', text: reply }], usage, stopReason: 'end_turn' } satisfies LlmResponse;
    },
    stream() {
      throw new Error('the cloze feedback is never streamed');
    },
  };
}

const models = (client: LlmClient) => ({ client, tutorModel: 'tutor-model', evaluatorModel: 'small-model' });

describe('the tutor model’s sentence after a finished point (SPEC §4.6)', () => {
  it('asks the tutor model once, briefly, with the point, its answer and the tries, and keeps one sentence', async () => {
    const client = fakeClient(['Think of the mitochondria as the cell’s power plant.\nAnd more text.']);
    const sentence = await clozeFeedbackWriter(models(client))(point, 'session-1', new AbortController().signal);
    expect(sentence).toBe('Think of the mitochondria as the cell’s power plant.');
    expect(client.requests).toHaveLength(1);
    const request = client.requests[0]!;
    expect(request).toMatchObject({ purpose: 'cloze_feedback', sessionId: 'session-1', model: 'tutor-model', maxTokens: clozeFeedbackMaxTokens });
    expect(request.messages).toEqual([
      { role: 'user', content: 'Sentence shown: The _____ is the powerhouse of the cell.\nMissing word: mitochondria\nLearner\'s tries:\n1. "nucleus"\n2. "mitochondria"\nResult: right at the second try' },
    ]);
  });

  it('gives nothing on a failure or an empty reply, and nothing offline', async () => {
    const failing = fakeClient([new LlmError('server_error', 'boom'), '   ']);
    const write = clozeFeedbackWriter(models(failing));
    expect(await write(point, 's', new AbortController().signal)).toBeNull();
    expect(await write(point, 's', new AbortController().signal)).toBeNull();
    expect(await clozeFeedbackWriter(undefined)(point, 's', new AbortController().signal)).toBeNull();
  });

  it('cuts a sentence that runs on at a word', () => {
    const long = firstSentence(`${'word '.repeat(80)}end`)!;
    expect(long.length).toBeLessThanOrEqual(clozeFeedbackMaxLength + 1);
    expect(long.endsWith('word…')).toBe(true);
    expect(firstSentence('One. Two.')).toBe('One.');
    expect(firstSentence('\n\n')).toBeNull();
  });
});
