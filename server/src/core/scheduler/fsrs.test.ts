/**
 * Golden scheduling tests (fixed dates, no fuzz, ts-fsrs 5.4 with FSRS-6 default parameters)
 * for the rules of ARCHITECTURE.md "Decisions": no same-day learning steps, early reviews as FSRS prescribes, one definition of due/new.
 */
import { describe, expect, it } from 'vitest';
import {
  isDue,
  newCard,
  pointStatus,
  replayHistory,
  retrievability,
  reviewCard,
  type CardRecord,
} from './fsrs';

const now = new Date('2026-11-01T09:00:00.000Z');
const at = (iso: string) => new Date(iso);
const days = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 86_400_000);

/** A card reviewed Good three times on time: last review 2026-11-18, due 2027-01-14. */
function matureCard(): CardRecord {
  let card = reviewCard(newCard(now), 'good', now).card;
  card = reviewCard(card, 'good', card.due).card;
  return reviewCard(card, 'good', card.due).card;
}

describe('reviewCard: no same-day learning steps', () => {
  it('schedules a new card in whole days for every grade, Again soonest', () => {
    const card = newCard(now);
    const next = (['again', 'hard', 'good', 'easy'] as const).map((rating) => reviewCard(card, rating, now).card);
    expect(next.map((each) => [each.state, days(now, each.due)])).toEqual([
      ['review', 1],
      ['review', 2],
      ['review', 3],
      ['review', 8],
    ]);
  });

  it('grows the interval over successive on-time Good reviews', () => {
    let card = newCard(now);
    let reviewedAt = now;
    const intervals: number[] = [];
    for (let review = 0; review < 5; review += 1) {
      card = reviewCard(card, 'good', reviewedAt).card;
      intervals.push(card.scheduledDays);
      reviewedAt = card.due;
    }
    expect(intervals).toEqual([3, 14, 57, 196, 586]);
  });

  it('gives shorter intervals for a higher desired retention', () => {
    const card = matureCard();
    const reviewedAt = at('2027-01-14T09:00:00.000Z');
    const relaxed = reviewCard(card, 'good', reviewedAt, { retention: 0.8, weights: null }).card;
    const strict = reviewCard(card, 'good', reviewedAt, { retention: 0.97, weights: null }).card;
    expect(strict.due.getTime()).toBeLessThan(relaxed.due.getTime());
  });

  it('counts a lapse when a reviewed card is rated Again', () => {
    const lapsed = reviewCard(matureCard(), 'again', at('2027-01-14T09:00:00.000Z')).card;
    expect([lapsed.lapses, days(at('2027-01-14T09:00:00.000Z'), lapsed.due)]).toEqual([1, 3]);
  });
});

describe('early reviews (before the card is due)', () => {
  it('takes the days actually elapsed: a recall while memory is fresh gains less stability than on time', () => {
    const card = matureCard();
    expect([card.lastReview?.toISOString(), card.due.toISOString()]).toEqual(['2026-11-18T09:00:00.000Z', '2027-01-14T09:00:00.000Z']);
    const early = reviewCard(card, 'good', at('2026-11-26T09:00:00.000Z')).card;
    const onTime = reviewCard(card, 'good', card.due).card;
    expect({ early: early.due.toISOString(), onTime: onTime.due.toISOString() }).toEqual({
      early: '2027-02-18T09:00:00.000Z',
      onTime: '2027-07-29T09:00:00.000Z',
    });
    expect(early.stability).toBeLessThan(onTime.stability);
    // A successful early review never brings the card forward.
    expect(early.due.getTime()).toBeGreaterThan(card.due.getTime());
  });
});

describe('replayHistory', () => {
  it('gives the card the reviews give one by one, whatever order the history comes in', () => {
    const reviews = [
      { rating: 'good' as const, reviewedAt: now },
      { rating: 'hard' as const, reviewedAt: at('2026-11-04T09:00:00.000Z') },
      { rating: 'again' as const, reviewedAt: at('2026-11-10T09:00:00.000Z') },
    ];
    let card = newCard(now);
    for (const review of reviews) card = reviewCard(card, review.rating, review.reviewedAt).card;
    expect(replayHistory([...reviews].reverse(), { retention: 0.9, weights: null })).toEqual(card);
    expect(replayHistory([], { retention: 0.9, weights: null })).toBeNull();
  });
});

describe('pointStatus: one definition of new and due', () => {
  it('is new without a card or with a card never reviewed, due once due ≤ now, scheduled after', () => {
    const reviewed = reviewCard(newCard(now), 'good', now).card;
    expect([
      pointStatus(null, now),
      pointStatus(newCard(now), now),
      pointStatus(reviewed, now),
      pointStatus(reviewed, reviewed.due),
      pointStatus(reviewed, at('2026-12-01T00:00:00.000Z')),
    ]).toEqual(['new', 'new', 'scheduled', 'due', 'due']);
    expect([isDue(null, now), isDue(reviewed, now), isDue(reviewed, reviewed.due)]).toEqual([true, false, true]);
  });
});

describe('retrievability', () => {
  it('is null before the first review, the desired retention on the due date, and falls with time', () => {
    const card = matureCard();
    expect(retrievability(null, now)).toBeNull();
    expect(retrievability(newCard(now), now)).toBeNull();
    expect(retrievability(card, card.due)).toBeCloseTo(0.9, 2);
    expect(retrievability(card, at('2026-11-19T09:00:00.000Z'))!).toBeGreaterThan(retrievability(card, card.due)!);
    expect(retrievability(card, at('2027-06-01T09:00:00.000Z'))!).toBeLessThan(0.9);
  });
});
