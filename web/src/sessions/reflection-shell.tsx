import type { ReactNode } from 'react';

/** The end of a session that scores nothing (SPEC §4.5): its own content, then "Back to Reflect". */
export function ReflectionShell({ children, onBack }: { children: ReactNode; onBack(): void }) {
  return (
    <section className="completion" aria-labelledby="reflection-heading" data-testid="reflection-summary">
      {children}
      <div className="actions">
        <button type="button" className="button primary" onClick={onBack}>
          Back to Reflect
        </button>
      </div>
    </section>
  );
}
