/**
 * Where a session stands in its blueprint: items still owed per section, and the difficulty
 * levels each section plans (from its distribution, or spread over the levels its skills
 * support when it has none).
 */
import type { AssessmentBlueprint, AssessmentSection, DifficultyLevel } from './blueprint-schema';
import { difficultyLevels } from './blueprint-schema';
import type { Catalog, LoadedSkill } from './catalog';
import { supportsLevel } from './catalog';
import type { ResponseRecord } from './responses';

export function sectionSkills(catalog: Catalog, section: AssessmentSection): LoadedSkill[] {
  return section.skills.map((id) => {
    const skill = catalog.getSkill(id);
    if (skill === undefined) throw new Error(`section "${section.id}" refers to unknown skill "${id}"`);
    return skill;
  });
}

export function answeredIn(section: AssessmentSection, answered: readonly ResponseRecord[]): ResponseRecord[] {
  return answered.filter((record) => record.sectionId === section.id);
}

/** Sections in blueprint order that still owe items. */
export function openSections(assessment: AssessmentBlueprint, answered: readonly ResponseRecord[]): AssessmentSection[] {
  return assessment.sections.filter((section) => answeredIn(section, answered).length < section.itemCount);
}

/** The section's levels, one per item, easiest first. */
export function plannedLevels(catalog: Catalog, section: AssessmentSection): DifficultyLevel[] {
  const distribution = section.difficultyDistribution;
  if (distribution !== undefined) {
    return difficultyLevels.flatMap((level) => Array.from({ length: distribution[level] ?? 0 }, () => level));
  }
  const skills = sectionSkills(catalog, section);
  const supported = difficultyLevels.filter((level) => skills.some((skill) => supportsLevel(skill, level)));
  // Spread the items evenly over the supported levels: 5 items over 3 levels → e e m m h.
  return Array.from({ length: section.itemCount }, (_, index) => supported[Math.floor((index * supported.length) / section.itemCount)] ?? 'easy');
}

/** Planned levels not yet served in the section (a multiset difference). */
export function remainingLevels(catalog: Catalog, section: AssessmentSection, answered: readonly ResponseRecord[]): DifficultyLevel[] {
  const remaining = plannedLevels(catalog, section);
  for (const record of answeredIn(section, answered)) {
    const index = remaining.indexOf(record.level);
    if (index >= 0) remaining.splice(index, 1);
  }
  return remaining;
}
