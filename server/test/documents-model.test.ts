/**
 * Documents proposed by a model (SPEC §4.7, issue 26), against the real server on a loopback
 * port, the real vendor SDKs and the fake Anthropic and OpenAI-compatible APIs: the document is
 * read in chunks of whole sections, one forced structured call each, then one merge pass that
 * ranks; malformed answers are asked once more, then that chunk is proposed offline; quotes the
 * document does not hold on the page named are dropped; the daily cap on document tokens refuses
 * in plain words; every call is in `llm_calls` with its learner; leaving cancels the calls.
 *
 * The fake "model" below is deterministic: per chunk it proposes each paragraph's first sentence
 * (quoted, with the page marker above it); the merge pass merges identical points and ranks them
 * last-first, so the ranking visibly decides which points survive a cap.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProposeDocumentResponse } from '@tutorloop/shared';
import { fakeReplies, startFakeAnthropic } from './helpers/fake-anthropic';
import { openAiReplies, startFakeOpenAi } from './helpers/fake-openai';
import { captureLogs, type LogCapture } from './helpers/log-capture';
import { startTestServer, type TestServer } from './helpers/test-server';

/** Waiting for PDF.js to load in the document worker on a busy machine: a limit on waiting, not a timed assertion. */
const workerTimeoutMs = 240_000;

