import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlueprintSummary } from '@tutorloop/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlueprintSource } from './catalog';
import { BlueprintError, buildCatalog, loadCatalog, summarizeBlueprint } from './catalog';
import { shippedCatalog } from '../../../test/support/assessment-support';

/** A valid skill file, as an object the tests break one field at a time. */
function additionSkill(): Record<string, any> {
  return {
    id: 'TEST.ADD',
    domain: 'Mathematics > Arithmetic > Addition',
    skillStatement: 'Add two 2-digit numbers.',
    cognitiveLevel: 'apply',
    generator: { name: 'addition-2digit', constraints: { operands: { min: 10, max: 99 } } },
    difficultyFactors: {
      base: -1,
      cases: { no_carry: { level: 'easy', weight: 0 }, single_carry: { level: 'medium', weight: 1 }, double_carry: { level: 'hard', weight: 2 } },
      features: { large_operands: 0.2 },
    },
    presentation: {
      itemType: 'multiple_choice',
      optionCount: 4,
      distractorStrategies: ['forgot_carry', 'off_by_ten', 'off_by_one'],
      misconceptions: { forgot_carry: 'Forgets to carry the ten.', off_by_ten: 'A place-value slip.', off_by_one: 'A counting slip.' },
      stemTemplates: ['What is {a} + {b}?'],
    },
    evaluation: { method: 'exact_match' },
    benchmarks: { expectedSeconds: 15, targetAccuracy: 0.85 },
  };
}

function quiz(): Record<string, any> {
  return {
    id: 'TEST-QUIZ',
    title: 'Test quiz',
    description: 'Three additions.',
    timeLimitMinutes: 5,
    selection: 'random_from_pool',
    totalItems: 3,
    sections: [
      { id: 'add', title: 'Addition', domain: 'Mathematics > Arithmetic > Addition', skills: ['TEST.ADD'], itemCount: 3, difficultyDistribution: { easy: 1, medium: 1, hard: 1 } },
    ],
  };
}

const skillFile = (value: unknown, path = 'server/blueprints/skills/add.json'): BlueprintSource => ({ kind: 'skill', path, text: JSON.stringify(value) });
const assessmentFile = (value: unknown, path = 'server/blueprints/assessments/quiz.json'): BlueprintSource => ({ kind: 'assessment', path, text: JSON.stringify(value) });

/** The problems reported for a set of files (none when they load). */
function problemsOf(sources: BlueprintSource[]): string[] {
  try {
    buildCatalog(sources);
    return [];
  } catch (error) {
    if (error instanceof BlueprintError) return error.problems;
    throw error;
  }
}

function skillWith(change: (skill: Record<string, any>) => void): BlueprintSource[] {
  const skill = additionSkill();
  change(skill);
  return [skillFile(skill)];
}

function quizWith(change: (assessment: Record<string, any>) => void): BlueprintSource[] {
  const assessment = quiz();
  change(assessment);
  return [skillFile(additionSkill()), assessmentFile(assessment)];
}

describe('the shipped catalog', () => {
  it('loads every skill and assessment blueprint', () => {
    const catalog = shippedCatalog();
    expect([...catalog.skills.keys()].sort()).toEqual([
      'MATH.ARITH.ADD.2DIGIT',
      'MATH.ARITH.DIV.EXACT',
      'MATH.ARITH.MUL.BASIC',
      'MATH.ARITH.SUB.2DIGIT',
      'NET.IPV4.SUBNET.BROADCAST',
      'NET.IPV4.SUBNET.NETWORK',
      'PROG.PYTHON.STRING.COUNT',
      'PROG.PYTHON.STRING.LEN',
    ]);
    expect(catalog.summaries().map((summary) => [summary.id, summary.selection, summary.totalItems])).toEqual([
      ['MATH-FUNDAMENTALS-L1', 'random_from_pool', 20],
      ['NETWORKING-IPV4-L1', 'adaptive', 10],
      ['PYTHON-STRINGS-L1', 'fixed', 6],
    ]);
  });

  it('summarizes MATH-FUNDAMENTALS-L1 for GET /api/blueprints (SPEC §4.3: 4 sections × 5 items, 30 minutes)', () => {
    const section = (id: string, title: string) => ({ id, title, domain: `Mathematics > Arithmetic > ${title}`, itemCount: 5 });
    expect(summarizeBlueprint(shippedCatalog(), 'MATH-FUNDAMENTALS-L1')).toEqual({
      id: 'MATH-FUNDAMENTALS-L1',
      title: 'Mathematics Fundamentals — Level 1',
      description: expect.any(String),
      domains: ['Addition', 'Subtraction', 'Multiplication', 'Division'].map((title) => `Mathematics > Arithmetic > ${title}`),
      sections: [
        section('addition', 'Addition'),
        section('subtraction', 'Subtraction'),
        section('multiplication', 'Multiplication'),
        section('division', 'Division'),
      ],
      totalItems: 20,
      timeLimitSeconds: 1800,
      selection: 'random_from_pool',
      itemKinds: ['multiple_choice'],
    });
  });

  it('produces summaries that satisfy the shared schema, the Python one with both item kinds', () => {
    for (const summary of shippedCatalog().summaries()) expect(BlueprintSummary.parse(summary)).toEqual(summary);
    expect(summarizeBlueprint(shippedCatalog(), 'PYTHON-STRINGS-L1').itemKinds).toEqual(['multiple_choice', 'code']);
  });

  it('throws on an unknown assessment id', () => {
    expect(() => summarizeBlueprint(shippedCatalog(), 'NOPE')).toThrow('unknown assessment blueprint "NOPE"');
    expect(shippedCatalog().getAssessment('NOPE')).toBeUndefined();
  });
});

