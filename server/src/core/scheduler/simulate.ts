/**
 * "Help me decide" (issue 17): for a range of desired retentions, what this learner's cards
 * would cost and keep over the next `days` days under their own FSRS parameters (pure).
 *
 * A seeded Monte Carlo over the learner's actual cards: each card is reviewed on the day it
 * falls due (overdue ones today, new ones today); whether it is recalled is drawn from its
 * retrievability then; a recall is Good, a failure Again; the card is rescheduled at that
 * retention. Every retention uses the same random numbers (common random numbers), so the
 * curves differ by the retention alone. Knowledge retained is the expected number of the
 * cards remembered on the last day (sum of retrievabilities).
 */
import { createRandom } from '../assessment/random';
import { newCard, retrievability, reviewCard, type CardRecord } from '../recall/fsrs';

export interface SimulationPoint {
  retention: number;
  /** Mean reviews per day over the horizon. */
  reviewsPerDay: number;
  totalReviews: number;
  /** Expected cards remembered on the last day. */
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

/** One run of one retention: the reviews done each day and the knowledge at the end. */
export function simulateOnce(input: Omit<SimulationInput, 'retentions' | 'runs'> & { retention: number; seed: string }): { reviewsByDay: number[]; knowledge: number } {
  const settings = { retention: input.retention, weights: input.weights };
  const reviewsByDay = new Array<number>(input.days).fill(0);
  const end = new Date(input.now.getTime() + input.days * dayMs);
  let knowledge = 0;
  for (const [index, start] of input.cards.entries()) {
    // One random stream per card: the same draws for every retention.
    const random = createRandom(`${input.seed}#${index}`);
    let card = start ?? newCard(input.now);
    let at = start && start.state !== 'new' ? new Date(Math.max(card.due.getTime(), input.now.getTime())) : input.now;
    while (at.getTime() < end.getTime()) {
      const day = Math.floor((at.getTime() - input.now.getTime()) / dayMs);
      reviewsByDay[day] = (reviewsByDay[day] ?? 0) + 1;
      const chance = card.state === 'new' ? 1 : (retrievability(card, at, settings) ?? 0);
      const rating = random.next() < chance ? 'good' : 'again';
      card = reviewCard(card, rating, at, settings).card;
      at = card.due;
    }
    knowledge += retrievability(card, end, settings) ?? 0;
  }
  return { reviewsByDay, knowledge };
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
