import { describe, expect, it } from 'vitest';
import { isDue, newCard, ratingForConfidence, reviewCard } from './fsrs';

const now = new Date('2026-11-01T09:00:00.000Z');
const days = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 86_400_000);

describe('confidence → rating', () => {
  it('maps the documented thresholds', () => {
    expect([0, 0.3, 0.59, 0.6, 0.89, 0.9, 1].map(ratingForConfidence)).toEqual(['hard', 'hard', 'hard', 'good', 'good', 'easy', 'easy']);
  });
});

describe('reviewCard', () => {
  it('schedules a new card further out the better the rating, and Again sooner', () => {
    const card = newCard(now);
    const [again, hard, good, easy] = (['again', 'hard', 'good', 'easy'] as const).map((rating) => reviewCard(card, rating, now).card);
    expect(again!.due.getTime()).toBeLessThanOrEqual(hard!.due.getTime());
    expect(hard!.due.getTime()).toBeLessThanOrEqual(good!.due.getTime());
    expect(good!.due.getTime()).toBeLessThan(easy!.due.getTime());
    expect(easy!.state).toBe('review');
    expect(easy!.reps).toBe(1);
  });

  it('grows the interval over successive Good reviews (fixed dates, no fuzz)', () => {
    let card = newCard(now);
    let at = now;
    const intervals: number[] = [];
    for (let review = 0; review < 5; review += 1) {
      card = reviewCard(card, 'good', at).card;
      intervals.push(days(at, card.due));
      at = card.due;
    }
    // Golden values (ts-fsrs 5.4 default parameters, retention 0.9): the first Good is a
    // same-day learning step, then the intervals grow.
    expect(intervals).toEqual([0, 2, 11, 46, 163]);
  });

  it('gives shorter intervals for a higher desired retention', () => {
    const reviewed = reviewCard(reviewCard(newCard(now), 'good', now).card, 'good', new Date('2026-11-03T09:00:00.000Z'));
    const relaxed = reviewCard(reviewed.card, 'good', new Date('2026-12-01T09:00:00.000Z'), 0.8).card;
    const strict = reviewCard(reviewed.card, 'good', new Date('2026-12-01T09:00:00.000Z'), 0.97).card;
    expect(strict.due.getTime()).toBeLessThan(relaxed.due.getTime());
  });

  it('counts a lapse when a review card is rated Again', () => {
    const learned = reviewCard(newCard(now), 'easy', now).card;
    const lapsed = reviewCard(learned, 'again', learned.due).card;
    expect(lapsed.lapses).toBe(1);
    expect(lapsed.state).toBe('relearning');
  });
});

describe('isDue', () => {
  it('treats a missing card as due and a future one as not', () => {
    expect(isDue(null, now)).toBe(true);
    expect(isDue(reviewCard(newCard(now), 'easy', now).card, now)).toBe(false);
  });
});
