/**
 * "Help me decide" (issue 17): for a range of desired retentions, what this learner's cards
 * would cost and keep over the next `days` days under their own FSRS parameters (pure).
 *
 * A seeded Monte Carlo over the learner's actual cards: each card is reviewed on the day it
 * falls due (overdue ones today, new ones today); whether it is recalled is drawn from its
 * retrievability then; a recall is Good, a failure Again; the card is rescheduled at that
 * retention. Every retention uses the same random numbers (common random numbers), so the
 * curves differ by the retention alone. Knowledge retained is the expected number of the
 * cards remembered on an average day of the horizon (the sum of retrievabilities at the end of
 * each day, averaged over the days). Not on the last day alone (issue 25): that snapshot falls
 * wherever each card happens to be in its interval, so for a few cards learnt together it went
 * down as the desired retention went up (88 % "remembered" fewer than 85 %).
 */
import { createRandom } from '../assessment/random';
import { newCard, retrievability, reviewCard, type CardRecord } from '../scheduler/fsrs';

export interface SimulationPoint {
  retention: number;
  /** Mean reviews per day over the horizon. */
  reviewsPerDay: number;
  totalReviews: number;
  /** Expected cards remembered on an average day of the horizon. */
  knowledgeRetained: number;
  /** The same, as a share of the cards. */
  retainedShare: number;
}

export interface SimulationInput {
  cards: ReadonlyArray<CardRecord | null>;
  weights: readonly number[] | null;
  retentions: readonly number[];
  days: number;
  now: Date;
  /** Independent runs averaged (more: smoother curves). */
  runs?: number;
  seed?: string;
}

const dayMs = 86_400_000;

/** One run of one retention: the reviews done each day and the knowledge on an average day. */
export function simulateOnce(input: Omit<SimulationInput, 'retentions' | 'runs'> & { retention: number; seed: string }): { reviewsByDay: number[]; knowledge: number } {
  const settings = { retention: input.retention, weights: input.weights };
  const reviewsByDay = new Array<number>(input.days).fill(0);
  const end = new Date(input.now.getTime() + input.days * dayMs);
  let knowledgeSum = 0;
  for (const [index, start] of input.cards.entries()) {
    // One random stream per card: the same draws for every retention.
    const random = createRandom(`${input.seed}#${index}`);
    let card = start ?? newCard(input.now);
    let at = start && start.state !== 'new' ? new Date(Math.max(card.due.getTime(), input.now.getTime())) : input.now;
    // The end of day `sampleDay` (1-based) is sampled with the card as it stands then: after the
    // reviews before that instant, before the ones at or after it.
    let sampleDay = 1;
    const sampleUntil = (limit: number) => {
      for (; sampleDay <= input.days && input.now.getTime() + sampleDay * dayMs <= limit; sampleDay += 1) {
        knowledgeSum += retrievability(card, new Date(input.now.getTime() + sampleDay * dayMs), settings) ?? 0;
      }
    };
    while (at.getTime() < end.getTime()) {
      sampleUntil(at.getTime());
      const day = Math.floor((at.getTime() - input.now.getTime()) / dayMs);
      reviewsByDay[day] = (reviewsByDay[day] ?? 0) + 1;
      const chance = card.state === 'new' ? 1 : (retrievability(card, at, settings) ?? 0);
      const rating = random.next() < chance ? 'good' : 'again';
      card = reviewCard(card, rating, at, settings).card;
      at = card.due;
    }
    sampleUntil(end.getTime());
  }
  return { reviewsByDay, knowledge: knowledgeSum / input.days };
}

export function simulateRetentions(input: SimulationInput): SimulationPoint[] {
  const runs = input.runs ?? 8;
  const seed = input.seed ?? 'simulate';
  return input.retentions.map((retention) => {
    let totalReviews = 0;
    let knowledge = 0;
    for (let run = 0; run < runs; run += 1) {
      const once = simulateOnce({ ...input, retention, seed: `${seed}#${run}` });
      totalReviews += once.reviewsByDay.reduce((sum, count) => sum + count, 0);
      knowledge += once.knowledge;
    }
    totalReviews /= runs;
    knowledge /= runs;
    return {
      retention,
      reviewsPerDay: totalReviews / input.days,
      totalReviews,
      knowledgeRetained: knowledge,
      retainedShare: input.cards.length === 0 ? 0 : knowledge / input.cards.length,
    };
  });
}
