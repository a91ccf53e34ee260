/**
 * A first-come, first-served async mutex: `run` starts its work once every earlier work has
 * settled. Storage adapters serialize their units of work with it (a transaction that
 * awaits must not let another one in until it commits or rolls back).
 */
export class AsyncMutex {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Runs `work` alone; resolves or rejects as it does. A failed work does not block the next. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(() => work()).finally(() => {
      this.waiting -= 1;
    });
    // The next work waits for this one to settle either way.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Works queued or running (0 when idle). */
  get pending(): number {
    return this.waiting;
  }
}
