/**
 * Which item comes next — decided by the backend alone, never by the model (SPEC §4.3).
 *
 * - `fixed`: one form — the same structure for every learner and every attempt. The
 *   section's planned levels are served easiest first, skills in rotation, and each slot's
 *   case (what makes it easy or hard) comes from the blueprint's seed. The item's content —
 *   its numbers, strings and tests — is drawn from the session's source, so every attempt
 *   meets a parallel variant of each slot: the review of one attempt (which shows the
 *   correct answers) cannot be used to answer the next (exposure control, as parallel forms
 *   do in the IRT literature).
 * - `random_from_pool`: sections in order; within a section a level still owed is drawn,
 *   then a skill supporting it and a case of that level, all from the session's source.
 * - `adaptive`: the weakest domain still owing items, and of its section's candidate items
 *   the one whose difficulty is closest to the target θ̂ − 0.5 (irt.ts).
 *
 * `random` should be rebuilt per item from a stored session seed (`randomForItem(seed,
 * position)`), so the same answered list always yields the same next item.
 *
 * `earlier` is what the learner met in their earlier attempts at the same assessment: its
 * items' fingerprints and stems are avoided too, so a second attempt neither repeats an item's
 * content nor shows a stem the learner would recognise from the first review. When a case's
 * pool is too small for that, the item may repeat an earlier attempt's, never this one's.
 */
import type { AssessmentBlueprint, AssessmentSection } from './blueprint-schema';
import type { Catalog } from './catalog';
import { supportsLevel } from './catalog';
import { estimateAbilities } from './abilities';
import { casesAtLevel } from './difficulty';
import { GenerationError } from './generator';
import type { GeneratedItem } from './item-builder';
import { generateItem } from './item-builder';
import { adaptiveOffset } from './irt';
import type { Random } from './random';
import { createRandom, pickOne, shuffled } from './random';
import type { ResponseRecord } from './responses';
import { answeredIn, openSections, plannedLevels, remainingLevels, sectionSkills } from './section-plan';

/** Candidates generated per (skill, case) when adapting. */
const candidatesPerCase = 2;

/** What a learner met in earlier attempts at an assessment. */
export interface EarlierItems {
  fingerprints: ReadonlySet<string>;
  stems: ReadonlySet<string>;
}

const nothingEarlier: EarlierItems = { fingerprints: new Set(), stems: new Set() };

/** The next item, or null when the assessment has all its items. Never repeats an answered item. */
export function nextItem(
  catalog: Catalog,
  assessmentId: string,
  answered: readonly ResponseRecord[],
  random: Random,
  earlier: EarlierItems = nothingEarlier,
): GeneratedItem | null {
  const assessment = catalog.getAssessment(assessmentId);
  if (assessment === undefined) throw new Error(`unknown assessment blueprint "${assessmentId}"`);
  if (answered.length >= assessment.totalItems) return null;
  const open = openSections(assessment, answered);
  const answeredFingerprints = answered.map((record) => record.fingerprint);
  const [first] = open;
  if (first === undefined) return null;
  const pick = (exclusions: Exclusions): GeneratedItem => {
    switch (assessment.selection) {
      case 'fixed':
        return nextFixedItem(catalog, assessment, first, answered, random, exclusions);
      case 'random_from_pool':
        return nextPoolItem(catalog, first, answered, random, exclusions);
      case 'adaptive':
        return nextAdaptiveItem(catalog, assessment, open, answered, random, exclusions);
      default: {
        const unreachable: never = assessment.selection;
        throw new Error(`unknown selection ${String(unreachable)}`);
      }
    }
  };
  const withinAttempt: Exclusions = { fingerprints: new Set(answeredFingerprints), stems: new Set() };
  if (earlier.fingerprints.size === 0 && earlier.stems.size === 0) return pick(withinAttempt);
  // The fallback continues the same source, so it is as reproducible as the first choice.
  try {
    return pick({ fingerprints: new Set([...answeredFingerprints, ...earlier.fingerprints]), stems: earlier.stems });
  } catch (error) {
    if (!(error instanceof GenerationError)) throw error;
    return pick(withinAttempt);
  }
}

/** Fingerprints no new item may have, and stems it may not show. */
interface Exclusions {
  fingerprints: ReadonlySet<string>;
  stems: ReadonlySet<string>;
}

