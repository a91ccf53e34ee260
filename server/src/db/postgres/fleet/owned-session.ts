/**
 * A session this instance runs, holding its lease (SPEC §11): the room, and the one append
 * chain through which every event of the room reaches the log — broadcasts untargeted, the
 * opening events of an attach and the replies to a sender targeted at that listener. Events
 * are buffered for one tick and written in one statement, fenced by the lease epoch; one write
 * at a time, in order, so a session's ids follow the order the room emitted its events. What
 * the room emits while a write is in flight goes into the next one (group commit): under load a
 * streamed reply's chunks share statements instead of queueing one each, and an idle session's
 * events wait no longer than before.
 */
import type { ServerEvent } from '@tutorloop/shared';
import type { FleetCommand } from '../../../core/fleet/fleet-command';
import type { FleetEvent, LoggedEvent } from '../../../core/fleet/event-router';
import type { Logger } from '../../../core/ports';
import type { RoomBase, SessionListener } from '../../../core/session/room-base';
import { isStorageError } from '../../../core/storage/storage-error';
import type { FleetStore } from './fleet-store';

export interface OwnedSessionDeps {
  store: FleetStore;
  instanceId: string;
  logger: Logger;
  /** The rows this instance just wrote, for its own sockets (no round trip through NOTIFY). */
  delivered(sessionId: string, rows: LoggedEvent[]): void;
  /** A write failed without an answer: its rows may be in the log, and no wake-up brings them here. */
  missed(sessionId: string): void;
  /** The session is no longer this instance's (released, or the lease was lost). */
  dropped(owned: OwnedSession): void;
}

export class OwnedSession {
  private buffer: Array<{ target: string | null; event: FleetEvent }> = [];
  private flushing = false;
  /** The write in flight, if any; it starts the next one with what was buffered meanwhile. */
  private writing: Promise<void> | null = null;
  /** True while the room's broadcasts go to the log (someone listens somewhere). */
  private listening = false;
  private gone = false;
  /** Set once a commit was refused or a renewal failed: nothing this room runs from then on commits. */
  private leaseLost = false;
  /** False until this ownership first took the session's commands (that take also takes what earlier leases left unfinished). */
  tookCommands = false;
  private readonly broadcastToLog: SessionListener = (event) => this.append(null, event);
  /** Attaches run so far (see `listenersAre`). */
  attaches = 0;

  constructor(
    readonly sessionId: string,
    readonly epoch: number,
    readonly room: RoomBase,
    private readonly deps: OwnedSessionDeps,
  ) {}

  get active(): boolean {
    return !this.gone;
  }

