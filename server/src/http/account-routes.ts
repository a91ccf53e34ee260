/**
 * The learner's own account over HTTP (SPEC §6, §8): a new password, sign out everywhere,
 * export my data, restore an export, delete my account. Registered inside the authenticated scope of routes.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AccountImportLimits, ChangePasswordBody, DeleteAccountBody, type AccountExport, type AccountImportResult, type AuthResponse } from '@tutorloop/shared';
import type { TokenService } from '../auth/tokens';
import type { Clock } from '../core/ports';
import type { SessionRooms } from '../core/fleet/session-rooms';
import type { AccountService } from '../services/account';
import { AppError } from '../services/app-error';
import { parseBody } from './parse-input';

/** Open WebSocket connections, closed when their learner's tokens are revoked (on every instance, with PostgreSQL). */
export interface LearnerConnections {
  closeLearner(learnerId: string): number | Promise<number>;
}

export interface AccountRouteDeps {
  account: AccountService;
  tokens: TokenService;
  hub: SessionRooms;
  clock: Clock;
  connections: LearnerConnections;
}

export function registerAccountRoutes(api: FastifyInstance, deps: AccountRouteDeps): void {
  const { account, tokens, hub, clock, connections } = deps;

  // Every token issued before is refused from now on, and the sockets they opened are closed;
  // this device gets a fresh token.
  api.post('/api/me/password', async (request): Promise<AuthResponse> => {
    const learner = await account.changePassword(request.learnerId, parseBody(ChangePasswordBody, request.body));
    await connections.closeLearner(learner.id);
    return { token: await tokens.issue(learner.id), learner };
  });

  api.post('/api/me/sign-out-everywhere', async (request, reply: FastifyReply) => {
    await account.signOutEverywhere(request.learnerId);
    await connections.closeLearner(request.learnerId);
    return reply.status(204).send();
  });

  api.get('/api/me/export', async (request, reply): Promise<AccountExport> => {
    const now = clock.now();
    const data = await account.export(request.learnerId, now);
    reply.header('content-disposition', `attachment; filename="tutorloop-${data.learner.username}-${now.toISOString().slice(0, 10)}.json"`);
    return data;
  });

  // An export holds a learner's whole history, far over the 1 MiB default body limit; the
  // limit here is the shared one the account page also checks before uploading.
  api.post('/api/me/import', { bodyLimit: AccountImportLimits.maxBytes }, async (request, reply): Promise<AccountImportResult> => {
    const restored = await account.restore(request.learnerId, request.body);
    if (!restored.ok) throw new AppError('invalid_payload', restored.error);
    return reply.status(201).send(restored.value);
  });

  api.delete('/api/me', async (request, reply: FastifyReply) => {
    const body = parseBody(DeleteAccountBody, request.body);
    await account.confirmDeletion(request.learnerId, body);
    // Open rooms stop first, so no turn commits into a session being deleted.
    const rooms = (await account.sessionIds(request.learnerId)).flatMap((sessionId) => {
      const room = hub.openRoomOf(sessionId);
      return room ? [{ sessionId, room }] : [];
    });
    for (const { room } of rooms) room.close();
    await Promise.all(rooms.map(({ room }) => room.settled()));
    await account.delete(request.learnerId, body);
    for (const { sessionId, room } of rooms) {
      room.terminate();
      hub.release(sessionId);
    }
    return reply.status(204).send();
  });
}
