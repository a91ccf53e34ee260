/**
 * Restoring an account export (account-export.ts) into the signed-in account (SPEC §6, §8).
 *
 * - Everything gets a new id and every reference is rewritten through one map from old id to
 *   new, so restoring twice, or into another account on the same server, never clashes.
 * - Every part is checked before anything is written: the format and version, each part's
 *   shape (the shared schemas), each session's type state (its type's schema, through the
 *   session-type catalog, after its ids are rewritten) and every reference between parts.
 *   A refusal is a plain sentence naming the part; nothing is written.
 * - The writes are one storage transaction: a failure half-way leaves the account as it was.
 * - Built-in study plans, surveys and blueprints are the server's: references to them are kept.
 */
import { z } from 'zod';
import { AccountExport, AccountExportFormat, type AccountImportResult, type WidgetAnswer, type WidgetKind } from '@tutorloop/shared';
import type { IdGenerator } from '../core/ports';
import type { GeneratedItem } from '../core/assessment/item-builder';
import type { SessionTypeCatalog, SessionTypeState } from '../core/storage/session-type-state';
import type { StorageTx } from '../core/storage/storage';
import { StudyPlanContent, SurveyContent } from '@tutorloop/shared';

type Result<T> = { ok: true; value: T } | { ok: false; error: string };
type ExportedSession = AccountExport['sessions'][number];

/** A checked export, its ids already mapped to new ones and its type states parsed. */
export interface RestorePlan {
  data: AccountExport;
  /** Old id → new id, for every thing the export holds. */
  ids: Map<string, string>;
  typeStates: Map<string, SessionTypeState>;
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

/** Replaces every string that is an old id (in a structured value, never in free text) with its new id. */
function remapDeep<T>(value: T, ids: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') return (ids.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map((entry) => remapDeep(entry, ids)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, remapDeep(entry, ids)])) as T;
  return value;
}

/**
 * Checks an uploaded export and plans its restore. Refuses, in plain words: anything that is not
 * a tutorloop export, another version, a part that does not fit its schema, a duplicate id, or
 * a reference to something the export does not hold.
 */
export function planRestore(raw: unknown, catalog: SessionTypeCatalog, idGenerator: IdGenerator): Result<RestorePlan> {
  const head = z.object({ format: z.unknown(), version: z.unknown() }).safeParse(raw);
  if (!head.success || head.data.format !== AccountExportFormat.name) {
    return { ok: false, error: 'This file is not a tutorloop account export (it should be the JSON file that "Export my data" saves).' };
  }
  if (head.data.version !== AccountExportFormat.version) {
    return {
      ok: false,
      error: `This export is format version ${JSON.stringify(head.data.version)}; this server restores version ${AccountExportFormat.version} only. Export your data again from an up-to-date tutorloop and restore that file.`,
    };
  }
  const parsed = AccountExport.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `The export is damaged: ${pathOf(issue.path) || 'the document'} — ${issue.message}. Nothing was restored.` };
  }
  const data = parsed.data;
  const ids = new Map<string, string>();
  const claim = (id: string, what: string): string | null => {
    if (ids.has(id)) return `The export is damaged: the id ${id} is used twice (${what}). Nothing was restored.`;
    ids.set(id, idGenerator.next());
    return null;
  };
  const claims: Array<[string, string]> = [];
  for (const set of data.recallSets) {
    claims.push([set.id, `recall set "${set.name}"`]);
    for (const point of set.points) claims.push([point.id, `a point of "${set.name}"`]);
  }
  for (const card of data.cards) {
    claims.push([card.id, 'a card']);
    for (const review of card.reviews) claims.push([review.id, 'a review']);
  }
  for (const plan of data.studyPlans) claims.push([plan.id, `study plan "${plan.title}"`]);
  for (const survey of data.surveys) claims.push([survey.id, `survey "${survey.title}"`]);
  for (const session of data.sessions) {
    claims.push([session.id, `session "${session.title}"`]);
    for (const message of session.messages) claims.push([message.id, 'a message']);
    for (const action of session.pendingActions) claims.push([action.id, 'a widget']);
    for (const item of session.items) claims.push([item.id, 'an assessment item']);
    for (const response of session.surveyResponses) claims.push([response.id, 'a survey answer']);
  }
  for (const [id, what] of claims) {
    const clash = claim(id, what);
    if (clash) return { ok: false, error: clash };
  }

  const points = new Set(data.recallSets.flatMap((set) => set.points.map((point) => point.id)));
  const sessions = new Set(data.sessions.map((session) => session.id));
  const missing = (part: string, what: string) => ({ ok: false as const, error: `The export is damaged: ${part} refers to ${what} that is not in the file. Nothing was restored.` });
  for (const [index, card] of data.cards.entries()) {
    if (!points.has(card.pointId)) return missing(`cards[${index}]`, 'a recall point');
    for (const review of card.reviews) if (review.sessionId !== null && !sessions.has(review.sessionId)) return missing(`cards[${index}].reviews`, 'a session');
  }
  const typeStates = new Map<string, SessionTypeState>();
  for (const [index, session] of data.sessions.entries()) {
    const part = `sessions[${index}] ("${session.title}")`;
    const problem = checkSession(session, points);
    if (problem) return missing(part, problem);
    const state = catalog.states.safeParse(remapDeep(session.typeState, ids));
    if (!state.success || state.data.type !== session.type) {
      const issue = state.success ? `it is the state of a ${state.data.type} session` : `${pathOf(state.error.issues[0]!.path)} — ${state.error.issues[0]!.message}`;
      return { ok: false, error: `The export is damaged: the ${session.type} state of ${part} does not fit (${issue}). Nothing was restored.` };
    }
    typeStates.set(session.id, state.data);
  }
  for (const [index, plan] of data.studyPlans.entries()) {
    if (!StudyPlanContent.safeParse(plan.plan).success) return { ok: false, error: `The export is damaged: studyPlans[${index}] ("${plan.title}") is not a valid study plan. Nothing was restored.` };
  }
  for (const [index, survey] of data.surveys.entries()) {
    if (!SurveyContent.safeParse(survey.survey).success) return { ok: false, error: `The export is damaged: surveys[${index}] ("${survey.title}") is not a valid survey. Nothing was restored.` };
  }
  return { ok: true, value: { data, ids, typeStates } };
}

