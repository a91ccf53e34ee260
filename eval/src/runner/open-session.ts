/**
 * Creates what a case's session needs over the HTTP API and opens the session: a recall
 * set (inline or imported), an assessment blueprint or a study plan (one the server has, or
 * one written in the suite). A server that lacks the feature
 * fails the case with a message saying so — nothing is skipped silently.
 */
import type { StudyPlanContent } from '@tutorloop/shared';
import { describeApiFailure, type ApiClient } from '../protocol/api-client';
import type { SessionSubject } from '../suites/suite-schema';

export interface OpenedSession {
  sessionId: string;
  type: 'recall' | 'assessment' | 'learning';
  /** The recall set's id (recall sessions), for reading cards. */
  recallSetId: string | null;
  /** The points of the recall set (ids and contents), for leak checks. */
  points: Array<{ id: string; content: string }>;
  /** Learning sessions: the study plan as its author wrote it, expected answers included. */
  studyPlan: { id: string; plan: StudyPlanContent } | null;
}

export type OpenSessionResult = { ok: true; value: OpenedSession } | { ok: false; error: string };

export async function openSession(api: ApiClient, subject: SessionSubject): Promise<OpenSessionResult> {
  switch (subject.type) {
    case 'recall': {
      const created = subject.recallSet
        ? await api.createRecallSet({
            name: subject.recallSet.name,
            ...(subject.recallSet.description ? { description: subject.recallSet.description } : {}),
            points: subject.recallSet.points,
          })
        : await api.importRecallSet({ format: subject.import!.format, text: subject.import!.text, ...(subject.import!.name ? { name: subject.import!.name } : {}) });
      if (!created.ok) return { ok: false, error: `could not create the recall set: ${describeApiFailure(created.error)}` };
      const session = await api.createSession({ type: 'recall', recallSetId: created.value.id });
      if (!session.ok) return { ok: false, error: `could not start the recall session: ${describeApiFailure(session.error)}` };
      return {
        ok: true,
        value: {
          sessionId: session.value.sessionId,
          type: 'recall',
          recallSetId: created.value.id,
          points: created.value.points.map((point) => ({ id: point.id, content: point.content })),
          studyPlan: null,
        },
      };
    }
    case 'assessment': {
      const blueprints = await api.blueprints();
      if (!blueprints.ok) {
        const unsupported = blueprints.error.status === 404;
        return {
          ok: false,
          error: unsupported
            ? `this server does not support assessment sessions (${describeApiFailure(blueprints.error)})`
            : `could not list the blueprints: ${describeApiFailure(blueprints.error)}`,
        };
      }
      const ids = blueprints.value.blueprints.map((blueprint) => blueprint.id);
      if (!ids.includes(subject.blueprintId)) {
        return { ok: false, error: `this server has no blueprint "${subject.blueprintId}" (available: ${ids.join(', ') || 'none'})` };
      }
      const session = await api.createSession({ type: 'assessment', blueprintId: subject.blueprintId });
      if (!session.ok) return { ok: false, error: `could not start the assessment session: ${describeApiFailure(session.error)}` };
      return { ok: true, value: { sessionId: session.value.sessionId, type: 'assessment', recallSetId: null, points: [], studyPlan: null } };
    }
    case 'learning': {
      let plan: { id: string; plan: StudyPlanContent };
      if (subject.plan) {
        const created = await api.createStudyPlan(subject.plan);
        if (!created.ok) {
          return {
            ok: false,
            error: created.error.status === 404 ? `this server does not support study plans (${describeApiFailure(created.error)})` : `could not create the study plan: ${describeApiFailure(created.error)}`,
          };
        }
        plan = { id: created.value.id, plan: created.value.plan };
      } else {
        const listed = await api.studyPlans();
        if (!listed.ok) {
          return {
            ok: false,
            error: listed.error.status === 404 ? `this server does not support learning sessions (${describeApiFailure(listed.error)})` : `could not list the study plans: ${describeApiFailure(listed.error)}`,
          };
        }
        const ids = listed.value.studyPlans.map((entry) => entry.id);
        if (!ids.includes(subject.studyPlanId!)) {
          return { ok: false, error: `this server has no study plan "${subject.studyPlanId}" (available: ${ids.join(', ') || 'none'})` };
        }
        const detail = await api.studyPlan(subject.studyPlanId!);
        if (!detail.ok) return { ok: false, error: `could not read the study plan: ${describeApiFailure(detail.error)}` };
        plan = { id: detail.value.id, plan: detail.value.plan };
      }
      const session = await api.createSession({ type: 'learning', studyPlanId: plan.id });
      if (!session.ok) return { ok: false, error: `could not start the learning session: ${describeApiFailure(session.error)}` };
      return { ok: true, value: { sessionId: session.value.sessionId, type: 'learning', recallSetId: null, points: [], studyPlan: plan } };
    }
    default: {
      const unreachable: never = subject;
      throw new Error(`unknown session subject ${JSON.stringify(unreachable)}`);
    }
  }
}
