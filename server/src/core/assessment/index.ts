/** The assessment core (SPEC §4.3): blueprints, item generation, selection, scoring, IRT-lite. */
export type { AbilityReport } from './abilities';
export { estimateAbilities } from './abilities';
export type { AssessmentBlueprint, AssessmentSection, DifficultyLevel, SkillBlueprint } from './blueprint-schema';
export type { BlueprintSource, Catalog, LoadedSkill } from './catalog';
export { BlueprintError, buildCatalog, defaultBlueprintDir, loadCatalog, summarizeBlueprint } from './catalog';
export type { CodeTask, ItemKind } from './generator';
export type { CodeItemTask, GeneratedItem, LearnerItem } from './item-builder';
export { generateItem, toLearnerItem } from './item-builder';
export { adaptiveOffset, estimateAbility, responseWeight } from './irt';
export { nextItem } from './next-item';
export type { Random } from './random';
export { createRandom, randomForItem } from './random';
export type { ResponseRecord } from './responses';
export { toResponseRecord } from './responses';
export { creditFromTests, scoreChoice } from './scoring';
export type { CodeRunner, CodeScore } from './code-scoring';
export { scoreCode } from './code-scoring';
