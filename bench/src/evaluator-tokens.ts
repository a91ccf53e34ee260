/**
 * Evaluator input per turn as points get recalled (SPEC §4.1: already-recalled points are
 * never sent again). Runs the real server with the real `anthropic` provider and SDK against
 * the fake Messages API from the server's tests (loopback), scripted to recall one point per
 * turn, and sizes each evaluator request the SDK actually sent.
 *
 * Token counts are estimates: Anthropic's tokenizer is not available offline (the real API
 * reports exact `input_tokens`, logged in `llm_calls`). `estimateTokens` counts each run of
 * letters as one token per 6 letters (rounded up), each run of digits as one token per 3,
 * and every other non-space character as one token — close to BPE on English prose and
 * somewhat high on ids. The tool-use system preamble the API adds is not included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../server/src/config';
import { startServer } from '../../server/src/server';
import { fakeReplies, startFakeAnthropic, type FakeRequestBody } from '../../server/test/helpers/fake-anthropic';
import { registerCleanup } from './cleanup';
import { BenchSocket } from './load-client';
import { benchPoints, createFreshSession, createLearner, sessionSocketUrl } from './rest-client';

export interface EvaluatorTokenTurn {
  turn: number;
  pointsSent: number;
  /** Characters of the system prompt, messages and tool definition. */
  characters: number;
  estimatedTokens: number;
  /** The `<points_not_yet_recalled>` block alone. */
  pointsBlockTokens: number;
  /** The `<transcript>` block alone (the last 10 messages). */
  transcriptTokens: number;
}

export interface EvaluatorTokenRun {
  turns: EvaluatorTokenTurn[];
  method: string;
}

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const piece of text.match(/[\p{L}]+|\p{N}+|[^\s\p{L}\p{N}]/gu) ?? []) {
    if (/^\p{L}/u.test(piece)) tokens += Math.ceil(piece.length / 6);
    else if (/^\p{N}/u.test(piece)) tokens += Math.ceil(piece.length / 3);
    else tokens += 1;
  }
  return tokens;
}

function userText(body: FakeRequestBody): string {
  return body.messages
    .map((message) =>
      typeof message.content === 'string' ? message.content : message.content.map((block) => (typeof block['text'] === 'string' ? block['text'] : JSON.stringify(block))).join('\n'),
    )
    .join('\n');
}

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  return start >= 0 && end > start ? text.slice(start + open.length, end) : '';
}

/** The ids the forced tool offers: exactly the points sent (the schema's enum). */
function offeredIds(body: FakeRequestBody): string[] {
  const schema = body.tools?.[0]?.input_schema as { properties?: { recalledPoints?: { items?: { properties?: { id?: { enum?: string[] } } } } } } | undefined;
  return schema?.properties?.recalledPoints?.items?.properties?.id?.enum ?? [];
}

export async function measureEvaluatorTokens(): Promise<EvaluatorTokenRun> {
  const fake = await startFakeAnthropic();
  const unregisterFake = registerCleanup(() => fake.close());
  fake.setDefault('evaluator', (request) => {
    const first = offeredIds(request.body)[0];
    return fakeReplies.evaluation({
      recalledPoints: first ? [{ id: first, confidence: 0.9, observation: 'Stated it in their own words.' }] : [],
      feedback: 'One point recalled accurately; cue the next one.',
    });
  });
  fake.setDefault('tutor', fakeReplies.text('Good — that is the heart of it. What comes next in the chain?'));
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'tutorloop-bench-tokens-'));
  const unregisterFolder = registerCleanup(() => rmSync(dataDirectory, { recursive: true, force: true }));
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDirectory,
    LOG_LEVEL: 'silent',
    LLM_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: 'fake-messages-api-accepts-any-key',
    ANTHROPIC_BASE_URL: fake.url,
    WEB_DIST: '',
  });
  if (!config.ok) throw new Error(config.error);
  const server = await startServer(config.value);
  const unregisterServer = registerCleanup(() => server.close());
  try {
    const learner = await createLearner(server.url, `tokens${Date.now().toString(36)}`);
    const sessionId = await createFreshSession(server.url, learner);
    const socket = await BenchSocket.open(sessionSocketUrl(server.url, sessionId, learner.token));
    await socket.waitForGreeting();
    for (const [index, point] of benchPoints.entries()) {
      const outcome = await socket.turn(`I remember this one: ${point.toLowerCase()}`, `tokens-${index}`, true);
      if (!outcome.ok) throw new Error(`evaluator token run, turn ${index + 1}: ${outcome.error}`);
    }
    await socket.close();
    const turns = fake.requestsFor('evaluator').map((request, index): EvaluatorTokenTurn => {
      const system = (request.body.system ?? []).map((block) => block.text).join('\n');
      const user = userText(request.body);
      const tools = JSON.stringify(request.body.tools ?? []);
      return {
        turn: index + 1,
        pointsSent: offeredIds(request.body).length,
        characters: system.length + user.length + tools.length,
        estimatedTokens: estimateTokens(system) + estimateTokens(user) + estimateTokens(tools),
        pointsBlockTokens: estimateTokens(between(user, '<points_not_yet_recalled>', '</points_not_yet_recalled>')),
        transcriptTokens: estimateTokens(between(user, '<transcript>', '</transcript>')),
      };
    });
    return {
      turns,
      method:
        'real anthropic provider + SDK against the fake Messages API; tokens estimated from the request body (system + messages + tool schema): letters/6, digits/3, 1 per symbol',
    };
  } finally {
    await server.close();
    unregisterServer();
    await fake.close();
    unregisterFake();
    rmSync(dataDirectory, { recursive: true, force: true });
    unregisterFolder();
  }
}
