/** Creating, listing and deleting sessions through the storage port; each type's rules come from its session module. */
import type { CreateSessionBody, HistoryMessage, SessionListItem, SessionState, SessionSummary, SessionType } from '@tutorloop/shared';
import { moduleOf, type CreateBodyOf, type CreateOutcome, type SessionModules, type SessionOf } from '../core/session/session-module';
import { buildHistory, modeOf, stateView, summaryView } from '../core/session/session-view';
import type { SessionSnapshot, SnapshotOptions } from '../core/storage/session-snapshot';
import type { StoredSession } from '../core/storage/sessions';
import type { Storage, StorageReader } from '../core/storage/storage';
import { AppError } from './app-error';

export class SessionService {
  constructor(
    private readonly storage: Storage,
    private readonly modules: SessionModules,
  ) {}

  /** Creates a session of the body's type for the learner (its module decides how); its id. */
  async create(learnerId: string, body: CreateSessionBody, now: Date): Promise<string> {
    const outcome = await createWith(this.modules, learnerId, body, now);
    if (!outcome.ok) throw new AppError(outcome.error.code, outcome.error.message);
    return outcome.value;
  }

  /** The session if the learner owns it; 404 when missing, 403 when another learner's. */
  async owned(learnerId: string, sessionId: string): Promise<StoredSession> {
    const session = await this.storage.read((reader) => reader.sessions.get(sessionId));
    if (!session) throw new AppError('not_found', 'No session with that id.');
    if (session.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
    return session;
  }

  list(learnerId: string): Promise<SessionListItem[]> {
    return this.storage.read(async (reader) => {
      const sessions = await reader.sessions.listByLearner(learnerId);
      const items: SessionListItem[] = [];
      for (const session of sessions) items.push(await this.listItem(reader, session));
      return items;
    });
  }

  toListItem(session: StoredSession): Promise<SessionListItem> {
    return this.storage.read((reader) => this.listItem(reader, session));
  }

  private async listItem(reader: StorageReader, session: StoredSession): Promise<SessionListItem> {
    return {
      id: session.id,
      type: session.type,
      status: session.status,
      mode: modeOf(session).mode,
      title: session.title,
      recallSetId: session.recallSetId,
      ...(await progressWith(this.modules, reader, session)),
      createdAt: session.createdAt.toISOString(),
      endedAt: session.endedAt?.toISOString() ?? null,
    };
  }

  /** What the learner sees of a session now (SPEC §5), by its type's view of one snapshot: no room is opened. */
  async state(session: StoredSession, now: Date): Promise<SessionState> {
    return stateView(this.modules, await this.snapshot(session.id, { lastMessages: 0 }), now);
  }

  /** The visible conversation, for a replay. */
  async history(session: StoredSession): Promise<HistoryMessage[]> {
    const snapshot = await this.snapshot(session.id);
    return buildHistory(snapshot.messages, snapshot.actions);
  }

  /** The summary once the session has ended, else null. */
  async summary(session: StoredSession, now: Date): Promise<SessionSummary | null> {
    return summaryView(this.modules, await this.snapshot(session.id, { lastMessages: 0 }), now);
  }

  /** A session deleted since its owner was checked is as absent as one that never was. */
  private async snapshot(sessionId: string, options?: SnapshotOptions): Promise<SessionSnapshot> {
    const snapshot = await this.storage.loadSessionSnapshot(sessionId, options);
    if (!snapshot) throw new AppError('not_found', 'No session with that id.');
    return snapshot;
  }

  async delete(learnerId: string, sessionId: string): Promise<void> {
    await this.storage.transaction(async (tx) => {
      const session = await tx.sessions.get(sessionId);
      if (!session) throw new AppError('not_found', 'No session with that id.');
      if (session.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
      await tx.sessions.delete(sessionId);
    });
  }
}

function createWith<K extends SessionType>(modules: SessionModules, learnerId: string, body: CreateBodyOf<K>, now: Date): Promise<CreateOutcome> {
  return moduleOf(modules, body.type as K).create({ learnerId, body, now });
}

function progressWith<K extends SessionType>(modules: SessionModules, reader: StorageReader, session: SessionOf<K>) {
  return moduleOf(modules, session.type as K).progress(reader, session);
}
