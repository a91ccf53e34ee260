import type { SetActionProps } from '../session-type';

/**
 * The recall set page's main button: a recall session on the set. With nothing due it reviews
 * early (every point comes up, SPEC §4.1), and says so in its name.
 */
export function RecallSetAction({ recallSet, describedBy, session }: SetActionProps) {
  const earlyReview = recallSet.pointCount > 0 && recallSet.dueCount === 0;
  return (
    <button
      type="button"
      className="button primary"
      onClick={() => void session.start({ type: 'recall', recallSetId: recallSet.id })}
      disabled={session.busy || recallSet.pointCount === 0}
      aria-busy={session.busy}
      aria-describedby={describedBy}
    >
      {earlyReview ? 'Review early' : 'Start session'}
    </button>
  );
}
