/** Scoring. Multiple choice is scored here; code is run by the sandbox and turned into credit here. */
import type { GeneratedItem } from './item-builder';

/** 1 when the learner chose the correct option, else 0 (an out-of-range index is simply wrong). */
export function scoreChoice(item: GeneratedItem, selectedIndex: number): number {
  if (item.kind !== 'multiple_choice' || item.correctIndex === undefined) {
    throw new Error(`scoreChoice: ${item.skillId} is a ${item.kind} item`);
  }
  return selectedIndex === item.correctIndex ? 1 : 0;
}

/** Credit from test results: the share passed (partial credit), or all-or-nothing. */
export function creditFromTests(passed: number, total: number, partialCredit = true): number {
  if (!(total > 0) || !(passed > 0)) return 0;
  const share = Math.min(1, passed / total);
  return partialCredit ? share : share === 1 ? 1 : 0;
}
