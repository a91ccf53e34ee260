/** "Run examples" through the service (issue 25 item 2): what reaches the sandbox, and a busy sandbox. */
import { describe, expect, it } from 'vitest';
import { shippedSkill } from '../../test/support/assessment-support';
import { generateItem } from '../core/assessment';
import { createRandom } from '../core/assessment/random';
import { fixedClock } from '../core/session/test-support';
import { createMemoryStorage } from '../core/storage/memory-storage';
import { sessionTypeCatalog } from '../core/session-type-states';
import { AppError } from './app-error';
import { CodeRunService, type ExamplesRunner } from './code-runs';

async function setUp(runner: ExamplesRunner) {
  const clock = fixedClock();
  const storage = createMemoryStorage(sessionTypeCatalog);
  const item = generateItem(shippedSkill('PROG.PYTHON.STRING.COUNT'), { sectionId: 'writing', caseName: 'count_char' }, createRandom('code-runs'));
  await storage.transaction(async (tx) => {
    await tx.learners.create({ id: 'ada', username: 'ada', passwordHash: 'x', createdAt: clock.now() });
    await tx.sessions.create({ id: 's1', learnerId: 'ada', status: 'awaiting_client_action', title: 'Python', recallSetId: null, typeState: { type: 'assessment', blueprintId: 'PYTHON-STRINGS-L1', seed: 'seed', timeLimitSeconds: 600 }, createdAt: clock.now() });
    await tx.pendingActions.create({ id: 'w1', sessionId: 's1', toolCallId: 't1', kind: 'code_editor', props: {}, createdAt: clock.now() });
    await tx.assessments.addItem({ id: 'i1', sessionId: 's1', position: 1, item, widgetId: 'w1', presentedAt: clock.now() });
  });
  return { item, service: new CodeRunService({ storage, runner, clock, budget: { limit: 5, windowMs: 60_000 } }) };
}

describe('CodeRunService', () => {
  it('hands the sandbox the visible examples only, under the learner’s own queue', async () => {
    const requests: unknown[] = [];
    const { item, service } = await setUp({
      run: async (request) => {
        requests.push(request);
        return { passed: 2, total: 2, outcomes: request.tests.map((test) => ({ passed: true, actual: test.expected })), durationMs: 5 };
      },
    });
    const code = 'def count_char(s, ch):\n    return s.count(ch)\n';
    const response = await service.runExamples('ada', 's1', 'w1', { code, language: 'python' });
    expect(requests).toEqual([{ language: 'python', code, functionName: 'count_char', tests: item.code!.tests.slice(0, 2).map(({ args, expected }) => ({ args, expected })), owner: 'ada' }]);
    expect(response).toMatchObject({ passed: 2, total: 2, examples: [{ passed: true }, { passed: true }] });
  });

  it('answers 429 with a retry hint while the learner’s previous runs still hold the sandbox', async () => {
    const { service } = await setUp({ run: async () => ({ passed: 0, total: 2, outcomes: [], error: { kind: 'busy', message: 'busy' }, durationMs: 0 }) });
    const refusal = await service.runExamples('ada', 's1', 'w1', { code: 'x', language: 'python' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 1000, message: 'Your previous code runs are still going. Retry in 1 s.' });
  });
});
