/**
 * IRT-lite: ability on the logit scale from responses to items of computed difficulty.
 *
 *   Model (Rasch / 1PL)   P_i(θ) = σ(θ − b_i) = 1 / (1 + e^−(θ − b_i))       b_i: the item's computed difficulty
 *   Prior                 θ ~ N(0, 1)
 *   Evidence              log L_i = w_i · [c_i · log P_i + (1 − c_i) · log(1 − P_i)]   c_i ∈ [0, 1]: credit
 *                         (partial credit of a code item counts as a fractional success)
 *   Response-time weight  speed_i = clamp(1 − t_i / T_i, 0, 1)   t_i: seconds taken, T_i: the skill's benchmark seconds
 *                         w_i = 1 + 0.5 · c_i · speed_i
 *                         (fast and correct counts as up to 1.5 responses; at or over the benchmark, or wrong: 1)
 *   Estimate              θ̂ = argmax_θ Σ log L_i − θ²/2  (MAP), by Newton's method:
 *                         g(θ) = Σ w_i (c_i − P_i) − θ      H(θ) = −Σ w_i P_i (1 − P_i) − 1
 *                         θ ← θ − g/H, each step clamped to ±1, θ kept in [−4, 4], from θ = 0
 *   Standard error        SE = 1 / √(−H(θ̂)) = 1 / √(1 + Σ w_i P_i (1 − P_i))
 *
 * The posterior is re-estimated from all responses after each one: that is the update. The
 * log-posterior is strictly concave (the prior alone gives curvature 1), so the maximum is
 * unique and Newton converges; adding a correct response raises θ̂, a wrong one lowers it.
 *
 *   Adaptive selection    the weakest domain d (lowest θ̂_d; ties: fewest responses, then
 *                         section order), target difficulty b* = θ̂_d − 0.5 (P(correct) ≈ 0.62):
 *                         a little below ability, so the learner is stretched but not crushed.
 */
import type { AbilityEstimate } from '@tutorloop/shared';

export interface Observation {
  difficulty: number;
  /** 0–1. */
  credit: number;
  /** Evidence weight (≥ 1), from `responseWeight`. */
  weight: number;
}

export const priorStandardDeviation = 1;
export const speedBonus = 0.5;
export const abilityBound = 4;
/** How far below the weakest domain's ability the adaptive target lies. */
export const adaptiveOffset = 0.5;

export const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

/** w = 1 + 0.5 · credit · clamp(1 − seconds / benchmark, 0, 1). */
export function responseWeight(credit: number, responseSeconds: number, expectedSeconds: number): number {
  if (!Number.isFinite(responseSeconds) || !(expectedSeconds > 0)) return 1;
  const speed = Math.min(1, Math.max(0, 1 - Math.max(0, responseSeconds) / expectedSeconds));
  return 1 + speedBonus * clampCredit(credit) * speed;
}

/** The MAP ability and its standard error for a set of responses (the prior alone when empty). */
export function estimateAbility(observations: readonly Observation[]): AbilityEstimate {
  let ability = 0;
  for (let iteration = 0; iteration < 50; iteration++) {
    const { gradient, curvature } = derivatives(ability, observations);
    const step = Math.min(1, Math.max(-1, gradient / curvature));
    ability = Math.min(abilityBound, Math.max(-abilityBound, ability + step));
    if (Math.abs(step) < 1e-9) break;
  }
  const { curvature } = derivatives(ability, observations);
  return { ability, standardError: 1 / Math.sqrt(curvature), responses: observations.length };
}

/** The gradient g(θ) and the curvature −H(θ) (> 0) of the log-posterior. */
function derivatives(ability: number, observations: readonly Observation[]): { gradient: number; curvature: number } {
  const priorPrecision = 1 / priorStandardDeviation ** 2;
  let gradient = -ability * priorPrecision;
  let curvature = priorPrecision;
  for (const observation of observations) {
    const p = logistic(ability - observation.difficulty);
    gradient += observation.weight * (clampCredit(observation.credit) - p);
    curvature += observation.weight * p * (1 - p);
  }
  return { gradient, curvature };
}

function clampCredit(credit: number): number {
  return Number.isFinite(credit) ? Math.min(1, Math.max(0, credit)) : 0;
}
