/**
 * Tool-call ids of the widgets the offline tutor hands out: `offline-<pointId>-<attempts>`.
 * Deterministic, so a replayed turn produces the same id, and reversible, so the offline
 * evaluator can tell which point a multiple-choice answer was about. The id never reaches
 * the learner's chat text (the session engine issues its own widget ids).
 */
const PREFIX = 'offline-';

export function offlineToolCallId(pointId: string, probeAttempts: number): string {
  return `${PREFIX}${pointId}-${probeAttempts}`;
}

/** Tool-call id of a mode change the offline tutor decided: `offline-mode-<mode>-<turn>`. */
export function offlineModeToolCallId(turn: number, mode: 'rabbithole' | 'recall'): string {
  return `${PREFIX}mode-${mode}-${turn}`;
}

/** The point id inside an offline tool-call id, or null for any other id. */
export function pointIdFromToolCallId(toolCallId: string): string | null {
  if (!toolCallId.startsWith(PREFIX)) return null;
  const m = /^(.+)-\d+$/.exec(toolCallId.slice(PREFIX.length));
  return m?.[1] ?? null;
}
