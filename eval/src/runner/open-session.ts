/**
 * Creates what a case's session needs over the HTTP API and opens the session: a recall
 * set (inline or imported) or an assessment blueprint. A server that lacks the feature
 * fails the case with a message saying so — nothing is skipped silently.
 */
import { describeApiFailure, type ApiClient } from '../protocol/api-client';
import type { SessionSubject } from '../suites/suite-schema';

export interface OpenedSession {
  sessionId: string;
  type: 'recall' | 'assessment';
  /** The recall set's id (recall sessions), for reading cards. */
  recallSetId: string | null;
  /** The points of the recall set (ids and contents), for leak checks. */
  points: Array<{ id: string; content: string }>;
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
      return { ok: true, value: { sessionId: session.value.sessionId, type: 'assessment', recallSetId: null, points: [] } };
    }
    default: {
      const unreachable: never = subject;
      throw new Error(`unknown session subject ${JSON.stringify(unreachable)}`);
    }
  }
}
