/**
 * The rooms of sessions when several instances share one PostgreSQL (SPEC §11; design in
 * core/fleet/README.md). Any instance accepts any socket and any REST call:
 *
 * - one instance runs a session at a time, holding its lease (fleet-store.ts); every commit of
 *   its room is fenced by the lease epoch (PostgresStorage.runFenced);
 * - what the room emits goes through the session's event log (owned-session.ts); every
 *   instance with listeners of the session reads the log after a wake-up (NOTIFY) and delivers
 *   in id order (core/fleet/event-router.ts);
 * - an instance whose socket (or HTTP step) is for a session another instance runs queues a
 *   command for it; when nobody runs the session, it takes the lease and runs it itself, and
 *   an instance with listeners takes over a lease its holder let expire (it died).
 */
import type { ClientMessage, HistoryMessage, SessionState, SessionSummary } from '@tutorloop/shared';
import type { LeaseFence } from '../postgres-storage';
import { EventRouter, type LoggedEvent } from '../../../core/fleet/event-router';
import { parseStoredCommand, safeToRunAgain, storedCommand, type FleetCommand } from '../../../core/fleet/fleet-command';
import type { RoomHandle, SessionRooms } from '../../../core/fleet/session-rooms';
import type { Logger } from '../../../core/ports';
import type { RoomBase, SessionListener } from '../../../core/session/room-base';
import type { SessionModules } from '../../../core/session/session-module';
import type { StoredSession } from '../../../core/storage/sessions';
import { isStorageError } from '../../../core/storage/storage-error';
import type { PgNotifier } from '../pg-notifier';
import { commandsChannel, eventsChannel, eventWakeUp, type FleetStore } from './fleet-store';
import { OwnedSession } from './owned-session';

type SessionRef = Pick<StoredSession, 'id' | 'type'>;

export interface FleetTimers {
  heartbeatMs: number;
  renewMs: number;
  /** How often an instance with listeners checks that someone runs their session. */
  watchMs: number;
  sweepMs: number;
}

export const defaultFleetTimers: FleetTimers = { heartbeatMs: 2_000, renewMs: 1_500, watchMs: 1_000, sweepMs: 60_000 };

export interface FleetHubDeps {
  instanceId: string;
  modules: SessionModules;
  store: FleetStore;
  notifier: PgNotifier;
  storage: { runFenced<T>(fence: LeaseFence, work: () => Promise<T>): Promise<T> };
  logger: Logger;
  timers?: FleetTimers;
}

/** The listeners of one session on this instance, and where its log was read up to. */
interface LocalSession {
  session: SessionRef;
  router: EventRouter;
  ready: Promise<void>;
  /** Reads after wake-ups, one at a time. */
  reading: Promise<void>;
  /** A read is queued and has not started: wake-ups meanwhile need no read of their own. */
  readQueued: boolean;
}

export class FleetHub implements SessionRooms {
  private readonly owned = new Map<string, OwnedSession>();
  private readonly local = new Map<string, LocalSession>();
  /** Per session, what this instance asks of its owner, in order (taking the lease included). */
  private readonly sending = new Map<string, Promise<unknown>>();
  /** The last id this instance wrote to each owned session's log: its own rows then go straight to its sockets. */
  private readonly written = new Map<string, number>();
  /** Owned sessions whose last write failed unseen (it may have committed): their next rows are read from the log. */
  private readonly unsure = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unlisten: Array<() => void> = [];
  private closed = false;

  constructor(private readonly deps: FleetHubDeps) {}