function nextFixedItem(
  catalog: Catalog,
  assessment: AssessmentBlueprint,
  section: AssessmentSection,
  answered: readonly ResponseRecord[],
  random: Random,
  exclude: Exclusions,
): GeneratedItem {
  const slot = answeredIn(section, answered).length;
  const levels = plannedLevels(catalog, section);
  const level = levels[slot] ?? levels[levels.length - 1] ?? 'easy';
  const candidates = sectionSkills(catalog, section).filter((skill) => supportsLevel(skill, level));
  // Rotate skills among the slots of the same level: e e m m h over two skills → A B A B A.
  const sameLevelBefore = levels.slice(0, slot).filter((earlier) => earlier === level).length;
  const skill = candidates[sameLevelBefore % candidates.length];
  if (skill === undefined) throw new Error(`section "${section.id}" has no ${level} skill`);
  const form = createRandom(`${assessment.seed ?? assessment.id}|${section.id}|${slot}`);
  const caseName = pickOne(form, casesAtLevel(skill.blueprint.difficultyFactors, level));
  return generateItem(skill, { sectionId: section.id, caseName }, random, exclude.fingerprints, exclude.stems);
}

function nextPoolItem(
  catalog: Catalog,
  section: AssessmentSection,
  answered: readonly ResponseRecord[],
  random: Random,
  exclude: Exclusions,
): GeneratedItem {
  const owed = remainingLevels(catalog, section, answered);
  // Records that do not match the plan (an edited blueprint) leave nothing owed: draw from the plan.
  const level = pickOne(random, owed.length > 0 ? owed : plannedLevels(catalog, section));
  const skill = pickOne(random, sectionSkills(catalog, section).filter((candidate) => supportsLevel(candidate, level)));
  const caseName = pickOne(random, casesAtLevel(skill.blueprint.difficultyFactors, level));
  return generateItem(skill, { sectionId: section.id, caseName }, random, exclude.fingerprints, exclude.stems);
}

function nextAdaptiveItem(
  catalog: Catalog,
  assessment: AssessmentBlueprint,
  open: readonly AssessmentSection[],
  answered: readonly ResponseRecord[],
  random: Random,
  exclude: Exclusions,
): GeneratedItem {
  const { domains } = estimateAbilities(catalog, assessment.id, answered);
  const target = weakestDomain(domains.filter((estimate) => open.some((section) => section.domain === estimate.domain)));
  const section = open.find((candidate) => candidate.domain === target?.domain) ?? open[0];
  if (target === undefined || section === undefined) throw new Error(`assessment "${assessment.id}" has no open domain`);
  return closestItem(catalog, section, target.ability - adaptiveOffset, random, exclude.fingerprints, exclude.stems);
}

/** Lowest ability first; ties go to the domain with fewer responses, then to section order. */
export function weakestDomain<T extends { ability: number; responses: number }>(domains: readonly T[]): T | undefined {
  let weakest: T | undefined;
  for (const domain of domains) {
    if (
      weakest === undefined ||
      domain.ability < weakest.ability - 1e-9 ||
      (Math.abs(domain.ability - weakest.ability) <= 1e-9 && domain.responses < weakest.responses)
    ) {
      weakest = domain;
    }
  }
  return weakest;
}

/** Generates candidates over the section's skills and cases; keeps the one closest to `target`. */
export function closestItem(
  catalog: Catalog,
  section: AssessmentSection,
  target: number,
  random: Random,
  exclude: ReadonlySet<string>,
  avoidStems: ReadonlySet<string> = new Set(),
): GeneratedItem {
  const pairs = sectionSkills(catalog, section).flatMap((skill) => Object.keys(skill.blueprint.difficultyFactors.cases).map((caseName) => ({ skill, caseName })));
  let best: GeneratedItem | undefined;
  // Shuffled so that equally close candidates do not always come from the first skill.
  for (const { skill, caseName } of shuffled(random, pairs)) {
    for (let index = 0; index < candidatesPerCase; index++) {
      let candidate: GeneratedItem;
      try {
        candidate = generateItem(skill, { sectionId: section.id, caseName }, random, exclude, avoidStems);
      } catch (error) {
        if (error instanceof GenerationError) continue; // this case's pool is used up; others remain
        throw error;
      }
      if (best === undefined || Math.abs(candidate.difficulty - target) < Math.abs(best.difficulty - target)) best = candidate;
    }
  }
  if (best === undefined) throw new GenerationError(`section "${section.id}" has no unused item left`);
  return best;
}
