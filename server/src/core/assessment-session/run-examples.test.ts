/** "Run examples" rules (issue 25 item 2), pure: who may run what, and what the learner is shown. */
import { describe, expect, it } from 'vitest';
import { shippedSkill } from '../../../test/support/assessment-support';
import { generateItem } from '../assessment';
import { createRandom } from '../assessment/random';
import type { StoredItem } from '../storage/assessments';
import type { PendingActionRecord } from '../storage/pending-actions';
import type { StoredSession } from '../storage/sessions';
import { examplesResponse, examplesToRun, type ExamplesContext } from './run-examples';

const start = new Date('2026-11-20T10:00:00Z');
const codeItem = generateItem(shippedSkill('PROG.PYTHON.STRING.COUNT'), { sectionId: 'writing', caseName: 'count_vowels' }, createRandom('run-examples'));
const choiceItem = generateItem(shippedSkill('PROG.PYTHON.STRING.LEN'), { sectionId: 'reading', caseName: 'emoji' }, createRandom('run-examples'));

const session: StoredSession = {
  id: 's1',
  learnerId: 'ada',
  status: 'awaiting_client_action',
  title: 'Python Strings — Level 1',
  recallSetId: null,
  turn: 1,
  endReason: null,
  createdAt: start,
  updatedAt: start,
  endedAt: null,
  type: 'assessment',
  typeState: { type: 'assessment', blueprintId: 'PYTHON-STRINGS-L1', seed: 'seed', timeLimitSeconds: 600 },
};
const items: StoredItem[] = [
  { id: 'i1', sessionId: 's1', position: 1, item: choiceItem, widgetId: 'w1', presentedAt: start },
  { id: 'i2', sessionId: 's1', position: 2, item: codeItem, widgetId: 'w2', presentedAt: start },
];
const pending: PendingActionRecord = { id: 'w2', sessionId: 's1', toolCallId: 't2', kind: 'code_editor', props: {}, status: 'pending', createdAt: start };

function context(change: Partial<ExamplesContext> = {}): ExamplesContext {
  return { session, learnerId: 'ada', items, pending, widgetId: 'w2', language: 'python', now: new Date(start.getTime() + 60_000), ...change };
}

describe('examplesToRun', () => {
  it('runs the pending code item’s visible examples, and only those', () => {
    const decision = examplesToRun(context());
    expect(decision).toEqual({ ok: true, value: { language: 'python', functionName: 'count_vowels', tests: codeItem.code!.tests.slice(0, 2) } });
    expect(codeItem.code!.tests.length).toBeGreaterThan(2);
  });

  it('refuses, in plain words, whatever is not the owner’s pending code item of a running session', () => {
    const refusal = (change: Partial<ExamplesContext>) => {
      const decision = examplesToRun(context(change));
      return decision.ok ? null : decision.error;
    };
    // Another learner's session reads as a missing one.
    expect(refusal({ learnerId: 'eve' })).toEqual({ code: 'not_found', message: 'No session with that id.' });
    expect(refusal({ session: null })).toEqual({ code: 'not_found', message: 'No session with that id.' });
    expect(refusal({ widgetId: 'w1' })).toEqual({ code: 'not_found', message: 'No code item with that id in this session.' });
    expect(refusal({ widgetId: 'w9' })).toEqual({ code: 'not_found', message: 'No code item with that id in this session.' });
    expect(refusal({ pending: null })?.code).toBe('widget_not_pending');
    expect(refusal({ session: { ...session, status: 'completed' } })?.code).toBe('session_ended');
    expect(refusal({ now: new Date(start.getTime() + 600_000) })).toEqual({ code: 'session_ended', message: 'Time is up: the assessment takes no more runs or answers.' });
    expect(refusal({ language: 'javascript' })).toEqual({ code: 'invalid_payload', message: 'language: this item is answered in Python.' });
    const withoutExamples = { ...codeItem, code: { ...codeItem.code!, tests: codeItem.code!.tests.map(({ args, expected }) => ({ args, expected })) } };
    expect(refusal({ items: [items[0]!, { ...items[1]!, item: withoutExamples }] })).toEqual({ code: 'conflict', message: 'This item has no examples to run.' });
  });
});

describe('examplesResponse', () => {
  const run = { language: 'python' as const, functionName: 'count_vowels', tests: [{ args: ['Orbit'], expected: 2, visible: true }, { args: ["it's"], expected: 1, visible: true }] };

  it('shows each example as Python: the call, the value expected and the value returned', () => {
    expect(examplesResponse(run, { passed: 1, total: 2, outcomes: [{ passed: true, actual: 2 }, { passed: false, actual: 0 }], output: 'hi\n', durationMs: 3.6 })).toEqual({
      examples: [
        { input: "count_vowels('Orbit')", expected: '2', actual: '2', passed: true, example: true },
        { input: "count_vowels('it\\'s')", expected: '1', actual: '0', passed: false, example: true },
      ],
      passed: 1,
      total: 2,
      output: 'hi\n',
      durationMs: 4,
    });
  });

  it('says why the code did not run, with no actual values', () => {
    const response = examplesResponse(run, {
      passed: 0,
      total: 2,
      outcomes: [{ passed: false, error: 'did not run' }, { passed: false, error: 'did not run' }],
      error: { kind: 'syntax', message: "SyntaxError: '(' was never closed (line 1)" },
      durationMs: 2,
    });
    expect(response.error).toEqual({ kind: 'syntax', message: "SyntaxError: '(' was never closed (line 1)" });
    expect(response.examples.map((example) => [example.actual, example.passed, example.error])).toEqual([
      [null, false, 'did not run'],
      [null, false, 'did not run'],
    ]);
  });
});
