/**
 * Wall-clock time in milliseconds with sub-millisecond precision, comparable across the
 * bench process and the server child (both derive it from the system clock at start-up;
 * the remaining offset is measured over IPC, see `ServerProcess.clockOffset`).
 */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded random source (mulberry32), so start staggering is the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
