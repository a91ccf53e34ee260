/**
 * The recall session's part of a turn (SPEC §4.1), as the shared turn runner's hooks: the
 * evaluator on every unchecked point, checklist + FSRS + probe in one transaction, the tutor's
 * input (probe point, just recalled, feedback as an ephemeral note) and its call, point ids as
 * leak markers, widgets guarded against the checklist, rabbit-hole mode changes.
 */
import type { SessionState } from '@tutorloop/shared';
import { normalizeEvaluation } from '../evaluation/parse-evaluation';
import type { Clock, IdGenerator, Logger } from '../ports';
import { emptyEvaluation, modeToolNames, type EvaluationResult, type TutorInput, type TutorProvider } from '../provider';
import { buildState, checklistProgress, toConversation } from '../session/session-view';
import { regenerationNote } from '../session/tutor-draft';
import type { TurnHooks, TurnWording } from '../session/turn-runner';
import type { SessionSnapshot } from '../storage/session-snapshot';
import { typeStateOf } from '../storage/session-type-state';
import type { Storage, StorageTx } from '../storage/storage';
import { recordReview } from '../scheduler/record-review';
import { ratingForRecall } from './recall-rating';
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

/** The words of the replies and errors the runner writes for a recall session. */
const recallWording: TurnWording = {
  safetyRedirect:
    'I want to keep this a safe and useful space, so I won’t go into that. If you are going through something difficult, please reach out to someone you trust or a local support line. Whenever you’re ready, let’s get back to the material.',
  unavailable: 'The tutor could not answer just now. Your message is saved — send it again to retry.',
};

/** The state a learner sees of a recall session. */
export function recallState(snapshot: Pick<SessionSnapshot, 'session' | 'checklist' | 'pendingAction'>): SessionState {
  const state = buildState(snapshot.session, checklistProgress(snapshot.checklist), snapshot.pendingAction);
  // An early review (nothing was due) is announced, never silent (SPEC §4.1).
  return typeStateOf(snapshot.session, 'recall').allPoints ? { ...state, earlyReview: true } : state;
}

/** The hooks of a recall turn; `complete` ends the session once every point is recalled. */
export function recallTurnHooks(deps: RecallTurnDeps, sessionId: string, complete: () => Promise<void>): TurnHooks<EvaluationResult, TutorInput> {
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
    async applyEvaluation({ snapshot, evaluation }) {
      const now = deps.clock.now();
      const decision = decideEvaluation(snapshot, evaluation, now);
      const { learnerId, turn } = snapshot.session;
      const { session, cards } = await deps.storage.transaction(async (tx) => {
        const cards = new Map(snapshot.cards);
        for (const point of decision.recalled) {
          await tx.checklists.markRecalled(sessionId, point.id, { confidence: point.confidence, observation: point.observation, turn, at: now });
          // The grade reflects how the point was recalled: free, after a hint, or recognised (fsrs.ts).
          const rating = ratingForRecall(recallEvidence(snapshot, point.id), point.confidence);
          cards.set(point.id, await recordReview(tx, deps.ids, { sessionId, learnerId, pointId: point.id, rating, confidence: point.confidence, now }));
        }
        return { session: await tx.sessions.update(sessionId, { typeState: decision.typeState }, now), cards };
      });
      const unchecked = snapshot.checklist.filter((entry) => entry.status === 'pending').length;
      if (unchecked > 0) deps.logger.debug({ sessionId, recalled: decision.recalled.map((point) => point.id), unchecked }, 'evaluation applied');
      return { ...snapshot, session, checklist: decision.checklist, cards };
    },

    modelInput({ snapshot, trigger, replyTo, evaluation, retryOf }) {
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
        ...(retryOf ? { retryOf: retryOf.content } : {}),
      };
    },

    // A leaking draft is asked for again with a note on what leaked, beside the evaluator's feedback.
    reply: (input, leaked, signal) => deps.provider.reply(leaked ? { ...input, feedback: regenerationNote(input.feedback, leaked) } : input, signal),
    leakGuard: { markers: (snapshot) => snapshot.checklist.map((entry) => entry.pointId) },
    tools: {
      widgetGuard: (input) => ({
        unchecked: input.checklist.filter((point) => !point.recalled),
        recalled: input.checklist.filter((point) => point.recalled),
        cued: input.probePoint,
        cueLevel: input.probeAttempts,
      }),
      modeChangeApplies,
      modeToolCall: (change) =>
        change.mode === 'rabbithole' ? { name: modeToolNames.enter, input: { topic: change.topic } } : { name: modeToolNames.exit, input: {} },
      applyModeChange: (tx, session, change, now) => tx.sessions.update(sessionId, { typeState: applyModeChange(typeStateOf(session, 'recall'), change) }, now),
      modeChangeResult: (change) => (change.mode === 'rabbithole' ? `Now exploring the tangent: ${change.topic}` : 'Back to recall.'),
    },
    // A stopped reply keeps what was sent as it was sent, but for trailing space.
    finalText: (text, stopped) => (stopped ? text.trimEnd() : text.trim()),
    wording: recallWording,
    state: recallState,

    async afterReply(snapshot) {
      if (!allRecalled(snapshot.checklist)) return false;
      await complete();
      return true;
    },
  };
}
