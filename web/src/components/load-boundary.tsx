import { Component, Suspense, type ReactNode } from 'react';

interface LoadBoundaryProps {
  /** Shown instead of `children` when they fail to load or render (e.g. a lazy chunk). */
  fallback: ReactNode;
  children: ReactNode;
}

/**
 * Contains the failure of an optional part (a chart, the code editor's chunk after a deploy)
 * so the rest of the page keeps working.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** A lazily loaded chart: a placeholder while its chunk loads, a short note if it fails. */
export function LazyChart({ children }: { children: ReactNode }) {
  return (
    <LoadBoundary fallback={<p className="chart-placeholder muted">The chart could not be loaded.</p>}>
      <Suspense
        fallback={
          <div className="chart-placeholder" aria-hidden="true">
            Loading chart…
          </div>
        }
      >
        {children}
      </Suspense>
    </LoadBoundary>
  );
}