  /** Joins the fleet: heartbeat, wake-ups, renewals, the watch over listened sessions, the sweep. */
  async start(): Promise<void> {
    const { store, notifier, instanceId, logger } = this.deps;
    const timers = this.deps.timers ?? defaultFleetTimers;
    await store.heartbeat(instanceId);
    this.unlisten.push(
      notifier.listen(eventsChannel, (payload) => {
        const { sessionId, writer } = eventWakeUp(payload);
        // Rows this instance wrote reached its sockets from the write itself (deliverOwn): no read.
        if (writer !== instanceId) this.wake(sessionId);
      }),
      notifier.listen(commandsChannel, (sessionId) => {
        if (this.owned.has(sessionId)) void this.inOrder(sessionId, () => this.takeCommands(sessionId));
      }),
      // Wake-ups sent while the connection was down are lost: read everything again.
      notifier.onReconnect(() => {
        for (const sessionId of this.local.keys()) this.wake(sessionId);
        for (const sessionId of this.owned.keys()) void this.inOrder(sessionId, () => this.takeCommands(sessionId));
      }),
    );
    const every = (ms: number, task: () => Promise<void>, what: string) => {
      const timer = setInterval(() => void task().catch((error: unknown) => logger.warn({ err: error }, `fleet ${what} failed`)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(timers.heartbeatMs, () => store.heartbeat(instanceId), 'heartbeat');
    every(timers.renewMs, () => this.renew(), 'lease renewal');
    every(timers.watchMs, () => this.watch(), 'watch');
    every(timers.sweepMs, () => store.sweep(), 'sweep');
  }

  room(session: SessionRef): RoomHandle {
    return new FleetRoomHandle(this, session);
  }

  openRoomOf(sessionId: string): RoomHandle | null {
    return new FleetRoomHandle(this, { id: sessionId, type: this.local.get(sessionId)?.session.type ?? null });
  }

  release(sessionId: string): void {
    const local = this.local.get(sessionId);
    if (local && local.router.size === 0) this.local.delete(sessionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const stop of this.unlisten) stop();
    await Promise.all([...this.owned.values()].map((owned) => owned.close().catch(() => undefined)));
    // The notifier and the pool stay open: the server closes them once, after their other users (fleet-link.ts).
    await this.deps.store.leave(this.deps.instanceId).catch(() => undefined);
  }

  localOf(sessionId: string): LocalSession | undefined {
    return this.local.get(sessionId);
  }

  /** The session's listeners on this instance, made on first use (its log read from now on). */
  localSession(session: SessionRef): LocalSession {
    let local = this.local.get(session.id);
    if (!local) {
      const router = new EventRouter();
      const made: LocalSession = {
        session,
        router,
        reading: Promise.resolve(),
        readQueued: false,
        ready: this.deps.store.lastEventId(session.id).then(
          (id) => {
            router.cursor = Math.max(router.cursor, id);
          },
          (error: unknown) => {
            // Not kept: the next listener tries again.
            if (this.local.get(session.id) === made) this.local.delete(session.id);
            throw error;
          },
        ),
      };
      local = made;
      this.local.set(session.id, local);
    }
    return local;
  }

  /** Asks the session's owner to run `command`; takes the lease first when nobody holds it. */
  send(session: SessionRef, command: FleetCommand): Promise<void> {
    return this.inOrder(session.id, async () => {
      const running = this.owned.get(session.id);
      // Run here, from this instance's own socket or request: no row, nothing to finish.
      if (running) {
        await running.run(command);
        return;
      }
      // Closing a room nobody here runs does not start one: its owner, if any, takes the command.
      const taken = command.kind === 'close' ? null : await this.acquire(session);
      if (!taken) return this.deps.store.addCommand(session.id, command.target, storedCommand(command));
      // Resumed after the command, as on one instance: a socket attaching sees the opening reply live.
      await taken.run(command);
      if (taken.active) taken.room.resume();
    });
  }

  /** A room of the session to read its views from; it runs nothing (only the owner's room does). */
  readerRoom(session: SessionRef): RoomBase {
    return this.deps.modules[session.type].openRoom(session.id, () => undefined);
  }

  ownedRoom(sessionId: string): RoomBase | null {
    return this.owned.get(sessionId)?.room ?? null;
  }

  /** Closes the session's connections on every instance (it was deleted) and stops its room here. */
  async terminate(sessionId: string): Promise<void> {
    const owned = this.owned.get(sessionId);
    owned?.lost();
    await this.deps.store.append(sessionId, null, [{ target: null, event: { type: '_terminate' } }]);
  }

  presence(listenerId: string, sessionId: string, present: boolean): Promise<void> {
    return present ? this.deps.store.addPresence(listenerId, sessionId, this.deps.instanceId) : this.deps.store.removePresence(listenerId);
  }

  /** Runs `task` after what was asked before for the session, whatever became of that. */
  private inOrder<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.sending.get(sessionId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.sending.set(sessionId, tail);
    void tail.then(() => {
      if (this.sending.get(sessionId) === tail) this.sending.delete(sessionId);
    });
    return next;
  }

  /** Takes the session's lease if nobody runs it, opens its room and takes what was queued for it. */
  private async acquire(session: SessionRef): Promise<OwnedSession | null> {
    if (this.closed) return null;
    const { store, instanceId, modules, logger } = this.deps;
    const epoch = await store.acquire(session.id, instanceId);
    if (epoch === null) return null;
    // Every write of the previous owner has committed (a takeover waits for its FOR SHARE): its last id is final.
    this.written.set(session.id, await store.lastEventId(session.id));
    let owned: OwnedSession | null = null;
    const room = modules[session.type].openRoom(session.id, () => owned?.releaseIfIdle());
    const fence: LeaseFence = { sessionId: session.id, owner: instanceId, epoch };
    owned = new OwnedSession(session.id, epoch, room, {
      store,
      instanceId,
      logger,
      delivered: (sessionId, rows) => this.deliverOwn(sessionId, rows),
      missed: (sessionId) => {
        this.unsure.add(sessionId);
        this.wake(sessionId);
      },
      dropped: (gone) => {
        if (this.owned.get(gone.sessionId) === gone) this.owned.delete(gone.sessionId);
      },
    });
    room.useFence({ run: (work) => this.deps.storage.runFenced(fence, work), lost: () => owned?.lost() });
    this.owned.set(session.id, owned);
    logger.info({ sessionId: session.id, epoch }, 'this instance runs the session now');
    await owned.checkListeners({ release: false });
    // An epoch above 1 is a takeover of a lease that expired (a released lease is deleted).
    if (epoch > 1) await owned.resync();
    await this.takeCommands(session.id);
    return owned.active ? owned : null;
  }

  /**
   * Takes the session's queued commands (and, on this ownership's first take, those an owner
   * that lost the lease had taken and not finished) and runs them in order; each is removed
   * once it ran, so an owner that dies in between leaves it to the next one.
   */
  private async takeCommands(sessionId: string): Promise<void> {
    const owned = this.owned.get(sessionId);
    if (!owned) return;
    const { store, logger } = this.deps;
    const fence = { owner: this.deps.instanceId, epoch: owned.epoch };
    const taken = await store.takeCommands(sessionId, fence, { retake: !owned.tookCommands });
    owned.tookCommands = true;
    for (const { id, target, command, retaken } of taken) {
      const finish = () => store.finishCommand(id, fence).catch((error: unknown) => logger.warn({ err: error, sessionId }, 'could not remove a fleet command that ran; a next owner may run it again'));
      const parsed = parseStoredCommand(target, command);
      if (!parsed.ok) {
        logger.warn({ sessionId, error: parsed.error }, 'a fleet command was dropped');
        void finish();
        continue;
      }
      if (retaken && !safeToRunAgain(parsed.value)) {
        logger.warn({ sessionId, kind: parsed.value.kind }, 'a chat without a clientMessageId, taken by an owner that lost the session, was dropped: it may have been stored already');
        // An HTTP step waits for its marker: it answers with the session's state and no reply.
        if (parsed.value.kind === 'step') owned.append(target, { type: '_settled' });
        void finish();
        continue;
      }
      const { finished } = await owned.run(parsed.value).catch((error: unknown) => {
        logger.error({ err: error, sessionId }, 'a fleet command failed');
        return { finished: Promise.resolve(!isStorageError(error, 'fenced')) };
      });
      void finished.then((ran) => (ran ? finish() : undefined));
    }
  }

  private deliverOwn(sessionId: string, rows: LoggedEvent[]): void {
    const local = this.local.get(sessionId);
    const before = this.written.get(sessionId) ?? 0;
    this.written.set(sessionId, Math.max(before, ...rows.map((row) => row.id)));
    // After a write that failed unseen, its rows may be in the log: read rather than skip them.
    const unsure = this.unsure.delete(sessionId);
    if (!local) return;
    // Straight to the sockets when the router has seen everything before these rows; else read the gap.
    if (!unsure && local.router.cursor >= before) this.route(sessionId, local, rows);
    else this.wake(sessionId);
  }

  private wake(sessionId: string): void {
    const local = this.local.get(sessionId);
    if (!local || local.readQueued) return;
    local.readQueued = true;
    local.reading = local.reading
      .then(() => local.ready)
      .then(async () => {
        // From here on a wake-up may stand for rows this read does not see: it queues another.
        local.readQueued = false;
        this.route(sessionId, local, await this.deps.store.eventsAfter(sessionId, local.router.cursor));
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error, sessionId }, 'could not read session events'));
  }

  private route(sessionId: string, local: LocalSession, rows: LoggedEvent[]): void {
    const { terminated } = local.router.accept(rows);
    if (terminated) {
      this.owned.get(sessionId)?.lost();
      this.local.delete(sessionId);
    }
  }

  private async renew(): Promise<void> {
    const owned = [...this.owned.values()];
    const lost = await this.deps.store.renew(
      this.deps.instanceId,
      owned.map((session) => ({ sessionId: session.sessionId, epoch: session.epoch })),
    );
    for (const session of owned) if (lost.has(session.sessionId)) session.lost();
    // One statement for every session still held, not one each (200 sessions were 130 statements a second).
    const held = owned.filter((session) => session.active).map((session) => ({ session, asOf: session.attaches }));
    const listened = await this.deps.store.listenedAmong(held.map(({ session }) => session.sessionId));
    for (const { session, asOf } of held) session.listenersAre(listened.has(session.sessionId), asOf);
  }

  /** Sessions listened to here that nobody runs (the holder died, or let go with commands queued): take them. */
  private async watch(): Promise<void> {
    const unowned = [...this.local.values()].filter((local) => local.router.size > 0 && !this.owned.has(local.session.id));
    if (unowned.length === 0) return;
    const live = await this.deps.store.liveLeases(unowned.map((local) => local.session.id));
    for (const local of unowned) {
      if (live.has(local.session.id)) continue;
      await this.inOrder(local.session.id, async () => {
        if (this.owned.has(local.session.id)) return;
        const taken = await this.acquire(local.session);
        if (taken?.active) taken.room.resume();
      });
    }
  }
}

/** One adapter's handle on a session (a socket's life, or one HTTP request). */
class FleetRoomHandle implements RoomHandle {
  private readonly ids = new Map<SessionListener, string>();
  private readonly steps: Array<Promise<void>> = [];
  private readonly subscribed: Promise<void>[] = [];

  constructor(
    private readonly hub: FleetHub,
    private readonly session: { id: string; type: SessionRef['type'] | null },
  ) {}

  async attach(listener: SessionListener, terminate?: () => void): Promise<void> {
    const session = this.ref();
    const id = crypto.randomUUID();
    this.ids.set(listener, id);
    // The session's router may be dropped (its last socket closed) while this one waits for it: take the current one.
    let local = this.hub.localSession(session);
    for (let ready = local; ; ready = local) {
      await ready.ready;
      local = this.hub.localSession(session);
      if (local === ready) break;
    }
    local.router.add({ id, kind: 'socket', deliver: listener, ...(terminate ? { terminate } : {}) });
    await this.hub.presence(id, session.id, true);
    await this.hub.send(session, { kind: 'attach', target: id });
  }

  async handle(message: ClientMessage, reply: SessionListener): Promise<void> {
    await Promise.all(this.subscribed);
    const known = this.ids.get(reply);
    const step = known !== undefined && this.stepIds.has(known);
    await this.hub.send(this.ref(), { kind: step ? 'step' : 'frame', target: known ?? crypto.randomUUID(), frame: message });
  }

  private readonly stepIds = new Set<string>();

  subscribe(listener: SessionListener): void {
    const session = this.ref();
    const id = crypto.randomUUID();
    this.ids.set(listener, id);
    this.stepIds.add(id);
    const local = this.hub.localSession(session);
    let settle: () => void = () => undefined;
    this.steps.push(new Promise<void>((resolve) => (settle = resolve)));
    this.subscribed.push(local.ready.then(() => local.router.add({ id, kind: 'step', deliver: listener, settled: settle, terminate: settle })));
  }

  detach(listener: SessionListener): void {
    const id = this.ids.get(listener);
    if (id === undefined) return;
    this.ids.delete(listener);
    this.hub.localOf(this.session.id)?.router.remove(id);
    if (this.stepIds.delete(id)) return;
    const session = this.ref();
    void this.hub
      .presence(id, session.id, false)
      .then(() => this.hub.send(session, { kind: 'detach', target: id }))
      .catch(() => undefined);
  }

  async settled(): Promise<void> {
    await Promise.all(this.steps);
    await this.hub.ownedRoom(this.session.id)?.settled();
  }

  resume(): void {
    // The owner resumes the session when it takes the lease, and before each step.
  }

  state(): Promise<SessionState> {
    return this.reader().state();
  }

  history(): Promise<HistoryMessage[]> {
    return this.reader().history();
  }

  summary(): Promise<SessionSummary | null> {
    return this.reader().summary();
  }

  close(): void {
    const room = this.hub.ownedRoom(this.session.id);
    if (room) room.close();
    else if (this.session.type) void this.hub.send(this.ref(), { kind: 'close', target: crypto.randomUUID() }).catch(() => undefined);
  }

  terminate(): void {
    void this.hub.terminate(this.session.id).catch(() => undefined);
  }

  /** The session with its type (a handle from `openRoomOf` of a session not listened to here has none). */
  private ref(): SessionRef {
    if (!this.session.type) throw new Error(`the type of session ${this.session.id} is not known here`);
    return { id: this.session.id, type: this.session.type };
  }

  /** A room only read from (its views of the stored session); it runs nothing. */
  private reader(): RoomBase {
    return this.hub.ownedRoom(this.session.id) ?? this.hub.readerRoom(this.ref());
  }
}
