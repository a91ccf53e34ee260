import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * A chart a keyboard can read (issue 25): the chart is one tab stop; the arrow keys (and Home,
 * End) move between its data points, the point in reach is drawn highlighted, and a visible
 * line that is also an `aria-live` region says its value ("Tue 3 Mar: 12 reviews"). The chart
 * drawing itself stays hidden from screen readers, which get the line and the panel's table.
 */
export function ChartReadout({
  label,
  readouts,
  startAt = 0,
  testId,
  children,
}: {
  /** What the chart shows, for its accessible name. */
  label: string;
  /** The sentence read for each data point, in the chart's order. */
  readouts: readonly string[];
  /** The point the first arrow press starts from (the activity chart starts at today, on the right). */
  startAt?: number;
  testId: string;
  /** The chart, told which point to highlight (null: none, before the chart is used by keyboard). */
  children: (active: number | null) => ReactNode;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const readoutId = useId();
  const last = readouts.length - 1;
  const current = active === null ? null : Math.min(active, last);

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (last < 0) return;
    const from = current ?? startAt;
    const moves: Record<string, number> = {
      ArrowRight: Math.min(last, from + (current === null ? 0 : 1)),
      ArrowDown: Math.min(last, from + (current === null ? 0 : 1)),
      ArrowLeft: Math.max(0, from - (current === null ? 0 : 1)),
      ArrowUp: Math.max(0, from - (current === null ? 0 : 1)),
      Home: 0,
      End: last,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
  }

  return (
    <div
      className="chart-readout-target"
      tabIndex={0}
      role="group"
      aria-label={`${label}: use the arrow keys to read each value`}
      aria-describedby={readoutId}
      onKeyDown={handleKeyDown}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        setActive(null);
      }}
      data-testid={testId}
    >
      {children(current)}
      <p id={readoutId} className="chart-readout" aria-live="polite" data-testid={`${testId}-readout`}>
        {current !== null ? readouts[current] : focused ? <span className="muted">Use the arrow keys to read each value.</span> : null}
      </p>
    </div>
  );
}