describe('skill blueprint validation', () => {
  it('accepts the valid fixture', () => {
    expect(problemsOf([skillFile(additionSkill()), assessmentFile(quiz())])).toEqual([]);
  });

  it('names the file and the field path of a schema error', () => {
    expect(problemsOf(skillWith((skill) => (skill.presentation.optionCount = 'four')))).toEqual([
      'server/blueprints/skills/add.json: presentation.optionCount: Invalid input: expected number, received string',
    ]);
  });

  it('rejects misspelt keys instead of ignoring them', () => {
    const problems = problemsOf(skillWith((skill) => (skill.benchmarks = { expectedSecs: 15, targetAccuracy: 0.85 })));
    expect(problems).toContain('server/blueprints/skills/add.json: benchmarks: Unrecognized key: "expectedSecs"');
  });

  it('rejects an unknown generator', () => {
    expect(problemsOf(skillWith((skill) => (skill.generator.name = 'eval')))).toEqual([
      expect.stringMatching(/^server\/blueprints\/skills\/add\.json: generator\.name: unknown generator "eval" \(known: addition-2digit, /),
    ]);
  });

  it('rejects an unknown distractor strategy, naming its index', () => {
    expect(
      problemsOf(
        skillWith((skill) => {
          skill.presentation.distractorStrategies.push('magic');
          skill.presentation.misconceptions.magic = 'Believes in magic.';
        }),
      ),
    ).toEqual([
      'server/blueprints/skills/add.json: presentation.distractorStrategies[3]: unknown distractor strategy "magic" for generator "addition-2digit" (known: forgot_carry, column_concat, off_by_one, off_by_ten, digit_swap, wrong_operation)',
    ]);
  });

  // Issue 25 item 1: every wrong option stands for a named misconception.
  it('needs a misconception for every distractor strategy, and none for a strategy not listed', () => {
    expect(problemsOf(skillWith((skill) => delete skill.presentation.misconceptions.off_by_ten))).toEqual([
      'server/blueprints/skills/add.json: presentation.misconceptions: no misconception named for distractor strategy "off_by_ten": every wrong option must stand for a named mistake',
    ]);
    expect(problemsOf(skillWith((skill) => (skill.presentation.misconceptions.digit_swap = 'Swaps digits.')))).toEqual([
      'server/blueprints/skills/add.json: presentation.misconceptions.digit_swap: describes strategy "digit_swap", which distractorStrategies does not list',
    ]);
    expect(problemsOf(skillWith((skill) => (skill.presentation.misconceptions.off_by_one = '  ')))).toEqual([
      'server/blueprints/skills/add.json: presentation.misconceptions.off_by_one: Too small: expected string to have >=1 characters',
    ]);
  });

  it('refuses strategies that cannot give enough distinct wrong options, rather than filling in values no misconception explains', () => {
    const problems = problemsOf(
      skillWith((skill) => {
        skill.presentation.distractorStrategies = ['off_by_one'];
        skill.presentation.misconceptions = { off_by_one: 'A counting slip.' };
      }),
    );
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).toMatch(/add\.json: generator\.constraints: cannot generate case "\w+": .*too few distinct distractors from the named misconceptions/);
  });

  it('rejects unknown cases, features and stem placeholders', () => {
    const problems = problemsOf(
      skillWith((skill) => {
        skill.difficultyFactors.cases.triple_carry = { level: 'hard', weight: 3 };
        skill.difficultyFactors.features.font_size = 0;
        skill.presentation.stemTemplates.push('What is {a} + {c}?');
      }),
    );
    expect(problems).toEqual([
      'server/blueprints/skills/add.json: difficultyFactors.cases.triple_carry: unknown case "triple_carry" for generator "addition-2digit" (known: no_carry, single_carry, double_carry)',
      'server/blueprints/skills/add.json: difficultyFactors.features.font_size: unknown feature "font_size" for generator "addition-2digit" (known: large_operands)',
      'server/blueprints/skills/add.json: presentation.stemTemplates[1]: unknown placeholder "{c}" for generator "addition-2digit" (known: a, b)',
    ]);
  });

  it('rejects constraints the generator does not accept', () => {
    expect(problemsOf(skillWith((skill) => (skill.generator.constraints.operands.max = 150)))).toEqual([
      'server/blueprints/skills/add.json: generator.constraints.operands: must lie within 10–99',
    ]);
  });

  it('rejects constraints that leave a case impossible, at load rather than mid-session', () => {
    const problems = problemsOf(skillWith((skill) => (skill.generator.constraints.operands = { min: 10, max: 14 })));
    expect(problems).toEqual([
      expect.stringMatching(/^server\/blueprints\/skills\/add\.json: generator\.constraints: cannot generate case "single_carry": /),
      expect.stringMatching(/: generator\.constraints: cannot generate case "double_carry": /),
    ]);
  });

  it('rejects overlapping difficulty levels and a mismatched item type or evaluation', () => {
    const problems = problemsOf(
      skillWith((skill) => {
        skill.difficultyFactors.cases.single_carry.weight = 0.1;
        const mutants = ['no_carry', 'single_carry', 'double_carry'].map((caseName) => ({ name: 'subtracts', case: caseName, misconception: 'Subtracts.', code: 'def add(a, b):\n    return a - b\n' }));
        skill.evaluation = { method: 'test_execution', partialCredit: true, timeoutSeconds: 5, mutants };
      }),
    );
    expect(problems).toEqual([
      'server/blueprints/skills/add.json: evaluation.method: multiple_choice items are scored by exact_match',
      expect.stringContaining('add.json: difficultyFactors.cases: level "easy" reaches -0.8 but level "medium" starts at -0.9'),
    ]);
  });

  it('rejects duplicate ids, naming both files', () => {
    const problems = problemsOf([skillFile(additionSkill(), 'skills/a.json'), skillFile(additionSkill(), 'skills/b.json')]);
    expect(problems).toEqual(['skills/b.json: id: duplicate skill id "TEST.ADD" (also in skills/a.json)']);
  });

  it('reports invalid JSON and collects the problems of every file', () => {
    const problems = problemsOf([{ kind: 'skill', path: 'skills/broken.json', text: '{ "id": ' }, ...skillWith((skill) => delete skill.domain)]);
    expect(problems).toEqual([
      expect.stringMatching(/^skills\/broken\.json: \(root\): invalid JSON: /),
      'server/blueprints/skills/add.json: domain: Invalid input: expected string, received undefined',
    ]);
  });
});

