/**
 * Token revocation across instances (SPEC §8, §11). A revoked token is refused everywhere by
 * itself: verification reads the learner's token version from the database on every check
 * (auth/tokens.ts). What each instance holds in memory is the learner's open sockets, so "sign
 * out everywhere" and a new password, on whichever instance they arrive, are announced on one
 * channel (`NOTIFY tutorloop_learners, '<learnerId>'`), and every instance closes that learner's
 * sockets. The announcing instance closes its own at once, without waiting for the round trip.
 *
 * A notification sent while an instance's listening connection was down is lost, so after a
 * reconnect the instance checks its open sockets' tokens again and closes the revoked ones.
 */
import type { Logger } from '../../../core/ports';
import type { PgNotifier } from '../pg-notifier';

export const revocationChannel = 'tutorloop_learners';

/** This instance's open sockets (ws/socket-server.ts). */
export interface LocalConnections {
  closeLearner(learnerId: string): number;
  /** Closes the sockets whose token no longer verifies; how many. */
  closeRevoked(): Promise<number>;
}

/** The learner's sockets on every instance: what the account routes close on a revocation. */
export interface FleetConnections {
  /** Closes the learner's sockets here and tells every other instance to; resolves with how many closed here. */
  closeLearner(learnerId: string): Promise<number>;
  /** Stops listening (server shutdown). */
  stop(): void;
}

export function broadcastRevocations(notifier: PgNotifier, local: LocalConnections, logger: Logger): FleetConnections {
  const stopListening = notifier.listen(revocationChannel, (learnerId) => {
    // The announcing instance hears itself too: its sockets are already closed, so this closes nothing.
    if (learnerId) local.closeLearner(learnerId);
  });
  const stopCatchingUp = notifier.onReconnect(() => {
    local.closeRevoked().catch((error: unknown) => logger.warn({ err: error }, 'could not check open sockets after a reconnect'));
  });
  return {
    async closeLearner(learnerId) {
      const closed = local.closeLearner(learnerId);
      try {
        await notifier.notify(revocationChannel, learnerId);
      } catch (error) {
        // The revocation itself is committed and every instance refuses the old tokens from now
        // on; only sockets already open elsewhere stay open until their next reconnect check.
        logger.warn({ err: error, learnerId }, 'could not announce a revocation to the other instances');
      }
      return closed;
    },
    stop() {
      stopListening();
      stopCatchingUp();
    },
  };
}
