/**
 * The grade of a conversational review from the evidence of recall (ARCHITECTURE.md
 * "Decisions"), with golden dates (fixed dates, no fuzz, ts-fsrs 5.4 with FSRS-6 defaults).
 */
import { describe, expect, it } from 'vitest';
import { newCard, reviewCard, type CardRecord } from '../scheduler/fsrs';
import { ratingForRecall, RecallEvidences, type RecallEvidence } from './recall-rating';

const now = new Date('2026-11-01T09:00:00.000Z');
const at = (iso: string) => new Date(iso);
const evidences: RecallEvidence[] = [RecallEvidences.free, RecallEvidences.cued, RecallEvidences.recognition];

/** A card reviewed Good three times on time: last review 2026-11-18, due 2027-01-14. */
function matureCard(): CardRecord {
  let card = reviewCard(newCard(now), 'good', now).card;
  card = reviewCard(card, 'good', card.due).card;
  return reviewCard(card, 'good', card.due).card;
}

describe('grade from the evidence of recall (ratingForRecall)', () => {
  it('maps evidence and confidence to the documented grades', () => {
    const table = evidences.map((evidence) => [0, 0.5, 0.89, 0.9, 1].map((confidence) => ratingForRecall(evidence, confidence)));
    expect(table).toEqual([
      ['good', 'good', 'good', 'easy', 'easy'],
      ['hard', 'hard', 'hard', 'good', 'good'],
      ['hard', 'hard', 'hard', 'hard', 'hard'],
    ]);
  });

  it('orders free recall ≥ cued recall ≥ recognition whatever the confidences (recognition at most Hard)', () => {
    const rank = { again: 0, hard: 1, good: 2, easy: 3 } as const;
    const grid = [0, 0.3, 0.6, 0.89, 0.9, 1];
    for (const a of grid) {
      for (const b of grid) {
        expect(rank[ratingForRecall('free_recall', a)]).toBeGreaterThanOrEqual(rank[ratingForRecall('cued_recall', b)]);
        expect(rank[ratingForRecall('cued_recall', a)]).toBeGreaterThanOrEqual(rank[ratingForRecall('recognition', b)]);
      }
      expect(rank[ratingForRecall('recognition', a)]).toBeLessThanOrEqual(rank.hard);
    }
  });

  it('never schedules a first-try free recall sooner than a hinted or recognised recall of a like card', () => {
    for (const card of [newCard(now), matureCard()]) {
      const reviewedAt = card.state === 'new' ? now : at('2027-01-14T09:00:00.000Z');
      for (const confidence of [0.3, 0.7, 0.95]) {
        const [free, cued, recognised] = evidences.map((evidence) => reviewCard(card, ratingForRecall(evidence, confidence), reviewedAt).card.due.getTime());
        expect(free).toBeGreaterThanOrEqual(cued!);
        expect(cued).toBeGreaterThanOrEqual(recognised!);
      }
    }
  });

  it('schedules the session of the issue: first try "Spot on" 8 days out, cloze 3 days, multiple choice 2 days', () => {
    const card = newCard(now);
    const schedule = (evidence: RecallEvidence) => {
      const next = reviewCard(card, ratingForRecall(evidence, 1), now).card;
      return { state: next.state, due: next.due.toISOString(), stability: Number(next.stability.toFixed(4)) };
    };
    expect(evidences.map(schedule)).toEqual([
      { state: 'review', due: '2026-11-09T09:00:00.000Z', stability: 8.2956 },
      { state: 'review', due: '2026-11-04T09:00:00.000Z', stability: 2.3065 },
      { state: 'review', due: '2026-11-03T09:00:00.000Z', stability: 1.2931 },
    ]);
  });
});
