/**
 * What a learner may see of an assessment (SPEC §4.3, §5): progress while it runs (never a
 * correct answer, a test or a score), and the full results with the per-item review only
 * once it is over.
 */
import type { AssessmentItemReview, AssessmentProgress, AssessmentResults, SessionState, SessionSummary, Widget } from '@tutorloop/shared';
import { codeExamples, estimateAbilities, testCases, toResponseRecord, type AbilityReport, type AssessmentBlueprint, type Catalog, type GeneratedItem, type ResponseRecord } from '../assessment';
import type { StoredItem, StoredResponse } from '../storage/assessments';
import { buildState, isEnded } from '../session/session-view';
import type { SessionSnapshot } from '../storage/session-snapshot';
import type { StoredSession } from '../storage/sessions';
import { typeStateOf } from '../storage/session-type-state';
import { deadlineOf, type AssessmentConfig } from './assessment-config';

/** The widget presenting an item: its stem and options, or the code editor with starter code. */
export function widgetForItem(item: GeneratedItem, position: number, totalItems: number): Omit<Widget, 'widgetId'> {
  const context = `Item ${position} of ${totalItems}`;
  if (item.kind === 'code' && item.code) {
    const examples = codeExamples(item.code);
    return { kind: 'code_editor', props: { prompt: item.stem, language: item.code.language, starterCode: item.code.starterCode, ...(examples.length > 0 ? { examples } : {}) } };
  }
  return { kind: 'multiple_choice', props: { prompt: item.stem, options: [...(item.options ?? [])], context } };
}

export function sectionTitle(blueprint: AssessmentBlueprint, sectionId: string): string {
  return blueprint.sections.find((section) => section.id === sectionId)?.title ?? sectionId;
}

export function progressOf(
  blueprint: AssessmentBlueprint,
  config: AssessmentConfig,
  items: StoredItem[],
  responses: StoredResponse[],
  ended: boolean,
  now: Date,
): AssessmentProgress {
  const answered = new Set(responses.map((response) => response.itemId));
  const current = ended ? undefined : items.find((item) => !answered.has(item.id));
  // Before the first item the clock has not started: the full limit is left.
  const deadline = deadlineOf(config, items) ?? new Date(now.getTime() + config.timeLimitSeconds * 1000);
  return {
    blueprintId: blueprint.id,
    answered: answered.size,
    totalItems: blueprint.totalItems,
    currentPosition: current?.position ?? null,
    section: current ? sectionTitle(blueprint, current.item.sectionId) : null,
    deadline: deadline.toISOString(),
    remainingSeconds: ended ? 0 : Math.max(0, Math.round((deadline.getTime() - now.getTime()) / 100) / 10),
    timeLimitSeconds: config.timeLimitSeconds,
  };
}

function answerOf(response: StoredResponse | undefined): string | null {
  return response ? response.answerText : null;
}

