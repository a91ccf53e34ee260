/**
 * The blueprint catalog: skill and assessment blueprints read from JSON files, validated
 * against their schemas, against the generator registry and against each other. Any
 * problem fails the load with messages of the form `<file>: <field path>: <what is wrong>`.
 * `buildCatalog` is pure (sources in, catalog out); only `loadCatalog` touches the disk.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import type { BlueprintSummary } from '@tutorloop/shared';
import type { z } from 'zod';
import { serverPaths } from '../../paths';
import type { DifficultyLevel, Mutant } from './blueprint-schema';
import { AssessmentBlueprint, SkillBlueprint, difficultyLevels } from './blueprint-schema';
import { casesAtLevel, levelOrderProblems } from './difficulty';
import type { BoundGenerator, Generator } from './generator';
import { generatorRegistry } from './generators/registry';
import { generateItem, type GeneratedItem } from './item-builder';
import { createRandom } from './random';
import { placeholdersIn } from './template';

/** A validated skill blueprint with its generator bound to the blueprint's constraints. */
export interface LoadedSkill {
  blueprint: SkillBlueprint;
  generator: BoundGenerator;
}

export interface Catalog {
  readonly skills: ReadonlyMap<string, LoadedSkill>;
  readonly assessments: ReadonlyMap<string, AssessmentBlueprint>;
  /** One summary per assessment, ordered by id (`GET /api/blueprints`). */
  summaries(): BlueprintSummary[];
  getAssessment(id: string): AssessmentBlueprint | undefined;
  getSkill(id: string): LoadedSkill | undefined;
}

/** The text of one blueprint file; `path` is only used in error messages. */
export interface BlueprintSource {
  kind: 'skill' | 'assessment';
  path: string;
  text: string;
}

/** Every problem found in the blueprint files, one line each. */
export class BlueprintError extends Error {
  override readonly name = 'BlueprintError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** server/blueprints, next to server/src (and server/dist). */
export const defaultBlueprintDir = serverPaths.blueprints;

/** Reads `<dir>/skills/*.json` and `<dir>/assessments/*.json`; throws a BlueprintError when any is invalid. */
export function loadCatalog(dir: string = defaultBlueprintDir): Catalog {
  const read = (kind: BlueprintSource['kind'], folder: string): BlueprintSource[] => {
    const path = join(dir, folder);
    if (!existsSync(path)) return [];
    return readdirSync(path)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({ kind, path: displayPath(join(path, name)), text: readFileSync(join(path, name), 'utf8') }));
  };
  return buildCatalog([...read('skill', 'skills'), ...read('assessment', 'assessments')]);
}

export function buildCatalog(sources: readonly BlueprintSource[]): Catalog {
  const problems: string[] = [];
  const skills = new Map<string, LoadedSkill>();
  const assessments = new Map<string, AssessmentBlueprint>();
  const origin = new Map<string, string>();

  const claimId = (table: 'skill' | 'assessment', id: string, path: string): boolean => {
    const key = `${table}:${id}`;
    const first = origin.get(key);
    if (first !== undefined) {
      problems.push(`${path}: id: duplicate ${table} id "${id}" (also in ${first})`);
      return false;
    }
    origin.set(key, path);
    return true;
  };

  for (const source of sources.filter((candidate) => candidate.kind === 'skill')) {
    const report = (path: PropertyKey[], message: string) => problems.push(`${source.path}: ${formatPath(path)}: ${message}`);
    const blueprint = parseJson(source, SkillBlueprint, report);
    if (blueprint === undefined) continue;
    const generator = checkSkill(blueprint, report);
    if (generator !== undefined && claimId('skill', blueprint.id, source.path)) skills.set(blueprint.id, { blueprint, generator });
  }

  for (const source of sources.filter((candidate) => candidate.kind === 'assessment')) {
    const report = (path: PropertyKey[], message: string) => problems.push(`${source.path}: ${formatPath(path)}: ${message}`);
    const blueprint = parseJson(source, AssessmentBlueprint, report);
    if (blueprint === undefined) continue;
    const before = problems.length;
    checkAssessment(blueprint, skills, report);
    if (problems.length === before && claimId('assessment', blueprint.id, source.path)) assessments.set(blueprint.id, blueprint);
  }

  if (problems.length > 0) throw new BlueprintError(problems);
  const catalog: Catalog = {
    skills,
    assessments,
    summaries: () => [...assessments.keys()].sort().map((id) => summarizeBlueprint(catalog, id)),
    getAssessment: (id) => assessments.get(id),
    getSkill: (id) => skills.get(id),
  };
  return catalog;
}

