import type { MasteryLevel } from '@tutorloop/shared';
import { masteryBars, masteryLabels } from '../store/learning';

/**
 * A concept's coarse mastery (SPEC §4.4: levels, never scores) as three bars and a word: the
 * number of filled bars carries the level as well as the text, so it never rests on colour.
 */
export function MasteryMeter({ level }: { level: MasteryLevel }) {
  const filled = masteryBars[level];
  return (
    <span className={`mastery mastery-${level}`}>
      <span className="mastery-bars" aria-hidden="true">
        {[1, 2, 3].map((bar) => (
          <span key={bar} className={bar <= filled ? 'mastery-bar filled' : 'mastery-bar'} />
        ))}
      </span>
      <span className="mastery-label" data-testid="mastery-level">
        {masteryLabels[level]}
      </span>
    </span>
  );
}