export function buildResults(
  blueprint: AssessmentBlueprint,
  items: StoredItem[],
  responses: StoredResponse[],
  abilities: AbilityReport,
): AssessmentResults {
  const byItem = new Map(responses.map((response) => [response.itemId, response]));
  const reviews: AssessmentItemReview[] = items.map(({ id, position, item }) => {
    const response = byItem.get(id);
    return {
      position,
      section: sectionTitle(blueprint, item.sectionId),
      domain: item.domain,
      skillId: item.skillId,
      kind: item.kind,
      stem: item.stem,
      ...(item.options ? { options: [...item.options] } : {}),
      learnerAnswer: answerOf(response),
      correctAnswer: item.correctAnswer,
      credit: response?.credit ?? 0,
      timeSeconds: response ? Math.round(response.responseSeconds * 10) / 10 : null,
      difficulty: Math.round(item.difficulty * 100) / 100,
      ...(item.kind === 'code'
        ? {
            tests: {
              passed: response?.testsPassed ?? 0,
              total: response?.testsTotal ?? item.code?.tests.length ?? 0,
              ...(response?.note ? { note: response.note } : {}),
              // The assessment is over: every test is shown, hidden ones included (issue 25 item 2).
              ...(item.code && (response === undefined || response.testOutcomes) ? { cases: testCases(item.code.functionName, item.code.tests, response?.testOutcomes ?? null) } : {}),
            },
          }
        : {}),
    };
  });
  const score = responses.reduce((sum, response) => sum + response.credit, 0);
  const maxScore = blueprint.totalItems;
  const domains = abilities.domains.map((estimate) => {
    const sections = blueprint.sections.filter((section) => section.domain === estimate.domain);
    const domainItems = new Set(items.filter(({ item }) => item.domain === estimate.domain).map(({ id }) => id));
    return {
      ...estimate,
      score: round(responses.filter((response) => domainItems.has(response.itemId)).reduce((sum, response) => sum + response.credit, 0)),
      maxScore: sections.reduce((sum, section) => sum + section.itemCount, 0),
    };
  });
  return {
    blueprintId: blueprint.id,
    title: blueprint.title,
    score: round(score),
    maxScore,
    percent: maxScore > 0 ? Math.min(1, round(score / maxScore, 4)) : 0,
    answered: responses.length,
    overall: abilities.overall,
    domains,
    items: reviews,
  };
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The server's framing of an item: where the learner is, and the rules on the first item. */
export function framingText(blueprint: AssessmentBlueprint, item: GeneratedItem, position: number, config: AssessmentConfig): string {
  const where = `**Item ${position} of ${blueprint.totalItems}** · ${sectionTitle(blueprint, item.sectionId)}`;
  if (position > 1) return where;
  const minutes = Math.round(config.timeLimitSeconds / 60);
  return `Welcome to “${blueprint.title}”: ${blueprint.totalItems} items, ${minutes} minutes. There are no hints or feedback until the end — your results come once you finish or time runs out.\n\n${where}`;
}

export function responseRecords(items: StoredItem[], responses: StoredResponse[]): ResponseRecord[] {
  const byItem = new Map(items.map((stored) => [stored.id, stored]));
  return responses.flatMap((response) => {
    const stored = byItem.get(response.itemId);
    return stored ? [toResponseRecord(stored.item, { position: stored.position, credit: response.credit, responseSeconds: response.responseSeconds })] : [];
  });
}

/** An assessment's configuration and its blueprint (which must still be in the catalog). */
export function assessmentSetup(catalog: Catalog, session: StoredSession): { blueprint: AssessmentBlueprint; config: AssessmentConfig } {
  const { type: _type, ...config } = typeStateOf(session, 'assessment');
  const blueprint = catalog.getAssessment(config.blueprintId);
  if (!blueprint) throw new Error(`assessment blueprint ${config.blueprintId} is no longer available`);
  return { blueprint, config };
}

/** The state a learner sees of an assessment (SPEC §5): items answered of the blueprint's and the time left, never a score. */
export function assessmentState(catalog: Catalog, snapshot: SessionSnapshot, now: Date): SessionState {
  const { blueprint, config } = assessmentSetup(catalog, snapshot.session);
  const { items, responses } = assessmentOf(snapshot);
  const progress = progressOf(blueprint, config, items, responses, isEnded(snapshot.session.status), now);
  return buildState(snapshot.session, { recalledCount: progress.answered, totalPoints: progress.totalItems, assessment: progress }, snapshot.pendingAction);
}

/** The summary of an ended assessment: score, abilities and the per-item review. */
export function assessmentSummary(catalog: Catalog, snapshot: SessionSnapshot, now: Date): SessionSummary {
  const { session } = snapshot;
  const { blueprintId } = typeStateOf(session, 'assessment');
  const blueprint = catalog.getAssessment(blueprintId);
  if (!blueprint) throw new Error(`assessment blueprint ${blueprintId} is no longer available`);
  const { items, responses } = assessmentOf(snapshot);
  const abilities = estimateAbilities(catalog, blueprint.id, responseRecords(items, responses));
  const ended = session.endedAt ?? now;
  return {
    sessionId: session.id,
    type: 'assessment',
    status: session.status === 'abandoned' ? 'abandoned' : 'completed',
    reason: (session.endReason ?? 'ended_by_learner') as SessionSummary['reason'],
    turns: session.turn,
    recalledCount: responses.length,
    totalPoints: blueprint.totalItems,
    durationSeconds: Math.max(0, Math.round((ended.getTime() - session.createdAt.getTime()) / 1000)),
    points: [],
    assessment: buildResults(blueprint, items, responses, abilities),
  };
}

/** An assessment snapshot's items and responses. */
export function assessmentOf(snapshot: SessionSnapshot): { items: StoredItem[]; responses: StoredResponse[] } {
  return snapshot.assessment ?? { items: [], responses: [] };
}
