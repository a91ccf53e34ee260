/**
 * The rules of a cloze drill (SPEC §4.6), pure: which points a drill asks and in what order,
 * the widget a point is shown as, the grade of a finished point, the fixed lines around it, and
 * what the learner sees of the drill's progress and its summary. The answer of a point appears
 * in a line only once the point is finished.
 */
import type { ClozeProgress, ClozeResult, ClozeSummary, WidgetOf } from '@tutorloop/shared';
import { chooseBlank } from './cloze-blank';
import { hintFor } from './cloze-grade';
import type { ClozeGrade, ClozeItem, ClozeSessionState } from './cloze-state';

/** At most this many points in one drill. */
export const clozeMaxPoints = 20;
/** The longest answer the box takes. */
export const clozeAnswerMaxLength = 200;

/** A point of the set with what its schedule says now. */
export interface DrillCandidate {
  id: string;
  content: string;
  context: string | null;
  /** Its place in the set. */
  position: number;
  /** `new`: never reviewed; `due`: FSRS due ≤ now; `scheduled`: due later. */
  status: 'new' | 'due' | 'scheduled';
  /** The card's due date; null when never reviewed. */
  due: Date | null;
}

/**
 * The points a drill asks, in order: the due ones (all of them when none is), most overdue
 * first — reviewed points by due date, then never-reviewed ones in the set's order — capped at
 * `clozeMaxPoints`. A point with no word to blank is left out.
 */
export function drillItems(points: readonly DrillCandidate[]): ClozeItem[] {
  const due = points.filter((point) => point.status !== 'scheduled');
  const pool = due.length > 0 ? due : points;
  const ordered = [...pool].sort((a, b) => {
    if (a.due && b.due) return a.due.getTime() - b.due.getTime() || a.position - b.position;
    if (a.due || b.due) return a.due ? -1 : 1;
    return a.position - b.position;
  });
  const items: ClozeItem[] = [];
  for (const point of ordered) {
    if (items.length === clozeMaxPoints) break;
    const blank = chooseBlank(point);
    if (blank) items.push({ pointId: point.id, prompt: blank.prompt, answer: blank.answer });
  }
  return items;
}

/** The FSRS grade of a finished point: right at the first try Good, at the second Hard, wrong Again. */
export function ratingOf(right: boolean, attempt: 1 | 2): ClozeResult['rating'] {
  if (!right) return 'again';
  return attempt === 1 ? 'good' : 'hard';
}

/** The tool call of a point's try (unique in the session: one per point and try). */
export function clozeToolCallId(position: number, attempt: 1 | 2): string {
  return `cloze_${position + 1}_${attempt}`;
}

/** The free-text widget a point's try is shown as (its id is the pending action's). */
export function pointWidget(state: Pick<ClozeSessionState, 'items' | 'position' | 'attempt'>): WidgetOf<'free_text'>['props'] {
  const item = state.items[state.position]!;
  const where = `point ${state.position + 1} of ${state.items.length}`;
  return {
    prompt: item.prompt,
    context: state.attempt === 1 ? `Point ${state.position + 1} of ${state.items.length}` : `Second try — ${where}`,
    placeholder: 'The missing word',
    maxLength: clozeAnswerMaxLength,
  };
}

export function openingLine(title: string, total: number): string {
  return `A quick cloze drill on "${title}": ${total} ${total === 1 ? 'point' : 'points'}, each with one word missing. Type the missing word in the box.`;
}

/** The line after a graded try (see `ClozeGrade`); the answer only once the point is finished. */
export function feedbackLine(grade: ClozeGrade, item: ClozeItem): string {
  switch (grade.verdict) {
    case 'right':
      return grade.attempt === 1 ? `Right — "${item.answer}".` : `Right on the second try — "${item.answer}".`;
    case 'retry':
      return `Not quite, one more try. ${hintFor(item.answer)}`;
    case 'wrong':
      return `Not this time — the answer was "${item.answer}".`;
    default: {
      const unreachable: never = grade.verdict;
      throw new Error(`unknown verdict ${String(unreachable)}`);
    }
  }
}

export function closingLine(state: Pick<ClozeSessionState, 'results' | 'items'>): string {
  const right = rightCount(state.results);
  return `That was the last point: ${right} of ${state.items.length} right. Each one is now scheduled for its next review.`;
}

/** The answer to a chat message: the box is where answers go. */
export const chatRedirect = 'Type the missing word in the box under the point; I grade only what is typed there. You can end the drill at any time.';

export function rightCount(results: readonly ClozeResult[]): number {
  return results.filter((result) => result.rating !== 'again').length;
}

/** What the learner sees of the drill: points done of the total, the try on screen, right answers. */
export function clozeProgress(state: ClozeSessionState, pointOnScreen: boolean): ClozeProgress {
  return { done: state.results.length, total: state.items.length, attempt: pointOnScreen ? state.attempt : null, right: rightCount(state.results) };
}

/** Every finished point with its tries and rating, and how many of each rating. */
export function clozeSummary(state: ClozeSessionState): ClozeSummary {
  const count = (rating: ClozeResult['rating']) => state.results.filter((result) => result.rating === rating).length;
  return { results: state.results, good: count('good'), hard: count('hard'), again: count('again') };
}
