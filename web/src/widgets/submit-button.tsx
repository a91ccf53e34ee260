import { useId, type ReactNode } from 'react';

/**
 * A widget's submit button. While the answer is not ready it is disabled and says why, next to
 * it and to screen readers (issue 18: a disabled button says why).
 */
export function SubmitButton({ children, disabled, missing }: { children: ReactNode; disabled: boolean; missing: string | null }) {
  const reasonId = useId();
  const reason = disabled ? null : missing;
  return (
    <>
      {reason ? (
        <span id={reasonId} className="widget-submit-reason" data-testid="submit-reason">
          {reason}
        </span>
      ) : null}
      <button type="submit" className="button primary" disabled={disabled || missing !== null} aria-describedby={reason ? reasonId : undefined}>
        {children}
      </button>
    </>
  );
}