describe('code skill validation: mutants (issue 25 item 1)', () => {
  const path = 'server/blueprints/skills/python-string-count.json';
  /** The shipped code skill, as an object a test breaks one field at a time. */
  function codeSkill(change: (skill: Record<string, any>) => void): BlueprintSource[] {
    const skill = structuredClone(shippedCatalog().getSkill('PROG.PYTHON.STRING.COUNT')!.blueprint) as Record<string, any>;
    change(skill);
    return [skillFile(skill, path)];
  }
  const countVowelsMutant = { name: 'lowercase_only', case: 'count_vowels', misconception: 'Counts only lower-case vowels.', code: "def count_vowels(s: str) -> int:\n    return sum(1 for c in s if c in 'aeiou')\n" };

  it('accepts the shipped code skill', () => {
    expect(problemsOf(codeSkill(() => {}))).toEqual([]);
  });

  it('needs at least one mutant for every case the skill uses', () => {
    expect(problemsOf(codeSkill((skill) => (skill.evaluation.mutants = [countVowelsMutant])))).toEqual([
      `${path}: evaluation.mutants: no mutant for case "count_chars": name at least one plausible wrong solution the tests must reject`,
      `${path}: evaluation.mutants: no mutant for case "count_char": name at least one plausible wrong solution the tests must reject`,
    ]);
    expect(problemsOf(codeSkill((skill) => delete skill.evaluation.mutants))).toEqual([`${path}: evaluation.mutants: Invalid input: expected array, received undefined`]);
  });

  it('rejects a mutant of an unknown case, a duplicate name, a badly formed name', () => {
    const problems = problemsOf(
      codeSkill((skill) => {
        skill.evaluation.mutants.push({ ...countVowelsMutant, case: 'count_words' });
        skill.evaluation.mutants.push(countVowelsMutant);
      }),
    );
    const count = 19; // the shipped mutants come first
    expect(problems).toEqual([
      `${path}: evaluation.mutants[${count}].case: unknown case "count_words" (the skill uses: count_chars, count_char, count_vowels)`,
      `${path}: evaluation.mutants[${count + 1}].name: duplicate mutant "lowercase_only" for case "count_vowels"`,
    ]);
    expect(problemsOf(codeSkill((skill) => (skill.evaluation.mutants[0].name = 'Lower Case')))).toEqual([
      `${path}: evaluation.mutants[0].name: use lower-case words joined by underscores, e.g. lowercase_only`,
    ]);
  });

  it('rejects mutant code that does not define the case’s function, or is the reference itself', () => {
    const problems = problemsOf(
      codeSkill((skill) => {
        skill.evaluation.mutants[0].code = 'def count(s):\n    return 0\n';
        skill.evaluation.mutants[1].code = 'def count_chars(s: str) -> int:\n\n    return len(s)   \n';
      }),
    );
    expect(problems).toEqual([
      `${path}: evaluation.mutants[0].code: does not define count_chars(…), the function of case "count_chars"`,
      `${path}: evaluation.mutants[1].code: is the reference solution itself`,
    ]);
  });
});

