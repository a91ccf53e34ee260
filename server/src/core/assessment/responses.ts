/** What the engine needs to know about an answered item, and how to make one from an item. */
import type { DifficultyLevel } from './blueprint-schema';
import type { GeneratedItem } from './item-builder';

export interface ResponseRecord {
  /** 1-based position in the session. */
  position: number;
  sectionId: string;
  domain: string;
  skillId: string;
  /** The item's difficulty level: random_from_pool counts levels already served per section. */
  level: DifficultyLevel;
  difficulty: number;
  /** 0–1 (`scoreChoice`, or `creditFromTests` for code). */
  credit: number;
  responseSeconds: number;
  fingerprint: string;
}

export function toResponseRecord(
  item: GeneratedItem,
  response: { position: number; credit: number; responseSeconds: number },
): ResponseRecord {
  return {
    position: response.position,
    sectionId: item.sectionId,
    domain: item.domain,
    skillId: item.skillId,
    level: item.level,
    difficulty: item.difficulty,
    credit: response.credit,
    responseSeconds: response.responseSeconds,
    fingerprint: item.fingerprint,
  };
}
