/**
 * A session's agent logs for its owner (SPEC §4.4 "Agent logs", §6
 * `GET /api/sessions/{id}/agent-logs`): every model call with its input summary, structured
 * output, latency, tokens and outcome. Access answers as the session's other routes do:
 * 404 for an unknown session, 403 for another learner's.
 */
import type { AgentLogEntry } from '@tutorloop/shared';
import type { StoredAgentLog } from '../core/storage/agent-logs';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

export class AgentLogService {
  constructor(private readonly storage: Storage) {}

  list(learnerId: string, sessionId: string): Promise<AgentLogEntry[]> {
    return this.storage.read(async (reader) => {
      const session = await reader.sessions.get(sessionId);
      if (!session) throw new AppError('not_found', 'No session with that id.');
      if (session.learnerId !== learnerId) throw new AppError('forbidden', 'This session belongs to another learner.');
      return (await reader.agentLogs.listForSession(sessionId)).map(toEntry);
    });
  }
}

function toEntry(log: StoredAgentLog): AgentLogEntry {
  return {
    id: log.id,
    sessionId: log.sessionId,
    seq: log.seq,
    turn: log.turn,
    agent: log.agent,
    inputSummary: log.inputSummary,
    output: (log.output ?? null) as AgentLogEntry['output'],
    latencyMs: log.latencyMs,
    tokensIn: log.tokensIn,
    tokensOut: log.tokensOut,
    outcome: log.outcome,
    createdAt: log.createdAt.toISOString(),
  };
}
