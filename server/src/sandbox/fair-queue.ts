/**
 * The waiting line in front of a pool of workers, fair across owners (learners,
 * SPEC §8): each owner has a first-in-first-out queue of their own, and the next
 * free worker takes the oldest run of the owner served least recently — round
 * robin, so a newcomer goes ahead of owners who keep resubmitting, and one
 * owner's backlog cannot push anyone else's run back. An owner may have at most
 * `maxPerOwner` runs in the pool, waiting or running.
 *
 * Pure: no threads, no timers. "Served" is counted in dispatches, not time.
 */
export class FairQueue<T> {
  readonly #maxPerOwner: number;
  readonly #owners = new Map<string, OwnerLine<T>>();
  #arrivals = 0;
  #dispatches = 0;

  constructor(maxPerOwner: number) {
    this.#maxPerOwner = maxPerOwner;
  }

  /** Whether `owner` may submit one more run. */
  hasRoom(owner: string): boolean {
    return (this.#owners.get(owner)?.inPool ?? 0) < this.#maxPerOwner;
  }

  /** Adds a run at the back of its owner's queue; refused (false, nothing added) when the owner has no room. */
  push(owner: string, item: T): boolean {
    if (!this.hasRoom(owner)) return false;
    let line = this.#owners.get(owner);
    if (!line) {
      line = { waiting: [], inPool: 0, lastServed: NEVER_SERVED };
      this.#owners.set(owner, line);
    }
    line.waiting.push({ item, arrival: this.#arrivals++ });
    line.inPool += 1;
    return true;
  }

  /**
   * Takes the next run to dispatch: the oldest waiting run of the owner served
   * least recently (among owners never served, the one waiting longest). It
   * keeps counting against its owner's limit until `release`.
   */
  shift(): { owner: string; item: T } | undefined {
    let next: { owner: string; line: OwnerLine<T> } | undefined;
    for (const [owner, line] of this.#owners) {
      const head = line.waiting[0];
      if (!head) continue;
      if (!next || line.lastServed < next.line.lastServed || (line.lastServed === next.line.lastServed && head.arrival < (next.line.waiting[0]?.arrival ?? Infinity))) {
        next = { owner, line };
      }
    }
    if (!next) return undefined;
    const { item } = next.line.waiting.shift()!;
    next.line.lastServed = this.#dispatches++;
    this.#forgetIdleOwners();
    return { owner: next.owner, item };
  }

  /** Takes a waiting run out of the line (its caller gave up). False if it was not waiting. */
  remove(owner: string, item: T): boolean {
    const line = this.#owners.get(owner);
    const index = line?.waiting.findIndex((entry) => entry.item === item) ?? -1;
    if (!line || index === -1) return false;
    line.waiting.splice(index, 1);
    this.#release(line);
    return true;
  }

  /** A dispatched run of `owner` ended: it no longer counts against the owner's limit. */
  release(owner: string): void {
    const line = this.#owners.get(owner);
    if (line) this.#release(line);
  }

  /** Takes every waiting run out of the line, oldest first. */
  drain(): T[] {
    const entries = [...this.#owners.values()].flatMap((line) => {
      const taken = line.waiting.splice(0);
      line.inPool -= taken.length;
      return taken;
    });
    this.#forgetIdleOwners();
    return entries.sort((left, right) => left.arrival - right.arrival).map((entry) => entry.item);
  }

  /** Runs waiting for a worker. */
  get waiting(): number {
    let count = 0;
    for (const line of this.#owners.values()) count += line.waiting.length;
    return count;
  }

  #release(line: OwnerLine<T>): void {
    line.inPool = Math.max(0, line.inPool - 1);
    this.#forgetIdleOwners();
  }

  /**
   * Drops owners with nothing in the pool, but only those served before every
   * owner still waiting: if they come back, they would go first anyway. An
   * owner who keeps resubmitting is remembered as recently served.
   */
  #forgetIdleOwners(): void {
    let oldestWaiting = Infinity;
    for (const line of this.#owners.values()) if (line.waiting.length > 0) oldestWaiting = Math.min(oldestWaiting, line.lastServed);
    for (const [owner, line] of this.#owners) if (line.inPool === 0 && line.lastServed < oldestWaiting) this.#owners.delete(owner);
  }
}

const NEVER_SERVED = -1;

interface OwnerLine<T> {
  waiting: Array<{ item: T; arrival: number }>;
  /** This owner's runs in the pool: waiting, plus dispatched and not yet released. */
  inPool: number;
  /** The dispatch count when this owner was last served; NEVER_SERVED before that. */
  lastServed: number;
}
