/** The session checklist port (SPEC §4.1): a recall session's points, pending or recalled. */

/** One point of a recall session's checklist, with its content. */
export interface ChecklistEntry {
  pointId: string;
  content: string;
  context: string | null;
  position: number;
  status: 'pending' | 'recalled';
  confidence: number | null;
  turnRecalled: number | null;
  recalledAt: Date | null;
}

/** What the evaluator found for one point, recorded when it is checked off. */
export interface RecallMark {
  confidence: number;
  observation: string;
  /** The session turn it was recalled in. */
  turn: number;
  at: Date;
}

/** Reads checklists. */
export interface ChecklistReader {
  /** The session's checklist by position, each entry with its point's content. */
  list(sessionId: string): Promise<ChecklistEntry[]>;
}

/** Reads and writes checklists (inside a transaction). */
export interface ChecklistRepository extends ChecklistReader {
  /**
   * Adds points to the checklist, pending, at positions following any already there, in the
   * order given. Throws `missing_reference` for an unknown session or point, `conflict` for a
   * point already on it.
   */
  add(sessionId: string, pointIds: readonly string[]): Promise<void>;
  /**
   * Checks a pending point off. A point already recalled keeps its first mark (SPEC §4.1:
   * recalled points are never evaluated again); returns whether this call changed it.
   */
  markRecalled(sessionId: string, pointId: string, mark: RecallMark): Promise<boolean>;
}
