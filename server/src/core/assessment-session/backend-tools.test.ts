import { describe, expect, it } from 'vitest';
import type { GeneratedItem } from '../assessment';
import { BackendToolRegistry, backendToolNames, type BackendToolHandlers } from './backend-tools';

const choiceItem: GeneratedItem = {
  skillId: 'MATH.ADD',
  domain: 'Math',
  sectionId: 'addition',
  kind: 'multiple_choice',
  stem: 'What is 47 + 38?',
  options: ['75', '85', '86', '95'],
  correctIndex: 1,
  correctAnswer: '85',
  difficulty: 0.4,
  level: 'medium',
  params: { a: 47, b: 38, case: 'single_carry' },
  fingerprint: 'MATH.ADD|47+38',
};
const codeItem: GeneratedItem = {
  ...choiceItem,
  kind: 'code',
  stem: 'Write count_chars(s).',
  options: undefined,
  correctIndex: undefined,
  correctAnswer: 'def count_chars(s):\n    return len(s)\n',
  code: { language: 'python', functionName: 'count_chars', starterCode: 'def count_chars(s):\n    pass\n', tests: [{ args: ['héllo'], expected: 5 }], timeoutSeconds: 3, partialCredit: true },
};

function registry(item: GeneratedItem): BackendToolRegistry {
  const handlers: BackendToolHandlers = {
    nextItem: async () => ({ item, position: 3, totalItems: 20 }),
    evaluate: async () => ({ credit: 0.5, testsPassed: 1, testsTotal: 2, note: null }),
    complete: async (_context, reason) => ({ reason, answered: 20, totalItems: 20, score: 14 }),
  };
  return new BackendToolRegistry(handlers);
}

describe('backend tool registry', () => {
  it('holds the three tools of SPEC §4.2 under their names', () => {
    expect(registry(choiceItem).names).toEqual([backendToolNames.nextItem, backendToolNames.evaluate, backendToolNames.complete]);
    expect(Object.values(backendToolNames)).toEqual(['get_next_item', 'evaluate_response', 'complete_session']);
  });

  it('never lets a model see an answer, a test or a score of an item in an assessment', async () => {
    for (const item of [choiceItem, codeItem]) {
      const tools = registry(item);
      const context = { sessionId: 's1', sessionType: 'assessment' as const };
      const next = await tools.call(tools.nextItem, context, undefined);
      expect(next.result.item).toBe(item);
      const seen = JSON.stringify(next.forModel);
      for (const secret of ['correctIndex', 'correctAnswer', '"85"', 'expected', 'tests', 'fingerprint', 'params', 'difficulty', 'return len']) {
        if (item === choiceItem && secret === '"85"') continue; // the right option is among the options, unmarked
        expect(seen).not.toContain(secret);
      }
      const scored = await tools.call(tools.evaluate, context, { item, answerText: 'x' });
      expect(scored.result.credit).toBe(0.5);
      expect(scored.forModel).toEqual({ recorded: true });
    }
  });

  it('shows correctness where the session type is tutoring, and results once complete', async () => {
    const tools = registry(choiceItem);
    const scored = await tools.call(tools.evaluate, { sessionId: 's1', sessionType: 'learning' }, { item: choiceItem, answerText: '85' });
    expect(scored.forModel).toEqual({ credit: 0.5, testsPassed: 1, testsTotal: 2 });
    const done = await tools.call(tools.complete, { sessionId: 's1', sessionType: 'assessment' }, 'all_answered');
    expect(done.forModel).toEqual({ reason: 'all_answered', answered: 20, totalItems: 20, score: 14 });
  });
});
