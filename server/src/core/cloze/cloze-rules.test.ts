import { beforeAll, describe, expect, it } from 'vitest';
import { wordNet } from '../offline/wordnet';
import { clozeMaxPoints, clozeProgress, clozeSummary, drillItems, feedbackLine, pointWidget, ratingOf, type DrillCandidate } from './cloze-rules';
import { initialClozeState, type ClozeSessionState } from './cloze-state';

beforeAll(() => {
  wordNet();
});

const day = (n: number) => new Date(Date.UTC(2026, 10, n));
const point = (id: string, position: number, status: DrillCandidate['status'], due: Date | null, content = `Point ${id} mentions photosynthesis.`): DrillCandidate => ({
  id,
  content,
  context: null,
  position,
  status,
  due,
});

describe('drillItems (SPEC §4.6)', () => {
  it('asks the due points only, most overdue first, then the new ones in the set’s order', () => {
    const items = drillItems([point('new-b', 0, 'new', null), point('late', 1, 'due', day(3)), point('later', 2, 'scheduled', day(30)), point('new-a', 3, 'new', null), point('latest', 4, 'due', day(1))]);
    expect(items.map((item) => item.pointId)).toEqual(['latest', 'late', 'new-b', 'new-a']);
  });

  it('asks every point, soonest due first, when none is due', () => {
    const items = drillItems([point('b', 0, 'scheduled', day(20)), point('a', 1, 'scheduled', day(10)), point('c', 2, 'scheduled', day(15))]);
    expect(items.map((item) => item.pointId)).toEqual(['a', 'c', 'b']);
  });

  it('stops at the cap and leaves out a point with no word to blank', () => {
    const many = Array.from({ length: clozeMaxPoints + 5 }, (_, index) => point(`p${index}`, index, 'new', null));
    expect(drillItems(many)).toHaveLength(clozeMaxPoints);
    expect(drillItems([point('empty', 0, 'new', null, 'To be or not to be'), point('ok', 1, 'new', null)]).map((item) => item.pointId)).toEqual(['ok']);
  });
});

describe('grades, widgets and lines', () => {
  const state: ClozeSessionState = initialClozeState([
    { pointId: 'p1', prompt: 'The _____ is the powerhouse of the cell.', answer: 'mitochondria' },
    { pointId: 'p2', prompt: 'Capital of France → _____', answer: 'Paris' },
  ]);

  it('rates a finished point Good at the first try, Hard at the second, Again when wrong', () => {
    expect([ratingOf(true, 1), ratingOf(true, 2), ratingOf(false, 2)]).toEqual(['good', 'hard', 'again']);
  });

  it('shows a point as a free-text box with its place in the drill, and says when it is the second try', () => {
    expect(pointWidget(state)).toEqual({ prompt: 'The _____ is the powerhouse of the cell.', context: 'Point 1 of 2', placeholder: 'The missing word', maxLength: 200 });
    expect(pointWidget({ ...state, position: 1, attempt: 2 }).context).toBe('Second try — point 2 of 2');
  });

  it('names the term when the point is finished, and only a hint before', () => {
    const item = state.items[0]!;
    expect(feedbackLine({ position: 0, verdict: 'right', attempt: 1 }, item)).toBe('Right — "mitochondria".');
    expect(feedbackLine({ position: 0, verdict: 'right', attempt: 2 }, item)).toBe('Right on the second try — "mitochondria".');
    expect(feedbackLine({ position: 0, verdict: 'wrong', attempt: 2 }, item)).toBe('Not this time — the answer was "mitochondria".');
    const retry = feedbackLine({ position: 0, verdict: 'retry', attempt: 1 }, item);
    expect(retry).toBe('Not quite, one more try. It starts with "m" and has 12 letters.');
    expect(retry).not.toContain('mitochondria');
  });

  it('counts progress and the summary from the finished points', () => {
    const finished: ClozeSessionState = {
      ...state,
      position: 2,
      results: [
        { pointId: 'p1', prompt: state.items[0]!.prompt, answer: 'mitochondria', given: ['nucleus', 'mitochondria'], rating: 'hard' },
        { pointId: 'p2', prompt: state.items[1]!.prompt, answer: 'Paris', given: ['Lyon', 'Nice'], rating: 'again' },
      ],
    };
    expect(clozeProgress(state, true)).toEqual({ done: 0, total: 2, attempt: 1, right: 0 });
    expect(clozeProgress(finished, false)).toEqual({ done: 2, total: 2, attempt: null, right: 1 });
    expect(clozeSummary(finished)).toEqual({ results: finished.results, good: 0, hard: 1, again: 1 });
  });
});