/** What inside a session refers to something the export does not hold; null when nothing does. */
function checkSession(session: ExportedSession, points: ReadonlySet<string>): string | null {
  if (session.checklist.some((entry) => !points.has(entry.pointId))) return 'a recall point (in its checklist)';
  const messages = new Set(session.messages.map((message) => message.id));
  if (session.messages.some((message) => message.supersededBy !== null && !messages.has(message.supersededBy))) return 'a message';
  const items = new Set(session.items.map((item) => item.id));
  if (session.responses.some((response) => !items.has(response.itemId))) return 'an assessment item';
  if (session.pendingActions.filter((action) => action.status === 'pending').length > 1) return 'more than one waiting widget';
  return null;
}

/** Writes a planned restore into `learnerId`'s account (inside the caller's one transaction). */
export async function writeRestore(tx: StorageTx, learnerId: string, plan: RestorePlan): Promise<AccountImportResult> {
  const { data, ids, typeStates } = plan;
  const idOf = (old: string): string => ids.get(old) ?? old;
  const at = (iso: string): Date => new Date(iso);
  await tx.learners.update(learnerId, { desiredRetention: data.settings.desiredRetention });

  for (const studyPlan of data.studyPlans) {
    const id = idOf(studyPlan.id);
    await tx.studyPlans.create({ id, ownerId: learnerId, shared: studyPlan.shared, plan: studyPlan.plan as StudyPlanContent, createdAt: at(studyPlan.createdAt) });
    if (studyPlan.updatedAt !== studyPlan.createdAt) await tx.studyPlans.update(id, { shared: studyPlan.shared }, at(studyPlan.updatedAt));
  }
  for (const survey of data.surveys) {
    const id = idOf(survey.id);
    await tx.surveys.create({ id, ownerId: learnerId, shared: survey.shared, survey: survey.survey as unknown as SurveyContent, createdAt: at(survey.createdAt) });
    if (survey.updatedAt !== survey.createdAt) await tx.surveys.update(id, { shared: survey.shared }, at(survey.updatedAt));
  }
  for (const set of data.recallSets) {
    const id = idOf(set.id);
    await tx.recallSets.create({ id, learnerId, name: set.name, description: set.description, createdAt: at(set.createdAt) });
    for (const point of set.points) {
      await tx.recallSets.addPoint({ id: idOf(point.id), recallSetId: id, content: point.content, context: point.context, position: point.position, createdAt: at(point.createdAt) });
    }
    if (set.updatedAt !== set.createdAt) await tx.recallSets.update(id, { name: set.name }, at(set.updatedAt));
  }
  for (const session of data.sessions) await writeSession(tx, learnerId, session, typeStates.get(session.id)!, ids);

  let reviews = 0;
  for (const card of data.cards) {
    const record = {
      due: at(card.due),
      stability: card.stability,
      difficulty: card.difficulty,
      elapsedDays: card.elapsedDays,
      scheduledDays: card.scheduledDays,
      learningSteps: card.learningSteps,
      reps: card.reps,
      lapses: card.lapses,
      state: card.state,
      lastReview: card.lastReview ? at(card.lastReview) : null,
    };
    const cardId = await tx.cards.save({ learnerId, pointId: idOf(card.pointId), card: record, newId: idOf(card.id) });
    for (const review of card.reviews) {
      // The log keeps the part of the earlier card the export carries; the rest is not read back.
      const previous = { ...record, ...review.previous, due: at(review.previous.due), elapsedDays: 0, learningSteps: 0, reps: 0, lapses: 0, lastReview: null };
      await tx.cards.addReviewLog(idOf(review.id), { cardId, sessionId: review.sessionId ? idOf(review.sessionId) : null, rating: review.rating, confidence: review.confidence, previous, reviewedAt: at(review.reviewedAt) } as Parameters<StorageTx['cards']['addReviewLog']>[1]);
      reviews += 1;
    }
  }
  return {
    recallSets: data.recallSets.length,
    points: data.recallSets.reduce((sum, set) => sum + set.points.length, 0),
    cards: data.cards.length,
    reviews,
    sessions: data.sessions.length,
    studyPlans: data.studyPlans.length,
    surveys: data.surveys.length,
  };
}