/** The learner-facing summary of an assessment blueprint (shared `BlueprintSummary`). */
export function summarizeBlueprint(catalog: Catalog, id: string): BlueprintSummary {
  const blueprint = catalog.getAssessment(id);
  if (blueprint === undefined) throw new Error(`unknown assessment blueprint "${id}"`);
  const kinds = blueprint.sections.flatMap((section) =>
    section.skills.map((skillId) => catalog.getSkill(skillId)?.blueprint.presentation.itemType ?? 'multiple_choice'),
  );
  return {
    id: blueprint.id,
    title: blueprint.title,
    description: blueprint.description,
    domains: unique(blueprint.sections.map((section) => section.domain)),
    sections: blueprint.sections.map(({ id: sectionId, title, domain, itemCount }) => ({ id: sectionId, title, domain, itemCount })),
    totalItems: blueprint.totalItems,
    timeLimitSeconds: blueprint.timeLimitMinutes * 60,
    selection: blueprint.selection,
    itemKinds: unique(kinds),
  };
}

type Report = (path: PropertyKey[], message: string) => void;

function parseJson<T>(source: BlueprintSource, schema: z.ZodType<T>, report: Report): T | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(source.text);
  } catch (error) {
    report([], `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) report(issue.path, issue.message);
  return undefined;
}

/** Checks a parsed skill against its generator; returns the bound generator when all is well. */
function checkSkill(blueprint: SkillBlueprint, report: Report): BoundGenerator | undefined {
  const generator = generatorRegistry.get(blueprint.generator.name);
  if (generator === undefined) {
    report(['generator', 'name'], `unknown generator "${blueprint.generator.name}" (known: ${[...generatorRegistry.keys()].join(', ')})`);
    return undefined;
  }
  let valid = true;
  const fail: Report = (path, message) => {
    valid = false;
    report(path, message);
  };
  const bound = generator.bind(blueprint.generator.constraints);
  if (!bound.ok) for (const issue of bound.issues) fail(['generator', 'constraints', ...issue.path], issue.message);

  const { presentation, evaluation, difficultyFactors } = blueprint;
  if (presentation.itemType !== generator.kind) {
    fail(['presentation', 'itemType'], `generator "${generator.name}" makes ${generator.kind} items`);
  }
  const expectedMethod = generator.kind === 'code' ? 'test_execution' : 'exact_match';
  if (evaluation.method !== expectedMethod) fail(['evaluation', 'method'], `${generator.kind} items are scored by ${expectedMethod}`);

  for (const caseName of Object.keys(difficultyFactors.cases)) {
    if (!generator.cases.includes(caseName)) fail(['difficultyFactors', 'cases', caseName], unknownName('case', caseName, generator, generator.cases));
  }
  for (const feature of Object.keys(difficultyFactors.features)) {
    if (!generator.features.includes(feature)) {
      fail(['difficultyFactors', 'features', feature], unknownName('feature', feature, generator, generator.features));
    }
  }
  for (const problem of levelOrderProblems(difficultyFactors)) fail(['difficultyFactors', 'cases'], problem);
  if (presentation.itemType === 'multiple_choice') {
    presentation.distractorStrategies.forEach((strategy, index) => {
      if (!generator.distractorStrategies.includes(strategy)) {
        fail(['presentation', 'distractorStrategies', index], unknownName('distractor strategy', strategy, generator, generator.distractorStrategies));
      }
      if (presentation.misconceptions[strategy] === undefined) {
        fail(['presentation', 'misconceptions'], `no misconception named for distractor strategy "${strategy}": every wrong option must stand for a named mistake`);
      }
    });
    for (const strategy of Object.keys(presentation.misconceptions)) {
      if (!presentation.distractorStrategies.includes(strategy)) {
        fail(['presentation', 'misconceptions', strategy], `describes strategy "${strategy}", which distractorStrategies does not list`);
      }
    }
  }
  if (evaluation.method === 'test_execution') checkMutantNames(evaluation.mutants, Object.keys(difficultyFactors.cases), fail);
  presentation.stemTemplates.forEach((template, index) => {
    for (const placeholder of placeholdersIn(template)) {
      if (!generator.placeholders.includes(placeholder)) {
        fail(['presentation', 'stemTemplates', index], unknownName('placeholder', `{${placeholder}}`, generator, generator.placeholders));
      }
    }
  });
  if (!valid || !bound.ok) return undefined;

  // A trial item per case: constraints that exclude a case fail here, at load, not mid-session.
  for (const caseName of Object.keys(difficultyFactors.cases)) {
    let item: GeneratedItem;
    try {
      item = generateItem({ blueprint, generator: bound.value }, { sectionId: 'catalog-check', caseName }, createRandom(`catalog-check|${blueprint.id}|${caseName}`));
    } catch (error) {
      fail(['generator', 'constraints'], `cannot generate case "${caseName}": ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (evaluation.method === 'test_execution' && item.code) checkMutantCode(evaluation.mutants, caseName, item.code.functionName, item.correctAnswer, fail);
  }
  return valid ? bound.value : undefined;
}

