import { describe, expect, it } from 'vitest';
import type { Observation } from './irt';
import { estimateAbility, logistic, responseWeight } from './irt';

const correct = (difficulty: number, weight = 1): Observation => ({ difficulty, credit: 1, weight });
const wrong = (difficulty: number): Observation => ({ difficulty, credit: 0, weight: 1 });

describe('estimateAbility (Rasch MAP with a N(0, 1) prior)', () => {
  it('is the prior without responses', () => {
    expect(estimateAbility([])).toEqual({ ability: 0, standardError: 1, responses: 0 });
  });

  it('matches the hand-computed first update: one correct answer at difficulty 0', () => {
    // θ̂ solves g(θ) = (1 − σ(θ)) − θ = 0 → θ̂ = 0.401058 (Newton's first step from 0 gives 0.5 / 1.25 = 0.4);
    // SE = 1 / √(1 + σ(θ̂)(1 − σ(θ̂))) = 1 / √1.240222 = 0.897950.
    const estimate = estimateAbility([correct(0)]);
    expect(estimate.ability).toBeCloseTo(0.401058, 5);
    expect(estimate.standardError).toBeCloseTo(0.89795, 5);
    expect(estimate.responses).toBe(1);
    expect(estimateAbility([wrong(0)]).ability).toBeCloseTo(-0.401058, 5);
  });

  it('rises monotonically, with a shrinking standard error, when every answer is correct on rising difficulty', () => {
    const responses: Observation[] = [];
    let previous = estimateAbility(responses);
    for (const difficulty of [-1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2]) {
      responses.push(correct(difficulty));
      const next = estimateAbility(responses);
      expect(next.ability).toBeGreaterThan(previous.ability);
      expect(next.standardError).toBeLessThan(previous.standardError);
      previous = next;
    }
  });

  it('falls monotonically when every answer is wrong on falling difficulty', () => {
    const responses: Observation[] = [];
    let previous = estimateAbility(responses).ability;
    for (const difficulty of [1, 0.5, 0, -0.5, -1]) {
      responses.push(wrong(difficulty));
      const next = estimateAbility(responses).ability;
      expect(next).toBeLessThan(previous);
      previous = next;
    }
  });

  it('weighs a fast correct answer more than a slow one', () => {
    expect(estimateAbility([correct(0, 1.5)]).ability).toBeCloseTo(0.549107, 5);
    expect(estimateAbility([correct(0, 1.5)]).ability).toBeGreaterThan(estimateAbility([correct(0, 1)]).ability);
  });

  it('treats partial credit as a fractional success at the stationary point', () => {
    const { ability } = estimateAbility([{ difficulty: 1, credit: 0.5, weight: 1 }]);
    // g(θ̂) = 0.5 − σ(θ̂ − 1) − θ̂ = 0
    expect(0.5 - logistic(ability - 1) - ability).toBeCloseTo(0, 8);
    expect(ability).toBeCloseTo(0.191739, 5);
  });

  it('stays bounded on long perfect runs', () => {
    const ability = estimateAbility(Array.from({ length: 200 }, () => correct(3))).ability;
    expect(ability).toBeLessThanOrEqual(4);
    expect(ability).toBeGreaterThan(3);
  });
});

describe('responseWeight', () => {
  it('is 1 + 0.5 · credit · clamp(1 − seconds / benchmark, 0, 1)', () => {
    expect(responseWeight(1, 5, 15)).toBeCloseTo(1 + 0.5 * (2 / 3), 10);
    expect(responseWeight(1, 0, 15)).toBe(1.5);
    expect(responseWeight(0.5, 0, 10)).toBe(1.25);
  });

  it('is 1 when slow, wrong or without a benchmark', () => {
    expect(responseWeight(1, 15, 15)).toBe(1);
    expect(responseWeight(1, 90, 15)).toBe(1);
    expect(responseWeight(0, 1, 15)).toBe(1);
    expect(responseWeight(1, 1, Number.NaN)).toBe(1);
    expect(responseWeight(1, Number.NaN, 15)).toBe(1);
  });
});
