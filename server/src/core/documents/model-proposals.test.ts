import { describe, expect, it } from 'vitest';
import { LlmError, type LlmClient, type LlmRequest, type LlmResponse } from '../llm-port';
import type { ExtractedDocument } from './document-model';
import { documentTokenAllowance, mergeToolName, pointsToolName, proposeWithModel } from './model-proposals';

const document: ExtractedDocument = {
  blocks: [
    { kind: 'heading', text: 'Water', level: 1, page: 1 },
    { kind: 'paragraph', text: 'Evaporation is the change of liquid water into vapour. The sun drives evaporation from the oceans.', page: 1 },
    { kind: 'heading', text: 'Clouds', level: 1, page: 2 },
    { kind: 'paragraph', text: 'Condensation is the change of water vapour into droplets. Clouds consist of tiny droplets of water.', page: 2 },
  ],
  pages: 2,
  warnings: [],
};

const answer = (name: string, input: unknown): LlmResponse => ({
  content: [{ type: 'tool_use', id: 'call', name, input: input as Record<string, unknown> }],
  usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
  stopReason: 'tool_use',
});

/** A client that answers from a script, in order, and keeps the requests. */
function scripted(...replies: Array<(request: LlmRequest) => LlmResponse>): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    requests,
    complete: async (request, signal) => {
      if (signal.aborted) throw new LlmError('aborted', 'aborted');
      requests.push(request);
      const reply = replies.shift();
      if (!reply) throw new Error('no scripted reply left');
      return reply(request);
    },
    stream: () => {
      throw new Error('not used');
    },
  };
}

const options = (client: LlmClient, extra: Partial<Parameters<typeof proposeWithModel>[1]> = {}) => ({
  client,
  model: 'model-x',
  learnerId: 'learner-1',
  maxProposals: 10,
  tokenAllowance: 100_000,
  chunkTokens: 30,
  signal: new AbortController().signal,
  ...extra,
});

describe('proposeWithModel', () => {
  it('asks per chunk with a forced, structured tool, keeps checked points and ranks them through the merge pass', async () => {
    const client = scripted(
      () =>
        answer(pointsToolName, {
          points: [
            { content: 'Evaporation is the change of liquid water into vapour.', page: 1, quote: 'Evaporation is the change of liquid water into vapour.' },
            // Quoted from page 1 but said to be on page 2, and a quote the page does not have: both dropped.
            { content: 'The sun drives evaporation.', page: 2, quote: 'The sun drives evaporation from the oceans.' },
            { content: 'Rain falls.', page: 1, quote: 'Rain falls from clouds.' },
          ],
        }),
      () => answer(pointsToolName, { points: [{ content: 'Clouds consist of tiny droplets of water.', page: 2, quote: 'Clouds consist of tiny droplets of water.' }] }),
      () => answer(mergeToolName, { points: [{ from: [2], content: 'Clouds consist of tiny droplets of water.' }, { from: [1], content: 'Evaporation turns liquid water into vapour.' }] }),
    );
    const { response, tokensUsed } = await proposeWithModel(document, options(client, { maxProposals: 1 }));
    expect(client.requests.map((request) => [request.purpose, request.toolChoice, request.structuredOutput, request.learnerId])).toEqual([
      ['document_points', { type: 'tool', name: pointsToolName }, true, 'learner-1'],
      ['document_points', { type: 'tool', name: pointsToolName }, true, 'learner-1'],
      ['document_points', { type: 'tool', name: mergeToolName }, true, 'learner-1'],
    ]);
    // Ranked first by the merge pass, so it is the one kept under a cap of one.
    expect(response.proposals).toEqual([{ content: 'Clouds consist of tiny droplets of water.', source: { page: 2, heading: 'Clouds', quote: 'Clouds consist of tiny droplets of water.' } }]);
    expect(tokensUsed).toBe(360);
  });

  it('asks again once when an answer is malformed, then proposes that chunk offline', async () => {
    const malformed = () => answer(pointsToolName, { points: 'many' });
    const client = scripted(malformed, malformed, malformed, () => answer(pointsToolName, { points: [{ content: 'Clouds consist of tiny droplets of water.', page: 2, quote: 'Clouds consist of tiny droplets of water.' }] }), () => answer(mergeToolName, { nonsense: true }), () => answer(mergeToolName, { nonsense: true }));
    const { response } = await proposeWithModel(document, options(client));
    expect(client.requests).toHaveLength(6);
    // Page 1 by the offline extractor (quoting the page), page 2 by the model; the merge failed twice, so the document's order.
    expect(response.proposals.map((proposal) => proposal.source.page)).toEqual([1, 1, 2]);
    expect(response.proposals[0]?.source.quote).toBe('Evaporation is the change of liquid water into vapour.');
    expect(response.warnings).toEqual(["The model's answer for one part of the document (page 1) could not be used, so the points there were proposed without it."]);
  });

  it('proposes offline what is past the token allowance, and stops when the request is cancelled', async () => {
    const client = scripted(() => answer(pointsToolName, { points: [] }));
    const { response } = await proposeWithModel(document, options(client, { tokenAllowance: 50 }));
    expect(client.requests).toHaveLength(1);
    expect(response.warnings[0]).toMatch(/^Your daily budget for reading documents with the model ran out, so the points of one part of the document \(page 2\)/u);
    const controller = new AbortController();
    controller.abort();
    await expect(proposeWithModel(document, options(scripted(), { signal: controller.signal }))).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('gives the tokens left today, or a refusal until 00:00 UTC', () => {
    const now = Date.parse('2026-03-02T18:00:00.000Z');
    expect(documentTokenAllowance(1000, 400, now)).toEqual({ ok: true, allowance: 600 });
    expect(documentTokenAllowance(0, 400, now)).toEqual({ ok: true, allowance: Number.POSITIVE_INFINITY });
    expect(documentTokenAllowance(1000, 1000, now)).toMatchObject({ ok: false, retryAfterMs: 6 * 3_600_000 });
  });
});
