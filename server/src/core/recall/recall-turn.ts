/**
 * The recall session's part of a turn (SPEC §4.1), as the shared turn runner's hooks: the
 * evaluator on every unchecked point, checklist + FSRS + probe in one transaction, the tutor's
 * input (probe point, just recalled, feedback as an ephemeral note), rabbit-hole mode changes.
 */
import type { SessionState } from '@tutorloop/shared';
import { normalizeEvaluation } from '../evaluation/parse-evaluation';
import type { Clock, IdGenerator, Logger } from '../ports';
import { emptyEvaluation, type EvaluationResult, type TutorProvider } from '../provider';
import { buildState, checklistProgress, toConversation } from '../session/session-view';
import type { TurnHooks } from '../session/turn-runner';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage, StorageTx } from '../storage/storage';
import { newCard, ratingForRecall, reviewCard, type RatingName } from './fsrs';
import { recallEvidence } from './review-evidence';
import { allRecalled, applyModeChange, decideEvaluation, modeChangeApplies, toChecklistPoint } from './recall-rules';

/** How many recent messages the evaluator sees (SPEC §4.1). */
export const evaluatorWindow = 10;

export interface RecallTurnDeps {
  storage: Storage;
  provider: TutorProvider;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/** The state a learner sees of a recall session. */
export function recallState(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'pendingAction'>): SessionState {
  const state = buildState(snapshot.session, checklistProgress(snapshot.checklist), snapshot.pendingAction);
  // An early review (nothing was due) is announced, never silent (SPEC §4.1).
  return typeStateOf(snapshot.session, 'recall').allPoints ? { ...state, earlyReview: true } : state;
}

/** Reviews the learner's card for a point (read in the transaction that writes it) and logs the review. */
export async function reviewPoint(
  tx: StorageTx,
  ids: IdGenerator,
  review: { sessionId: string; learnerId: string; pointId: string; rating: RatingName; confidence: number | null; retention: number; now: Date },
) {
  const { sessionId, learnerId, pointId, rating, confidence, retention, now } = review;
  const existing = await tx.cards.get(learnerId, pointId);
  // The learner's own FSRS parameters once optimised (core/scheduler/), else the defaults.
  const outcome = reviewCard(existing ?? newCard(now), rating, now, { retention, weights: await tx.scheduler.currentWeights(learnerId) });
  const cardId = await tx.cards.save({ learnerId, pointId, card: outcome.card, newId: ids.next() });
  await tx.cards.addReviewLog(ids.next(), { cardId, sessionId, rating, confidence, previous: outcome.previous, reviewedAt: now });
  return { ...outcome.card, id: cardId };
}

/** The hooks of a recall turn; `complete` ends the session once every point is recalled. */
export function recallTurnHooks(deps: RecallTurnDeps, sessionId: string, complete: () => Promise<void>): TurnHooks<EvaluationResult> {
  return {
    noEvaluation: emptyEvaluation,

    async evaluate(snapshot, message, signal) {
      const unchecked = snapshot.checklist.filter((entry) => entry.status === 'pending');
      // Already-recalled points are never sent again; with nothing unchecked there is no call.
      if (unchecked.length === 0) return emptyEvaluation;
      const conversation = snapshot.messages.filter((stored) => stored.seq <= message.seq);
      try {
        const raw = await deps.provider.evaluate(
          {
            sessionId,
            points: unchecked.map(toChecklistPoint),
            recentMessages: toConversation(conversation).slice(-evaluatorWindow),
            mode: typeStateOf(snapshot.session, 'recall').mode,
          },
          signal,
        );
        // Providers pass the evaluator's answer on as it came; it is cleaned here, once (SPEC §4.1).
        return normalizeEvaluation(raw, new Set(unchecked.map((entry) => entry.pointId)));
      } catch (error) {
        // A failed evaluation yields an empty result; the turn goes on (SPEC §4.1).
        deps.logger.warn({ err: error, sessionId }, 'evaluation failed; continuing with an empty result');
        return emptyEvaluation;
      }
    },

    /** Checks off recalled points, reviews their cards, moves the probe — one transaction. */
    async applyEvaluation(snapshot, evaluation) {
      const now = deps.clock.now();
      const decision = decideEvaluation(snapshot, evaluation, now);
      const { learnerId, turn } = snapshot.session;
      const { session, cards } = await deps.storage.transaction(async (tx) => {
        const cards = new Map(snapshot.cards);
        for (const point of decision.recalled) {
          await tx.checklists.markRecalled(sessionId, point.id, { confidence: point.confidence, observation: point.observation, turn, at: now });
          // The grade reflects how the point was recalled: free, after a hint, or recognised (fsrs.ts).
          const rating = ratingForRecall(recallEvidence(snapshot, point.id), point.confidence);
          cards.set(point.id, await reviewPoint(tx, deps.ids, { sessionId, learnerId, pointId: point.id, rating, confidence: point.confidence, retention: snapshot.desiredRetention, now }));
        }
        return { session: await tx.sessions.update(sessionId, { typeState: decision.typeState }, now), cards };
      });
      const unchecked = snapshot.checklist.filter((entry) => entry.status === 'pending').length;
      if (unchecked > 0) deps.logger.debug({ sessionId, recalled: decision.recalled.map((point) => point.id), unchecked }, 'evaluation applied');
      return { ...snapshot, session, checklist: decision.checklist, cards };
    },

    tutorInput(snapshot, trigger, replyTo, evaluation) {
      const { session, checklist } = snapshot;
      const state = typeStateOf(session, 'recall');
      const probe = checklist[state.probeIndex];
      const since = replyTo?.createdAt.getTime() ?? Number.POSITIVE_INFINITY;
      return {
        sessionId,
        trigger,
        title: session.title,
        mode: state.mode,
        rabbitholeTopic: state.rabbitholeTopic,
        checklist: checklist.map((entry) => ({ ...toChecklistPoint(entry), recalled: entry.status === 'recalled' })),
        probePoint: probe && probe.status === 'pending' ? toChecklistPoint(probe) : null,
        probeAttempts: state.probeAttempts,
        justRecalled: checklist
          .filter((entry) => entry.status === 'recalled' && entry.recalledAt && entry.recalledAt.getTime() >= since)
          .map(toChecklistPoint),
        feedback: evaluation.feedback,
        conversation: toConversation(snapshot.messages),
        turn: session.turn,
      };
    },

    leakMarkers: (snapshot) => snapshot.checklist.map((entry) => entry.pointId),
    modeChangeApplies,
    applyModeChange: (tx, session, change, now) => tx.sessions.update(sessionId, { typeState: applyModeChange(typeStateOf(session, 'recall'), change) }, now),
    modeChangeResult: (change) => (change.mode === 'rabbithole' ? `Now exploring the tangent: ${change.topic}` : 'Back to recall.'),
    state: recallState,

    async afterReply(snapshot) {
      if (!allRecalled(snapshot.checklist)) return false;
      await complete();
      return true;
    },
  };
}