async function writeSession(tx: StorageTx, learnerId: string, session: ExportedSession, typeState: SessionTypeState, ids: ReadonlyMap<string, string>): Promise<void> {
  const idOf = (old: string): string => ids.get(old) ?? old;
  const remap = <T>(value: T): T => remapDeep(value, ids);
  const at = (iso: string): Date => new Date(iso);
  const id = idOf(session.id);
  await tx.sessions.create({ id, learnerId, status: session.status, title: session.title, recallSetId: session.recallSetId ? idOf(session.recallSetId) : null, typeState, createdAt: at(session.createdAt) });

  const checklist = [...session.checklist];
  if (checklist.length > 0) await tx.checklists.add(id, checklist.map((entry) => idOf(entry.pointId)));
  for (const entry of checklist) {
    if (entry.status !== 'recalled') continue;
    await tx.checklists.markRecalled(id, idOf(entry.pointId), {
      confidence: entry.confidence ?? 0,
      observation: '',
      turn: entry.turnRecalled ?? 0,
      at: at(entry.recalledAt ?? session.updatedAt),
    });
  }

  const messages = [...session.messages].sort((left, right) => left.seq - right.seq);
  for (const message of messages) {
    await tx.messages.append({
      id: idOf(message.id),
      sessionId: id,
      role: message.role,
      content: message.content,
      toolCall: remap(message.toolCall),
      toolCallId: message.toolCallId === null ? null : idOf(message.toolCallId),
      widgetAnswer: remap(message.widgetAnswer) as { widgetId: string; response: WidgetAnswer } | null,
      clientMessageId: message.clientMessageId,
      createdAt: at(message.createdAt),
      stopped: message.stopped,
    });
    if (message.answeredAt) await tx.messages.markAnswered(idOf(message.id), at(message.answeredAt));
  }
  for (const message of messages) if (message.supersededBy) await tx.messages.markSuperseded(idOf(message.id), idOf(message.supersededBy));

  for (const action of session.pendingActions) {
    const actionId = idOf(action.id);
    await tx.pendingActions.create({ id: actionId, sessionId: id, toolCallId: idOf(action.toolCallId), kind: action.kind as WidgetKind, props: remap(action.props), createdAt: at(action.createdAt) });
    if (action.status === 'pending') continue;
    // The answer itself is kept with the conversation: the tool result that carried it.
    const answer = session.messages.find((message) => message.widgetAnswer?.widgetId === action.id)?.widgetAnswer?.response ?? null;
    const answeredAt = session.messages.find((message) => message.widgetAnswer?.widgetId === action.id)?.createdAt ?? action.createdAt;
    await tx.pendingActions.resolve(actionId, action.status, answer as WidgetAnswer | null, at(answeredAt));
  }

  for (const item of session.items) {
    await tx.assessments.addItem({ id: idOf(item.id), sessionId: id, position: item.position, item: remap(item.item) as unknown as GeneratedItem, widgetId: idOf(item.widgetId), presentedAt: at(item.presentedAt) });
  }
  for (const response of session.responses) await tx.assessments.addResponse(id, { ...response, itemId: idOf(response.itemId), answeredAt: at(response.answeredAt) });
  const overall = session.abilities.find((ability) => ability.domain === '*');
  if (overall) {
    const estimate = ({ ability, standardError, responses }: AccountExport['sessions'][number]['abilities'][number]) => ({ ability, standardError, responses });
    const domains = session.abilities.filter((ability) => ability.domain !== '*').map((ability) => ({ domain: ability.domain, ...estimate(ability) }));
    await tx.assessments.saveAbilities(id, learnerId, { overall: estimate(overall), domains }, at(overall.updatedAt));
  }
  for (const response of session.surveyResponses) {
    await tx.surveys.addResponse({
      id: idOf(response.id),
      surveyId: idOf(response.surveyId),
      sessionId: id,
      learnerId,
      questionId: response.questionId,
      answer: response.answer as WidgetAnswer | null,
      answerText: response.answerText,
      answeredAt: at(response.answeredAt),
    });
  }
  await tx.sessions.update(id, { turn: session.turn, endReason: session.endReason, endedAt: session.endedAt ? at(session.endedAt) : null }, at(session.updatedAt));
}
