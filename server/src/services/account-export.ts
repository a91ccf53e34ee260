/**
 * The account export (SPEC §6, §8): everything a learner owns, read in one consistent unit, in
 * the versioned format of `AccountExport` (shared/src/account.ts) that account-restore.ts reads
 * back. Built-in plans, surveys and blueprints are the server's: sessions name them by id.
 * Model call records and agent logs are the operator's diagnostics, not the learner's work, and
 * are left out.
 */
import { AccountExportFormat, type AccountExport } from '@tutorloop/shared';
import { z } from 'zod';
import type { StorageReader } from '../core/storage/storage';
import type { StoredSession } from '../core/storage/sessions';
import { AppError } from './app-error';
import { toLearner } from './learners';

type ExportedSession = AccountExport['sessions'][number];

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** Every piece of the learner's data as one document. */
export async function exportAccount(reader: StorageReader, learnerId: string, now: Date): Promise<AccountExport> {
  const learner = await reader.learners.get(learnerId);
  if (!learner) throw new AppError('unauthorized', 'Sign in first: this account no longer exists.');
  const sessions: ExportedSession[] = [];
  for (const session of await reader.sessions.listByLearner(learnerId)) sessions.push(await exportSession(reader, session));
  return {
    format: AccountExportFormat.name,
    version: AccountExportFormat.version,
    exportedAt: iso(now),
    learner: toLearner(learner),
    settings: { desiredRetention: learner.desiredRetention },
    recallSets: await exportRecallSets(reader, learnerId),
    cards: await exportCards(reader, learnerId),
    sessions,
    studyPlans: (await reader.studyPlans.listVisibleTo(learnerId))
      .filter((plan) => plan.ownerId === learnerId)
      .map((plan) => ({ id: plan.id, title: plan.title, shared: plan.shared, createdAt: iso(plan.createdAt), updatedAt: iso(plan.updatedAt), plan: plan.plan as Record<string, unknown> })),
    surveys: (await reader.surveys.listVisibleTo(learnerId))
      .filter((survey) => survey.ownerId === learnerId)
      .map((survey) => ({ id: survey.id, title: survey.title, shared: survey.shared, createdAt: iso(survey.createdAt), updatedAt: iso(survey.updatedAt), survey: survey.survey as unknown as Record<string, unknown> })),
  };
}

async function exportRecallSets(reader: StorageReader, learnerId: string): Promise<AccountExport['recallSets']> {
  const sets = await reader.recallSets.listByLearner(learnerId);
  const points = await reader.recallSets.listPointsOfSets(sets.map((set) => set.id));
  return sets.map((set) => ({
    id: set.id,
    name: set.name,
    description: set.description,
    createdAt: iso(set.createdAt),
    updatedAt: iso(set.updatedAt),
    points: points
      .filter((point) => point.recallSetId === set.id)
      .map((point) => ({ id: point.id, content: point.content, context: point.context, position: point.position, createdAt: iso(point.createdAt) })),
  }));
}

async function exportCards(reader: StorageReader, learnerId: string): Promise<AccountExport['cards']> {
  const sets = await reader.recallSets.listByLearner(learnerId);
  const points = await reader.recallSets.listPointsOfSets(sets.map((set) => set.id));
  const cards = await reader.cards.listFor(learnerId, points.map((point) => point.id));
  const exported: AccountExport['cards'] = [];
  for (const [pointId, card] of cards) {
    const reviews = await reader.cards.listReviewLogs(card.id);
    exported.push({
      id: card.id,
      pointId,
      state: card.state,
      due: iso(card.due),
      stability: card.stability,
      difficulty: card.difficulty,
      elapsedDays: card.elapsedDays,
      scheduledDays: card.scheduledDays,
      learningSteps: card.learningSteps,
      reps: card.reps,
      lapses: card.lapses,
      lastReview: isoOrNull(card.lastReview),
      reviews: reviews.map((review) => ({
        id: review.id,
        sessionId: review.sessionId,
        rating: review.rating,
        confidence: review.confidence,
        reviewedAt: iso(review.reviewedAt),
        previous: { ...review.previous, due: iso(review.previous.due) },
      })),
    });
  }
  return exported.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}

/**
 * The survey a session answers, read from the shape of its state (a survey session's state names
 * it), so the export names no session type (session-types-boundary.test.ts); null otherwise.
 */
const SurveyLink = z.object({ surveyId: z.string() });
function surveyAnsweredBy(typeState: unknown): string | null {
  const parsed = SurveyLink.safeParse(typeState);
  return parsed.success ? parsed.data.surveyId : null;
}

async function exportSession(reader: StorageReader, session: StoredSession): Promise<ExportedSession> {
  const messages = await reader.messages.list(session.id, { includeSuperseded: true });
  const checklist = await reader.checklists.list(session.id);
  const actions = await reader.pendingActions.list(session.id);
  const items = await reader.assessments.listItems(session.id);
  const responses = await reader.assessments.listResponses(session.id);
  const abilities = await reader.assessments.listAbilities(session.id);
  const surveyId = surveyAnsweredBy(session.typeState);
  const surveyResponses = surveyId ? (await reader.surveys.listResponses(surveyId)).filter((response) => response.sessionId === session.id) : [];
  return {
    id: session.id,
    type: session.type,
    status: session.status,
    title: session.title,
    recallSetId: session.recallSetId,
    turn: session.turn,
    endReason: session.endReason,
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
    endedAt: isoOrNull(session.endedAt),
    typeState: session.typeState as unknown as Record<string, unknown>,
    checklist: checklist.map((entry) => ({
      pointId: entry.pointId,
      status: entry.status,
      confidence: entry.confidence,
      turnRecalled: entry.turnRecalled,
      recalledAt: isoOrNull(entry.recalledAt),
    })),
    messages: messages.map((message) => ({
      id: message.id,
      seq: message.seq,
      role: message.role,
      content: message.content,
      createdAt: iso(message.createdAt),
      toolCall: message.toolCall,
      toolCallId: message.toolCallId,
      widgetAnswer: message.widgetAnswer as ExportedSession['messages'][number]['widgetAnswer'],
      clientMessageId: message.clientMessageId,
      answeredAt: isoOrNull(message.answeredAt),
      stopped: message.stopped,
      supersededBy: message.supersededBy,
    })),
    pendingActions: actions.map((action) => ({
      id: action.id,
      toolCallId: action.toolCallId,
      kind: action.kind,
      props: action.props,
      status: action.status,
      createdAt: iso(action.createdAt),
    })),
    items: items.map((item) => ({
      id: item.id,
      position: item.position,
      widgetId: item.widgetId,
      presentedAt: iso(item.presentedAt),
      item: item.item as unknown as ExportedSession['items'][number]['item'],
    })),
    responses: responses.map((response) => ({ ...response, answeredAt: iso(response.answeredAt) })),
    abilities: abilities.map((ability) => ({
      domain: ability.domain,
      ability: ability.ability,
      standardError: ability.standardError,
      responses: ability.responses,
      updatedAt: iso(ability.updatedAt),
    })),
    surveyResponses: surveyResponses.map((response) => ({
      id: response.id,
      surveyId: response.surveyId,
      questionId: response.questionId,
      answer: response.answer as Record<string, unknown> | null,
      answerText: response.answerText,
      answeredAt: iso(response.answeredAt),
    })),
  };
}
