/**
 * Practice steps (SPEC §4.4, seed 000 "LEARNING"): the backend generates an item from the
 * step's skill blueprint with the assessment generators, at a level that follows the
 * concept's mastery, presents it as a widget and scores it on the server (code in the
 * sandbox). Generation is seeded by session and position, so a restart yields the same item.
 */
import type { Widget } from '@tutorloop/shared';
import { createRandom, generateItem, type Catalog, type GeneratedItem } from '../assessment';
import { difficultyLevels, type DifficultyLevel } from '../assessment/blueprint-schema';
import { supportsLevel } from '../assessment/catalog';
import { casesAtLevel } from '../assessment/difficulty';
import { pickOne } from '../assessment/random';

/** The level of the next item: easy while a concept is new or weak, then medium, then hard. */
export function practiceLevel(mastery: number | undefined): DifficultyLevel {
  if (mastery === undefined || mastery < 0.4) return 'easy';
  if (mastery < 0.75) return 'medium';
  return 'hard';
}

/** A fresh item of the skill for position `position` of the session, unlike any in `exclude`. */
export function generatePracticeItem(
  catalog: Catalog,
  request: { skillId: string; sessionId: string; position: number; mastery: number | undefined; exclude: ReadonlySet<string> },
): GeneratedItem {
  const skill = catalog.getSkill(request.skillId);
  if (!skill) throw new Error(`unknown skill blueprint "${request.skillId}"`);
  const wanted = practiceLevel(request.mastery);
  // The wanted level if the skill has it, else the nearest one it has.
  const order = [...difficultyLevels].sort((a, b) => Math.abs(difficultyLevels.indexOf(a) - difficultyLevels.indexOf(wanted)) - Math.abs(difficultyLevels.indexOf(b) - difficultyLevels.indexOf(wanted)));
  const level = order.find((candidate) => supportsLevel(skill, candidate));
  if (!level) throw new Error(`skill blueprint "${request.skillId}" has no usable level`);
  const random = createRandom(`${request.sessionId}|practice|${request.position}`);
  const caseName = pickOne(random, casesAtLevel(skill.blueprint.difficultyFactors, level));
  return generateItem(skill, { sectionId: 'practice', caseName }, random, request.exclude);
}

/** The widget presenting an item: its stem and options or starter code, never its answer. */
export function practiceWidget(item: GeneratedItem): Omit<Widget, 'widgetId'> {
  if (item.kind === 'code' && item.code) {
    return { kind: 'code_editor', props: { prompt: item.stem, language: item.code.language, starterCode: item.code.starterCode } };
  }
  return { kind: 'multiple_choice', props: { prompt: item.stem, options: [...(item.options ?? [])], context: 'Practice' } };
}
