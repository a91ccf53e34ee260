/** Ability estimates of a session, overall and per domain of the assessment (formulas in irt.ts). */
import type { AbilityEstimate } from '@tutorloop/shared';
import type { Catalog } from './catalog';
import type { Observation } from './irt';
import { estimateAbility, responseWeight } from './irt';
import type { ResponseRecord } from './responses';

export interface AbilityReport {
  overall: AbilityEstimate;
  /** In section order; a domain without responses carries the prior (ability 0, SE 1). */
  domains: Array<AbilityEstimate & { domain: string }>;
}

export function estimateAbilities(catalog: Catalog, assessmentId: string, answered: readonly ResponseRecord[]): AbilityReport {
  const assessment = catalog.getAssessment(assessmentId);
  if (assessment === undefined) throw new Error(`unknown assessment blueprint "${assessmentId}"`);
  const observations = answered.map((record) => ({ domain: record.domain, observation: observationOf(catalog, record) }));
  const domains = [...new Set(assessment.sections.map((section) => section.domain))];
  return {
    overall: estimateAbility(observations.map(({ observation }) => observation)),
    domains: domains.map((domain) => ({
      domain,
      ...estimateAbility(observations.filter((entry) => entry.domain === domain).map(({ observation }) => observation)),
    })),
  };
}

function observationOf(catalog: Catalog, record: ResponseRecord): Observation {
  // A skill no longer in the catalog still counts, without the speed bonus.
  const expectedSeconds = catalog.getSkill(record.skillId)?.blueprint.benchmarks.expectedSeconds ?? Number.NaN;
  return {
    difficulty: record.difficulty,
    credit: record.credit,
    weight: responseWeight(record.credit, record.responseSeconds, expectedSeconds),
  };
}
