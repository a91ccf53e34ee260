import { describe, expect, it } from 'vitest';
import type { LoadedSkill } from './catalog';
import { GenerationError } from './generator';
import { generatorRegistry } from './generators/registry';
import { generateItem, toLearnerItem } from './item-builder';
import { createRandom } from './random';
import { shippedSkill } from '../../../test/support/assessment-support';

const addition = () => shippedSkill('MATH.ARITH.ADD.2DIGIT');

/** The shipped addition skill with another presentation or constraints. */
function variantOfAddition(change: { strategies?: string[]; optionCount?: number; operands?: { min: number; max: number } }): LoadedSkill {
  const { blueprint, generator } = addition();
  const presentation = blueprint.presentation;
  if (presentation.itemType !== 'multiple_choice') throw new Error('addition is multiple choice');
  const bound = change.operands ? generatorRegistry.get('addition-2digit')?.bind({ operands: change.operands }) : undefined;
  if (bound && !bound.ok) throw new Error('invalid test constraints');
  return {
    blueprint: {
      ...blueprint,
      presentation: {
        ...presentation,
        distractorStrategies: change.strategies ?? presentation.distractorStrategies,
        optionCount: change.optionCount ?? presentation.optionCount,
      },
    },
    generator: bound?.value ?? generator,
  };
}

