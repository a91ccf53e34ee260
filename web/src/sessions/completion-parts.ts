import type { SessionSummary } from '@tutorloop/shared';
import { useEffect, useRef } from 'react';

function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** "4 turns · 3 minutes", under a completion screen's score. */
export function completionMeta(summary: SessionSummary): string {
  return `${summary.turns} ${summary.turns === 1 ? 'turn' : 'turns'} · ${formatDuration(summary.durationSeconds)}`;
}

/** A completion screen's heading takes the focus when it appears, so a screen reader announces the end. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