describe('assessment blueprint validation', () => {
  const file = 'server/blueprints/assessments/quiz.json';

  it('rejects a reference to an unknown skill', () => {
    expect(problemsOf(quizWith((assessment) => assessment.sections[0].skills.push('MATH.NOPE')))).toEqual([
      `${file}: sections[0].skills[1]: unknown skill "MATH.NOPE"`,
    ]);
  });

  it('rejects a skill from another domain', () => {
    expect(problemsOf(quizWith((assessment) => (assessment.sections[0].domain = 'Networking')))).toEqual([
      `${file}: sections[0].skills[0]: skill "TEST.ADD" belongs to domain "Mathematics > Arithmetic > Addition", not "Networking"`,
    ]);
  });

  it('checks item counts against the total and the difficulty distribution', () => {
    const problems = problemsOf(
      quizWith((assessment) => {
        assessment.totalItems = 4;
        assessment.sections[0].difficultyDistribution = { easy: 3, hard: 1 };
      }),
    );
    expect(problems).toEqual([
      `${file}: totalItems: is 4 but the sections hold 3 items`,
      `${file}: sections[0].difficultyDistribution: plans 4 items but itemCount is 3`,
    ]);
  });

  it('needs a seed for a fixed form and no distribution for adaptive selection', () => {
    expect(problemsOf(quizWith((assessment) => (assessment.selection = 'fixed')))).toEqual([`${file}: seed: a fixed form needs a seed`]);
    expect(problemsOf(quizWith((assessment) => (assessment.selection = 'adaptive')))).toEqual([
      `${file}: sections[0].difficultyDistribution: adaptive selection targets ability; remove the distribution`,
    ]);
  });

  it('rejects a distribution level no skill of the section can produce', () => {
    const skill = additionSkill();
    delete skill.difficultyFactors.cases.double_carry;
    expect(problemsOf([skillFile(skill), assessmentFile(quiz())])).toEqual([`${file}: sections[0].difficultyDistribution.hard: no skill of the section has a case at level "hard"`]);
  });
});

describe('loadCatalog', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function writeBlueprints(skill: unknown, assessment: unknown): string {
    dir = mkdtempSync(join(tmpdir(), 'blueprints-'));
    mkdirSync(join(dir, 'skills'));
    mkdirSync(join(dir, 'assessments'));
    writeFileSync(join(dir, 'skills', 'add.json'), JSON.stringify(skill));
    writeFileSync(join(dir, 'assessments', 'quiz.json'), JSON.stringify(assessment));
    return dir;
  }

  it('reads skills/ and assessments/ of the given folder', () => {
    const catalog = loadCatalog(writeBlueprints(additionSkill(), quiz()));
    expect([...catalog.skills.keys()]).toEqual(['TEST.ADD']);
    expect([...catalog.assessments.keys()]).toEqual(['TEST-QUIZ']);
  });

  it('throws a BlueprintError naming the file on disk and the field', () => {
    const skill = additionSkill();
    skill.presentation.optionCount = 9;
    const folder = writeBlueprints(skill, quiz());
    expect(() => loadCatalog(folder)).toThrow(BlueprintError);
    expect(() => loadCatalog(folder)).toThrow(`${join(folder, 'skills', 'add.json')}: presentation.optionCount: Too big: expected number to be <=6`);
  });
});