describe('generateItem', () => {
  it('builds a whole multiple-choice item from a pinned seed (golden)', () => {
    expect(generateItem(addition(), { sectionId: 'addition', caseName: 'double_carry' }, createRandom('golden'))).toEqual({
      skillId: 'MATH.ARITH.ADD.2DIGIT',
      domain: 'Mathematics > Arithmetic > Addition',
      sectionId: 'addition',
      kind: 'multiple_choice',
      stem: 'Find the sum of 58 and 57.',
      // round-robin: forgot_carry 105; off_by_ten drew 105 too (skipped); digit_swap 151; off_by_one 116
      options: ['115', '105', '151', '116'],
      correctIndex: 0,
      correctAnswer: '115',
      difficulty: 0.2, // −1.5 + 1.5 (double carry) + 0.2 (both operands ≥ 50)
      level: 'hard',
      params: { case: 'double_carry', a: 58, b: 57 },
      fingerprint: 'MATH.ARITH.ADD.2DIGIT|57+58',
    });
  });

  it('builds a code item with its tests, the sandbox settings and a reference solution (golden)', () => {
    const item = generateItem(shippedSkill('PROG.PYTHON.STRING.COUNT'), { sectionId: 'writing', caseName: 'count_chars' }, createRandom('golden'));
    expect(item).toEqual({
      skillId: 'PROG.PYTHON.STRING.COUNT',
      domain: 'Programming > Python > Writing code',
      sectionId: 'writing',
      kind: 'code',
      stem: "Write a Python function count_chars(s: str) -> int that returns the number of characters in the string s. For example, count_chars('moon') returns 4.",
      correctAnswer: 'def count_chars(s: str) -> int:\n    return len(s)\n',
      difficulty: -0.5,
      level: 'easy',
      params: { case: 'count_chars', task: 'count_chars', inputs: [['moon'], ['Umbrella mirror'], [''], ['ελληνικά'], ['カタカナ💡🎉'], ['🍕😀'], ['señor'], ['안녕'], ['garden']] },
      fingerprint: expect.stringMatching(/^PROG\.PYTHON\.STRING\.COUNT\|count_chars:/),
      code: {
        language: 'python',
        functionName: 'count_chars',
        starterCode: 'def count_chars(s: str) -> int:\n    # Your code here\n    pass\n',
        // The first two are the visible examples (the stem quotes the first).
        tests: [
          { args: ['moon'], expected: 4, visible: true },
          { args: ['Umbrella mirror'], expected: 15, visible: true },
          { args: [''], expected: 0 },
          { args: ['ελληνικά'], expected: 8 },
          { args: ['カタカナ💡🎉'], expected: 6 },
          { args: ['🍕😀'], expected: 2 },
          { args: ['señor'], expected: 5 },
          { args: ['안녕'], expected: 2 },
          { args: ['garden'], expected: 6 },
        ],
        timeoutSeconds: 5,
        partialCredit: true,
      },
    });
  });

  it('takes distractors round-robin over the strategies before a second one from any strategy', () => {
    const skill = variantOfAddition({ strategies: ['off_by_ten', 'off_by_one'], optionCount: 3 });
    for (let seed = 0; seed < 50; seed++) {
      const item = generateItem(skill, { sectionId: 'addition', caseName: 'no_carry' }, createRandom(seed));
      const answer = Number(item.correctAnswer);
      const others = (item.options ?? []).map(Number).filter((option) => option !== answer);
      expect(others.map((option) => Math.abs(option - answer)).sort((x, y) => x - y)).toEqual([1, 10]);
    }
  });

  // Issue 25 item 1: a wrong option always stands for a named misconception — never a filler value.
  it('draws another problem when its strategies give too few distinct options, and fails loudly when none can', () => {
    // forgot_carry gives nothing without a carry, off_by_one two values: three options need a
    // carry (the ones sum ≥ 10), so every item drawn has one.
    const carrying = variantOfAddition({ strategies: ['forgot_carry', 'off_by_one'], optionCount: 4 });
    for (let seed = 0; seed < 50; seed++) {
      const item = generateItem(carrying, { sectionId: 'addition', caseName: 'single_carry' }, createRandom(seed));
      const [a, b] = [Number(item.params['a']), Number(item.params['b'])];
      const answer = a + b;
      expect((a % 10) + (b % 10), JSON.stringify(item.params)).toBeGreaterThanOrEqual(10);
      expect([...(item.options ?? [])].sort()).toEqual([String(answer - 10), String(answer - 1), String(answer), String(answer + 1)].sort());
    }
    const impossible = variantOfAddition({ strategies: ['off_by_one'], optionCount: 6 });
    expect(() => generateItem(impossible, { sectionId: 'addition', caseName: 'no_carry' }, createRandom('fill'))).toThrow(
      /no unused item of case "no_carry" in 500 draws \(500 had too few distinct distractors from the named misconceptions\)/,
    );
  });

  it('skips fingerprints in the exclusion set', () => {
    const request = { sectionId: 'addition', caseName: 'single_carry' };
    const first = generateItem(addition(), request, createRandom('exclude'));
    const second = generateItem(addition(), request, createRandom('exclude'), new Set([first.fingerprint]));
    expect(second.fingerprint).not.toBe(first.fingerprint);
  });

  it('fails loudly, with a GenerationError, when the pool is used up', () => {
    // Operands 10–11 without carry: 10 + 10, 10 + 11, 11 + 11 — three problems in all.
    const tiny = variantOfAddition({ operands: { min: 10, max: 11 } });
    const seen = new Set<string>();
    const random = createRandom('tiny');
    for (let index = 0; index < 3; index++) seen.add(generateItem(tiny, { sectionId: 's', caseName: 'no_carry' }, random, seen).fingerprint);
    expect(seen.size).toBe(3);
    expect(() => generateItem(tiny, { sectionId: 's', caseName: 'no_carry' }, random, seen)).toThrow(GenerationError);
  });
});

describe('toLearnerItem', () => {
  it('keeps what is presented and drops the answer, the parameters and the tests', () => {
    const choice = generateItem(addition(), { sectionId: 'addition', caseName: 'double_carry' }, createRandom('golden'));
    expect(toLearnerItem(choice)).toEqual({ sectionId: 'addition', kind: 'multiple_choice', stem: 'Find the sum of 58 and 57.', options: ['115', '105', '151', '116'] });
    const code = generateItem(shippedSkill('PROG.PYTHON.STRING.COUNT'), { sectionId: 'writing', caseName: 'count_vowels' }, createRandom('view'));
    expect(toLearnerItem(code)).toEqual({
      sectionId: 'writing',
      kind: 'code',
      stem: code.stem,
      code: { language: 'python', functionName: 'count_vowels', starterCode: 'def count_vowels(s: str) -> int:\n    # Your code here\n    pass\n' },
    });
    expect(JSON.stringify(toLearnerItem(code))).not.toContain('expected');
  });
});