/** Mutants name a case the skill uses, each used case has at least one, names are unique per case. */
function checkMutantNames(mutants: readonly Mutant[], cases: readonly string[], fail: Report): void {
  const seen = new Set<string>();
  mutants.forEach((mutant, index) => {
    if (!cases.includes(mutant.case)) fail(['evaluation', 'mutants', index, 'case'], `unknown case "${mutant.case}" (the skill uses: ${cases.join(', ')})`);
    const key = `${mutant.case}/${mutant.name}`;
    if (seen.has(key)) fail(['evaluation', 'mutants', index, 'name'], `duplicate mutant "${mutant.name}" for case "${mutant.case}"`);
    seen.add(key);
  });
  for (const caseName of cases) {
    if (!mutants.some((mutant) => mutant.case === caseName)) {
      fail(['evaluation', 'mutants'], `no mutant for case "${caseName}": name at least one plausible wrong solution the tests must reject`);
    }
  }
}

/**
 * A mutant must define the function the case asks for (else it would fail every test for a
 * reason no learner has) and must differ from the reference. Checked as text: nothing from a
 * blueprint file is run by the server.
 */
function checkMutantCode(mutants: readonly Mutant[], caseName: string, functionName: string, reference: string, fail: Report): void {
  const normalized = (code: string) =>
    code
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '')
      .join('\n');
  mutants.forEach((mutant, index) => {
    if (mutant.case !== caseName) return;
    if (!mutant.code.split('\n').some((line) => line.startsWith(`def ${functionName}(`))) {
      fail(['evaluation', 'mutants', index, 'code'], `does not define ${functionName}(…), the function of case "${caseName}"`);
    }
    if (normalized(mutant.code) === normalized(reference)) fail(['evaluation', 'mutants', index, 'code'], 'is the reference solution itself');
  });
}

function checkAssessment(blueprint: AssessmentBlueprint, skills: ReadonlyMap<string, LoadedSkill>, report: Report): void {
  blueprint.sections.forEach((section, sectionIndex) => {
    const sectionSkills: LoadedSkill[] = [];
    section.skills.forEach((skillId, skillIndex) => {
      const skill = skills.get(skillId);
      const path = ['sections', sectionIndex, 'skills', skillIndex];
      if (skill === undefined) return report(path, `unknown skill "${skillId}"`);
      sectionSkills.push(skill);
      if (skill.blueprint.domain !== section.domain) {
        report(path, `skill "${skillId}" belongs to domain "${skill.blueprint.domain}", not "${section.domain}"`);
      }
    });
    const distribution = section.difficultyDistribution ?? {};
    for (const level of difficultyLevels) {
      if ((distribution[level] ?? 0) > 0 && !sectionSkills.some((skill) => supportsLevel(skill, level))) {
        report(['sections', sectionIndex, 'difficultyDistribution', level], `no skill of the section has a case at level "${level}"`);
      }
    }
  });
}

export function supportsLevel(skill: LoadedSkill, level: DifficultyLevel): boolean {
  return casesAtLevel(skill.blueprint.difficultyFactors, level).length > 0;
}

function unknownName(what: string, name: string, generator: Generator, known: readonly string[]): string {
  return `unknown ${what} "${name}" for generator "${generator.name}" (known: ${known.join(', ') || 'none'})`;
}

/** `presentation.stemTemplates[1]`; the root is `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`))
    .join('');
}

/** Relative to the working directory when inside it, as in `server/blueprints/skills/add.json`. */
function displayPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