/** What the tests need of either fake. */
interface DocumentCall {
  tool: string;
  text: string;
  /** The request asked for the tool's input as structured output (forced tool / json_schema). */
  forced: boolean;
  closedEarly: () => boolean;
}
type Answer = { input: unknown } | 'hang';
interface Vendor {
  url: string;
  env: Record<string, string>;
  calls(): DocumentCall[];
  answer(script: (call: DocumentCall) => Answer): void;
  close(): Promise<void>;
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';

async function anthropicVendor(): Promise<Vendor> {
  const fake = await startFakeAnthropic();
  const call = (request: (typeof fake.requests)[number]): DocumentCall => ({
    tool: request.body.tool_choice?.name ?? '',
    text: textOf(request.body.messages.find((message) => message.role === 'user')?.content),
    forced: request.body.tool_choice?.type === 'tool',
    closedEarly: () => request.clientClosedEarly,
  });
  return {
    url: fake.url,
    env: { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    calls: () => fake.requestsFor('documents').map(call),
    answer: (script) =>
      fake.setDefault('documents', (request) => {
        const reply = script(call(request));
        return reply === 'hang' ? fakeReplies.hang() : fakeReplies.toolUse(call(request).tool, reply.input);
      }),
    close: () => fake.close(),
  };
}

async function openAiVendor(): Promise<Vendor> {
  const fake = await startFakeOpenAi();
  const call = (request: (typeof fake.requests)[number]): DocumentCall => ({
    tool: request.body.response_format?.json_schema?.name ?? (typeof request.body.tool_choice === 'object' ? request.body.tool_choice.function.name : ''),
    text: textOf(request.body.messages.find((message) => message.role === 'user')?.content),
    forced: request.body.response_format?.type === 'json_schema' || typeof request.body.tool_choice === 'object',
    closedEarly: () => request.clientClosedEarly,
  });
  return {
    url: fake.url,
    env: { LLM_PROVIDER: 'auto', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url },
    calls: () => fake.requestsFor('documents').map(call),
    answer: (script) =>
      fake.setDefault('documents', (request) => {
        const reply = script(call(request));
        return reply === 'hang' ? openAiReplies.hang() : openAiReplies.structured(reply.input);
      }),
    close: () => fake.close(),
  };
}

/** The fake model's points of one chunk: each paragraph's first sentence, with the page marker above it. */
function chunkPoints(text: string): Array<{ content: string; page: number | null; quote: string }> {
  let page: number | null = null;
  const points = [];
  for (const part of text.replace(/<\/?document_part>/gu, '').split('\n\n')) {
    const line = part.trim();
    const marker = /^\[page (\d+)\]$/u.exec(line);
    if (marker) page = Number(marker[1]);
    if (marker || line === '' || line.startsWith('#') || line.startsWith('(Continuing')) continue;
    const sentence = /^[^.]*\./u.exec(line.replace(/\s+/gu, ' '))?.[0];
    if (sentence) points.push({ content: sentence, page, quote: sentence });
  }
  return points;
}

/** The fake merge: identical points merged, ranked last-first. */
function mergeAnswer(text: string): { points: Array<{ from: number[]; content: string }> } {
  const groups = new Map<string, number[]>();
  for (const match of text.matchAll(/^(\d+)\. (.*)$/gmu)) groups.set(match[2]!, [...(groups.get(match[2]!) ?? []), Number(match[1])]);
  return { points: [...groups].map(([content, from]) => ({ from, content })).reverse() };
}

const honestModel = (call: DocumentCall): Answer => ({ input: call.tool === 'merge_document_points' ? mergeAnswer(call.text) : { points: chunkPoints(call.text) } });

/** Three sections of about 2,500 estimated tokens each: too long to share a 3,000-token chunk. */
const filler = 'Several ordinary words follow here so that this paragraph is long enough to matter for the size of a chunk. '.repeat(22);
const sectionFact = (section: number, paragraph: number) =>
  section === 3 && paragraph === 1 ? 'Fact one of section one is stated twice in this document.' : `Fact ${['one', 'two', 'three', 'four'][paragraph - 1]} of section ${section} is a statement worth recalling.`;
const markdown = [1, 2, 3].map((section) => `## Section ${section}\n\n${[1, 2, 3, 4].map((paragraph) => `${sectionFact(section, paragraph)} ${filler}`).join('\n\n')}`).join('\n\n').replace('Fact one of section 1 is a statement worth recalling.', 'Fact one of section one is stated twice in this document.');

type ProposeAnswer = ProposeDocumentResponse & { error?: { code: string; message: string } };

describe.each([
  ['Anthropic', anthropicVendor],
  ['OpenAI-compatible', openAiVendor],
])('documents proposed by a model (%s fake)', (_name, startVendor) => {
  let vendor: Vendor;
  let server: TestServer;
  let logs: LogCapture;
  beforeAll(async () => {
    vendor = await startVendor();
    logs = captureLogs();
    // Errors always reach the log at this level: a learner who leaves must not be one.
    server = await startTestServer({ env: { ...vendor.env, LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await server.close();
    await vendor.close();
    logs.stop();
  });
  const propose = (token: string, body: unknown) => server.api<ProposeAnswer>('POST', '/api/documents/propose', { token, body });
  // Document calls have no session: they are the learner's, read through the storage port.
  const documentCalls = async (learnerId: string) =>
    (await server.server.storage.read((reader) => reader.llmCalls.listByLearner(learnerId, 'document_points'))).map((call) => ({ purpose: call.purpose, outcome: call.outcome, tokens: call.inputTokens + call.outputTokens }));

  it('asks once per section-sized chunk with a forced tool, merges duplicates and keeps the best-ranked points, each call in llm_calls', async () => {
    vendor.answer(honestModel);
    const { token, learner } = await server.register();
    const before = vendor.calls().length;
    const response = await propose(token, { format: 'markdown', text: markdown, maxProposals: 5 });
    expect(response.status).toBe(200);
    const calls = vendor.calls().slice(before);
    expect(calls.map((call) => [call.tool, call.forced])).toEqual([
      ['document_points', true],
      ['document_points', true],
      ['document_points', true],
      ['merge_document_points', true],
    ]);
    // Each chunk is one whole section.
    expect(calls.slice(0, 3).map((call) => [...call.text.matchAll(/^## (Section \d)$/gmu)].map((match) => match[1]))).toEqual([['Section 1'], ['Section 2'], ['Section 3']]);
    // 12 points, one said twice: 11 after the merge, ranked last-first, the best 5 kept, in the document's order.
    expect(response.body.proposals).toEqual(
      [
        ['Fact two of section 3 is a statement worth recalling.', 'Section 3'],
        ['Fact three of section 3 is a statement worth recalling.', 'Section 3'],
        ['Fact four of section 3 is a statement worth recalling.', 'Section 3'],
        ['Fact three of section 2 is a statement worth recalling.', 'Section 2'],
        ['Fact four of section 2 is a statement worth recalling.', 'Section 2'],
      ]
        .sort((a, b) => markdown.indexOf(a[0]!) - markdown.indexOf(b[0]!))
        .map(([content, heading]) => ({ content, source: { heading, quote: content } })),
    );
    expect(response.body.warnings).toEqual([]);
    await vi.waitFor(async () => expect(await documentCalls(learner.id)).toHaveLength(4));
    expect((await documentCalls(learner.id)).every((call) => call.outcome === 'ok' && call.tokens > 0)).toBe(true);
  });

  it('merges a point said in two sections into one', async () => {
    vendor.answer(honestModel);
    const { token } = await server.register();
    const response = await propose(token, { format: 'markdown', text: markdown });
    expect(response.body.proposals.filter((proposal) => proposal.content === 'Fact one of section one is stated twice in this document.')).toHaveLength(1);
    expect(response.body.proposals).toHaveLength(11);
  });

  it('asks again once when a chunk’s answer is malformed, then proposes that chunk offline and says so', async () => {
    const attempts = new Map<string, number>();
    vendor.answer((call) => {
      const section = /^## (Section \d)$/mu.exec(call.text)?.[1] ?? 'merge';
      const attempt = (attempts.get(section) ?? 0) + 1;
      attempts.set(section, attempt);
      const malformed = section === 'Section 1' || (section === 'Section 2' && attempt === 1);
      return malformed ? { input: { points: 'all of them' } } : honestModel(call);
    });
    const { token } = await server.register();
    const before = vendor.calls().length;
    const response = await propose(token, { format: 'markdown', text: markdown });
    expect(response.status).toBe(200);
    expect([...attempts]).toEqual([
      ['Section 1', 2],
      ['Section 2', 2],
      ['Section 3', 1],
      ['merge', 1],
    ]);
    expect(vendor.calls().length - before).toBe(6);
    expect(response.body.warnings).toEqual(["The model's answer for one part of the document could not be used, so the points there were proposed without it."]);
    // Section 1 by the offline extractor (quoting its text), sections 2 and 3 by the model.
    const section1 = response.body.proposals.filter((proposal) => proposal.source.heading === 'Section 1');
    expect(section1.length).toBeGreaterThan(0);
    for (const proposal of section1) expect(markdown).toContain(proposal.source.quote);
    expect(response.body.proposals.filter((proposal) => proposal.source.heading === 'Section 2').map((proposal) => proposal.content)).toEqual([1, 2, 3, 4].map((paragraph) => sectionFact(2, paragraph)));
  });

  it(
    'drops a point whose quote is not on the page it names, or not in the document at all',
    async () => {
      const truePages = new Map<string, number | null>();
      vendor.answer((call) => {
        if (call.tool === 'merge_document_points') return { input: mergeAnswer(call.text) };
        const points = chunkPoints(call.text);
        for (const point of points) truePages.set(point.content, point.page);
        return {
          input: {
            points: [
              ...points,
              ...points.map((point) => ({ ...point, content: `${point.content} (wrong page)`, page: (point.page ?? 0) + 1 })),
              { content: 'Rivers flow uphill in spring.', page: 1, quote: 'Rivers flow uphill in spring.' },
            ],
          },
        };
      });
      const { token } = await server.register();
      const pdf = readFileSync(new URL('./fixtures/documents/article.pdf', import.meta.url));
      const response = await propose(token, { format: 'pdf', data: pdf.toString('base64') });
      expect(response.status).toBe(200);
      expect(response.body.pages).toBe(3);
      expect(truePages.size).toBeGreaterThan(5);
      expect(response.body.proposals.map((proposal) => [proposal.content, proposal.source.page]).sort()).toEqual([...truePages].sort());
    },
    workerTimeoutMs,
  );

  it('stops the model call when the learner leaves', async () => {
    vendor.answer(() => 'hang');
    const errorsBefore = logs.errors().length;
    const { token, learner } = await server.register();
    const before = vendor.calls().length;
    // A connection of its own (no keep-alive pool), closed mid-request as a browser tab would.
    const body = JSON.stringify({ format: 'text', text: 'Evaporation is the change of liquid water into vapour.' });
    const leaving = request(`${server.url}/api/documents/propose`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const closed = new Promise<void>((resolve) => leaving.on('close', () => resolve()));
    leaving.on('error', () => {});
    leaving.end(body);
    await vi.waitFor(() => expect(vendor.calls().length).toBe(before + 1), { timeout: workerTimeoutMs });
    leaving.destroy();
    await closed;
    await vi.waitFor(() => expect(vendor.calls()[before]?.closedEarly()).toBe(true), { timeout: 10_000 });
    await vi.waitFor(async () => expect((await documentCalls(learner.id)).map((call) => call.outcome)).toEqual(['aborted']), { timeout: 10_000 });
    // A learner who leaves is no error of the server's (it once logged `unhandled error` for the aborted call).
    expect(logs.errors().slice(errorsBefore)).toEqual([]);
  }, workerTimeoutMs);

  it('refuses in plain words once the learner’s daily document tokens are spent, without calling the model; another learner is unaffected', async () => {
    const capped = await startTestServer({ env: { ...vendor.env, DOCUMENT_DAILY_TOKENS: '10' } });
    try {
      vendor.answer(honestModel);
      const spender = await capped.register();
      const body = { format: 'text', text: 'Evaporation is the change of liquid water into vapour. Condensation is the change of vapour into droplets.' };
      const first = await capped.api<ProposeAnswer>('POST', '/api/documents/propose', { token: spender.token, body });
      expect(first.status).toBe(200);
      // The call is recorded (after the answer) with the learner: the fakes report 10 + 5 tokens a call, so 15 is one call,
      // read through the storage port the way the cap reads it.
      const documentTokens = () => capped.server.storage.read((reader) => reader.llmCalls.tokensUsedSince(spender.learner.id, new Date(0), 'document_points'));
      await vi.waitFor(async () => expect(await documentTokens()).toBe(15));
      const callsBefore = vendor.calls().length;
      const refused = await capped.api<ProposeAnswer>('POST', '/api/documents/propose', { token: spender.token, body });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toEqual({
        code: 'rate_limited',
        message: expect.stringMatching(/^Your daily budget of 10 tokens for reading documents with the model is used up \(it renews at 00:00 UTC\); nothing was proposed\. Retry in /u),
      });
      expect(vendor.calls().length).toBe(callsBefore);
      const other = await capped.register();
      expect((await capped.api<ProposeAnswer>('POST', '/api/documents/propose', { token: other.token, body })).status).toBe(200);
    } finally {
      await capped.close();
    }
  }, workerTimeoutMs);
});
