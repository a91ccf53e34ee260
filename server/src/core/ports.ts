/** Small ports the core receives instead of reaching for globals (STYLE: injected time and ids). */

/** The current time. Tests pass a fixed or stepping clock. */
export interface Clock {
  now(): Date;
}

/** Produces unique ids (UUIDs in production, counters in tests). */
export interface IdGenerator {
  next(): string;
}

/** A structured logger (pino-compatible subset). */
export interface Logger {
  debug(object: object, message?: string): void;
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export const systemClock: Clock = { now: () => new Date() };
export const uuidGenerator: IdGenerator = { next: () => crypto.randomUUID() };
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
