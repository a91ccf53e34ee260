import type { StudyPlanSummary } from '@tutorloop/shared';
import { planBadges } from '../store/learning';

/** Where a study plan comes from — built in, yours, shared — as labelled badges (text, not colour alone). */
export function PlanBadges({ plan }: { plan: Pick<StudyPlanSummary, 'builtIn' | 'owned' | 'shared'> }) {
  const badges = planBadges(plan);
  if (badges.length === 0) return null;
  return (
    <ul className="plan-badges" aria-label="About this plan" data-testid="plan-badges">
      {badges.map((badge) => (
        <li key={badge.key} className={`badge plan-badge plan-badge-${badge.key}`} title={badge.title} data-badge={badge.key}>
          {badge.label}
        </li>
      ))}
    </ul>
  );
}