  /**
   * Runs one command. Attach is awaited (its opening events come before what follows); a frame's
   * work is not: `finished` settles once it ran — true, or false when the lease was lost before
   * its work committed (the command is then left for the next owner to run).
   */
  async run(command: FleetCommand): Promise<{ finished: Promise<boolean> }> {
    if (this.gone) return { finished: Promise.resolve(false) };
    const { room } = this;
    const reply: SessionListener = (event) => this.append(command.target, event);
    // The room reports a fenced commit of queued work through lost(), not to the caller.
    const ran = () => !this.leaseLost;
    switch (command.kind) {
      case 'attach': {
        this.attaches += 1;
        this.listen(true);
        // Until the marker, this listener also gets what the room broadcasts, as targeted copies:
        // the socket's relay takes untargeted events only after the marker, so nothing is lost between.
        await room.attach(reply);
        room.detach(reply);
        this.append(command.target, { type: '_attached' });
        return { finished: this.drained().then(ran) };
      }
      case 'detach':
        await this.checkListeners();
        return { finished: Promise.resolve(true) };
      case 'frame':
        return { finished: room.handle(command.frame, reply).then(ran, (error: unknown) => this.failed(error, reply)) };
      case 'step': {
        room.subscribe(reply);
        room.resume();
        const finished = room
          .handle(command.frame, reply)
          .then(() => room.settled())
          .then(ran, (error: unknown) => this.failed(error, reply))
          .then(async (done) => {
            room.detach(reply);
            this.append(command.target, { type: '_settled' });
            this.releaseIfIdle();
            // Finished once the marker is logged: the HTTP request on the other instance waits for it.
            await this.drained();
            return done && ran();
          });
        return { finished };
      }
      case 'close':
        room.close();
        return { finished: Promise.resolve(true) };
      default: {
        const unreachable: never = command;
        throw new Error(`unknown command ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Listens to the room while someone listens to the session anywhere; else lets its grace period run. */
  async checkListeners(options: { release: boolean } = { release: true }): Promise<void> {
    if (this.gone) return;
    const asOf = this.attaches;
    this.listenersAre(await this.deps.store.listened(this.sessionId), asOf, options);
  }

  /**
   * What `checkListeners` does with the answer, for a caller that asked for many sessions at once
   * (the renewal); `asOf`: `attaches` when the question was asked — a "nobody" answer older than
   * an attach is stale (its presence row may not have been there yet) and is ignored.
   */
  listenersAre(listened: boolean, asOf: number, options: { release: boolean } = { release: true }): void {
    if (this.gone || (!listened && asOf !== this.attaches)) return;
    this.listen(listened);
    if (options.release) this.releaseIfIdle();
  }

  /**
   * After a takeover: what the previous owner had not logged yet (it died or stalled) never
   * reaches the sockets, so every socket gets the opening events again — state, history, and
   * the text in flight — as broadcasts, rather than a gap.
   */
  async resync(): Promise<void> {
    if (this.gone || !this.listening) return;
    await this.room.attach(this.broadcastToLog);
  }

  /** The room became idle (its queue settled, nobody listens): give the lease back. */
  releaseIfIdle(): void {
    if (this.gone || !this.room.idle) return;
    this.gone = true;
    this.deps.dropped(this);
    void this.drained()
      .then(() => this.deps.store.release(this.sessionId, this.deps.instanceId, this.epoch))
      .catch((error: unknown) => this.deps.logger.warn({ err: error, sessionId: this.sessionId }, 'could not release a session lease; it expires'));
  }

  /** The lease is lost: stop the room quietly; the new owner tells the listeners. */
  lost(): void {
    this.leaseLost = true;
    if (this.gone) return;
    this.gone = true;
    this.deps.logger.info({ sessionId: this.sessionId, epoch: this.epoch }, 'session lease lost; the room stops here');
    this.room.close();
    this.deps.dropped(this);
  }

  /** Stops the room (shutdown), waits for it and its events, then releases the lease. */
  async close(): Promise<void> {
    this.room.close();
    await this.room.settled();
    await this.drained();
    if (this.gone) return;
    this.gone = true;
    this.deps.dropped(this);
    await this.deps.store.release(this.sessionId, this.deps.instanceId, this.epoch).catch(() => undefined);
  }

  /** Writes what is buffered and waits for every write so far. */
  async drained(): Promise<void> {
    this.flush();
    while (this.writing) await this.writing;
  }

  append(target: string | null, event: FleetEvent): void {
    this.buffer.push({ target, event });
    if (this.flushing || this.writing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  private listen(on: boolean): void {
    if (on === this.listening) return;
    this.listening = on;
    if (on) this.room.subscribe(this.broadcastToLog);
    // The room's own grace period starts if work is running (RoomBase.detach).
    else this.room.detach(this.broadcastToLog);
  }

  private flush(): void {
    this.flushing = false;
    // A write in flight takes what was buffered meanwhile when it ends.
    if (this.writing || this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.writing = this.write(batch).finally(() => {
      this.writing = null;
      this.flush();
    });
  }

  private async write(batch: Array<{ target: string | null; event: FleetEvent }>): Promise<void> {
    try {
      const rows = await this.deps.store.append(this.sessionId, { owner: this.deps.instanceId, epoch: this.epoch }, batch);
      if (rows) this.deps.delivered(this.sessionId, rows);
      else this.lost();
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId: this.sessionId }, 'could not log session events');
      this.deps.missed(this.sessionId);
    }
  }

  /** Reports a frame's failure to its sender; returns whether it counts as run (false: fenced, for the next owner to run). */
  private failed(error: unknown, reply: SessionListener): boolean {
    if (isStorageError(error, 'fenced')) {
      this.lost();
      return false;
    }
    this.deps.logger.error({ err: error, sessionId: this.sessionId }, 'handling a frame failed');
    const event: ServerEvent = { type: 'error', payload: { code: 'internal', message: 'Something went wrong on our side; the session is intact — try again.' } };
    reply(event);
    return true;
  }
}
