import type { SetActionProps } from '../session-type';

/** "Cloze drill" on the recall set page: a quick fill-in-the-blank pass over the set's due points (SPEC §4.6). */
export function ClozeSetAction({ recallSet, describedBy, session }: SetActionProps) {
  return (
    <button
      type="button"
      className="button"
      onClick={() => void session.start({ type: 'cloze', recallSetId: recallSet.id })}
      disabled={session.busy || recallSet.pointCount === 0}
      aria-busy={session.busy}
      aria-describedby={describedBy}
      data-testid="start-cloze"
    >
      Cloze drill
    </button>
  );
}
