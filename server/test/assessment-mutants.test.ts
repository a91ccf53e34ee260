/**
 * Issue 25 item 1 — an assessment cannot pass a wrong program. For every shipped code skill,
 * over 200 seeds per case, the item's generated tests are run in the real sandbox (Pyodide)
 * against the reference solution and every mutant the skill blueprint names for that case: the
 * reference must pass every test, each mutant must fail at least one.
 *
 * Running each program on each seed as its own sandbox run would take a fresh interpreter per
 * run (~0.2 s each: 200 seeds × 3 cases × 7 programs ≈ 14 minutes on two threads), so the runs
 * are batched: one run takes up to 100 seeds, each test of it being one seed, and a small judge
 * function executes the reference and the mutants on that seed's inputs and returns the matrix
 * of what each returned. The host compares every value with the expected one using the
 * sandbox's own comparison (`jsonEqual`), so "fails a test" means what it means when scoring.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedSkill } from '../src/core/assessment/catalog';
import { scoreCode } from '../src/core/assessment/code-scoring';
import type { GeneratedItem } from '../src/core/assessment/item-builder';
import { generateItem } from '../src/core/assessment/item-builder';
import { createRandom } from '../src/core/assessment/random';
import { createSandbox, type Sandbox } from '../src/sandbox';
import { jsonEqual } from '../src/sandbox/json-equal';
import { shippedCatalog } from './support/assessment-support';

const seedsPerCase = 200;
/** Seeds per sandbox run (the sandbox takes at most 100 tests a run). */
const seedsPerRun = 100;

/** Runs each program of `programs` on each argument list of `calls`; never lets an exception out. */
const judge = `
def judge(programs, function_name, calls):
    results = []
    for source in programs:
        namespace = {}
        try:
            exec(compile(source, '<program>', 'exec'), namespace)
            function = namespace[function_name]
        except Exception as error:
            results.append({'load_error': type(error).__name__ + ': ' + str(error)})
            continue
        outputs = []
        for args in calls:
            try:
                outputs.append({'value': function(*args)})
            except Exception as error:
                outputs.append({'error': type(error).__name__ + ': ' + str(error)})
        results.append({'outputs': outputs})
    return results
`;

type Verdict = { load_error: string } | { outputs: Array<{ value: unknown } | { error: string }> };

interface Program {
  name: string;
  code: string;
}

let sandbox: Sandbox;

beforeAll(async () => {
  // One thread is enough for six runs; a generous limit, as each run holds a hundred seeds.
  sandbox = createSandbox({ timeoutMs: 60_000, pythonWorkers: 1, javascriptWorkers: 1 });
}, 120_000);
afterAll(async () => {
  await sandbox.close();
});

const codeSkills = [...shippedCatalog().skills.values()].filter((skill) => skill.blueprint.presentation.itemType === 'code');

/** Which tests each program failed, per seed: `failed[seed][program]` lists test indices. */
async function failedTests(items: GeneratedItem[], programs: Program[]): Promise<number[][][]> {
  const failed: number[][][] = [];
  for (let start = 0; start < items.length; start += seedsPerRun) {
    const batch = items.slice(start, start + seedsPerRun);
    const run = await sandbox.run({
      language: 'python',
      code: judge,
      functionName: 'judge',
      tests: batch.map((item) => ({ args: [programs.map((program) => program.code), item.code!.functionName, item.code!.tests.map((test) => test.args)], expected: null })),
    });
    expect(run.error, JSON.stringify(run.error)).toBeUndefined();
    run.outcomes.forEach((outcome, index) => {
      const item = batch[index]!;
      const verdicts = outcome.actual as Verdict[];
      failed.push(
        verdicts.map((verdict) => {
          if ('load_error' in verdict) return item.code!.tests.map((_, testIndex) => testIndex);
          return verdict.outputs.flatMap((output, testIndex) => ('value' in output && jsonEqual(output.value, item.code!.tests[testIndex]!.expected) ? [] : [testIndex]));
        }),
      );
    });
  }
  return failed;
}

function itemsOf(skill: LoadedSkill, caseName: string): GeneratedItem[] {
  return Array.from({ length: seedsPerCase }, (_, seed) => generateItem(skill, { sectionId: 'mutants', caseName }, createRandom(`mutants|${skill.blueprint.id}|${caseName}|${seed}`)));
}

describe.each(codeSkills.map((skill) => [skill.blueprint.id, skill] as const))('%s: the tests of every seed reject every mutant', (_id, skill) => {
  const evaluation = skill.blueprint.evaluation;
  const mutants = evaluation.method === 'test_execution' ? evaluation.mutants : [];

  it.each(Object.keys(skill.blueprint.difficultyFactors.cases))(
    `case %s: over ${seedsPerCase} seeds the reference passes every test and each named mutant fails at least one`,
    async (caseName) => {
      const caseMutants = mutants.filter((mutant) => mutant.case === caseName);
      expect(caseMutants.length).toBeGreaterThan(0);
      const items = itemsOf(skill, caseName);
      const programs: Program[] = [{ name: 'reference', code: items[0]!.correctAnswer }, ...caseMutants];
      for (const item of items) expect(item.correctAnswer).toBe(programs[0]!.code);

      const failed = await failedTests(items, programs);
      expect(failed).toHaveLength(seedsPerCase);
      const problems: string[] = [];
      failed.forEach((byProgram, seed) => {
        const inputs = JSON.stringify(items[seed]!.code!.tests.map((test) => test.args));
        if (byProgram[0]!.length > 0) problems.push(`seed ${seed}: the reference fails tests ${byProgram[0]!.join(', ')} of ${inputs}`);
        programs.slice(1).forEach((program, index) => {
          if (byProgram[index + 1]!.length === 0) problems.push(`seed ${seed}: mutant ${program.name} passes every test of ${inputs}`);
        });
      });
      expect(problems.slice(0, 5)).toEqual([]);
    },
    180_000,
  );
});

describe('issue 25 regression: the learner’s count_vowels', () => {
  it("counting only 'aeiou' is never scored Correct, through the scoring path itself", async () => {
    const skill = shippedCatalog().getSkill('PROG.PYTHON.STRING.COUNT')!;
    const learnerCode = "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiou')\n";
    for (let seed = 0; seed < 5; seed++) {
      const item = generateItem(skill, { sectionId: 'writing', caseName: 'count_vowels' }, createRandom(`issue-25|${seed}`));
      const score = await scoreCode(sandbox, item.code!, { code: learnerCode, owner: 'issue-25' });
      expect(score.testsTotal).toBe(item.code!.tests.length);
      expect(score.testsPassed!, JSON.stringify(item.code!.tests)).toBeLessThan(score.testsTotal!);
      expect(score.credit).toBeLessThan(1);
    }
  }, 120_000);
});
