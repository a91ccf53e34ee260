/** The in-memory scheduler repository (scheduler-runs.ts), over the cards and review logs tables. */
import { conflict, requireRow } from './memory-repositories';
import { copy, sortBy, type MemoryState } from './memory-state';
import type { CardHistory, SchedulerRepository } from './scheduler-runs';

export function schedulerRepository(state: MemoryState): SchedulerRepository {
  const cardsOf = (learnerId: string) => state.where('cards', (card) => card.learnerId === learnerId);
  const reviewsByCard = () => {
    const byCard = new Map<string, number>();
    for (const log of state.rows('reviewLogs').values()) byCard.set(log.cardId, (byCard.get(log.cardId) ?? 0) + 1);
    return byCard;
  };
  return {
    async currentWeights(learnerId) {
      const kept = sortBy(state.where('schedulerRuns', (run) => run.learnerId === learnerId && run.kept), (run) => -run.createdAt.getTime(), (run) => run.id);
      return kept[0] ? [...kept[0].weights] : null;
    },
    async listRuns(learnerId, limit) {
      const runs = sortBy(state.where('schedulerRuns', (run) => run.learnerId === learnerId), (run) => -run.createdAt.getTime(), (run) => run.id);
      return copy(limit === undefined ? runs : runs.slice(0, limit));
    },
    async reviewHistory(learnerId, page) {
      let cards = sortBy(cardsOf(learnerId), (card) => card.id);
      if (page) cards = cards.filter((card) => page.afterCardId === null || card.id > page.afterCardId).slice(0, page.limit);
      const histories = new Map<string, CardHistory>(cards.map((card) => [card.id, { cardId: card.id, pointId: card.pointId, reviews: [] }]));
      const logs = sortBy([...state.rows('reviewLogs').values()], (log) => new Date(log.reviewedAt).getTime(), (log) => log.id);
      for (const log of logs) histories.get(log.cardId)?.reviews.push({ rating: log.rating, reviewedAt: new Date(log.reviewedAt) });
      return [...histories.values()];
    },
    async reviewCount(learnerId) {
      const byCard = reviewsByCard();
      return cardsOf(learnerId).reduce((sum, card) => sum + (byCard.get(card.id) ?? 0), 0);
    },
    async learnersWithReviews(minimum) {
      const byCard = reviewsByCard();
      const byLearner = new Map<string, number>();
      for (const card of state.rows('cards').values()) byLearner.set(card.learnerId, (byLearner.get(card.learnerId) ?? 0) + (byCard.get(card.id) ?? 0));
      return sortBy(
        [...byLearner].filter(([, count]) => count >= minimum).map(([learnerId, reviewCount]) => ({ learnerId, reviewCount })),
        (entry) => entry.learnerId,
      );
    },
    async addRun(run) {
      requireRow(state, 'learners', run.learnerId, 'learner');
      if (state.rows('schedulerRuns').has(run.id)) throw conflict(`scheduler run ${run.id}`);
      state.put('schedulerRuns', run.id, copy(run));
    },
  };
}
