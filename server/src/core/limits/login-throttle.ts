/**
 * Failed sign-ins are throttled per account (the username, whether or not it exists) and per
 * client address, with growing lockouts (SPEC §8; issue 22). Pure: time comes from the clock.
 *
 * Policy, and why:
 * - An account or an address may fail `freeFailures` times (5) without any delay; each further
 *   failure locks it out for `baseLockoutMs` (1 s), doubling per failure (1 s, 2 s, 4 s …) up to
 *   `maxLockoutMs`. A counter is forgotten after `forgetAfterMs` without a failure or a lockout.
 * - While locked, every attempt is refused (429 with `Retry-After`) without looking at the
 *   password: a right password must not get through, or the lockout would tell a guesser
 *   when they had guessed right. A refused attempt counts nothing, so retrying during a lockout
 *   does not make it longer.
 * - An attacker must not lock a learner out for long. So the account's lockout is short
 *   (at most 1 minute) and its counter starts over when the right password gets in, while the
 *   address's is stricter: it grows to 15 minutes, is forgotten only after an hour, and a
 *   success does not clear it (an attacker cannot wipe it by signing into an account of their
 *   own between guesses). An attacker on one address is stopped for much longer than the
 *   account they aim at. One on many addresses can keep an account locked only by failing again
 *   every minute, and each lockout ends a minute after they stop at the latest.
 * - Every attempt counts as a failure from the moment it starts until its password proves
 *   right: a burst sent in parallel is counted before any password check finishes.
 * - Memory is bounded: expired counters are pruned, and at `maxTracked` keys per kind the
 *   least recently failed are dropped.
 * - Learners behind one address (a school's NAT) share its counter: 5 failed sign-ins among
 *   them are free, then each further one locks the address for a moment that doubles, until an
 *   hour passes without one. The price of a stricter address counter; the numbers are options.
 */
import type { Clock } from '../ports';
import type { LimitVerdict } from './learner-limits';

export interface LockoutPolicy {
  /** Failures allowed before the first lockout. */
  freeFailures: number;
  /** The first lockout, in ms; each further failure doubles it. */
  baseLockoutMs: number;
  /** The longest lockout, in ms. */
  maxLockoutMs: number;
  /** A counter with no failure and no lockout for this long is forgotten, in ms. */
  forgetAfterMs: number;
}

export interface LoginThrottleOptions {
  account: LockoutPolicy;
  address: LockoutPolicy;
  /** Most counters kept per kind (accounts, addresses). */
  maxTracked: number;
}

const minute = 60_000;

/** The policy above: short and reset by a success for accounts, longer and sticky for addresses. */
export const defaultLoginThrottleOptions: LoginThrottleOptions = {
  account: { freeFailures: 5, baseLockoutMs: 1000, maxLockoutMs: minute, forgetAfterMs: 15 * minute },
  address: { freeFailures: 5, baseLockoutMs: 1000, maxLockoutMs: 15 * minute, forgetAfterMs: 60 * minute },
  maxTracked: 10_000,
};

interface FailureCount {
  failures: number;
  lastFailureAt: number;
  /** The one before, restored when the last attempt turns out right. */
  previousFailureAt: number;
}

/** Failure counters of one kind (accounts or addresses) under one policy. */
class FailureCounters {
  private readonly counts = new Map<string, FailureCount>();
  private callsSincePrune = 0;

  constructor(
    private readonly policy: LockoutPolicy,
    private readonly maxTracked: number,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  /** When the key's lockout ends (0: not locked), from the failures counted so far. */
  lockedUntil(key: string, now: number): number {
    const count = this.current(key, now);
    return count ? this.lockEnd(count) : 0;
  }

  add(key: string, now: number): void {
    const count = this.current(key, now);
    // Re-inserted so the map's order is least recently failed first; when full, those go first.
    this.counts.delete(key);
    for (const oldest of this.counts.keys()) {
      if (this.counts.size < this.maxTracked) break;
      this.counts.delete(oldest);
    }
    this.counts.set(key, { failures: (count?.failures ?? 0) + 1, lastFailureAt: now, previousFailureAt: count?.lastFailureAt ?? now });
  }

  /** Takes back one failure (the attempt's password was right), so it starts no lockout. */
  refund(key: string, now: number): void {
    const count = this.current(key, now);
    if (!count) return;
    if (count.failures <= 1) return void this.counts.delete(key);
    count.failures -= 1;
    count.lastFailureAt = count.previousFailureAt;
  }

  clear(key: string): void {
    this.counts.delete(key);
  }

  /** Called on every attempt, refused ones too: now and then, forgets expired counters. */
  pruneExpired(now: number): void {
    this.callsSincePrune += 1;
    if (this.callsSincePrune < 256) return;
    this.callsSincePrune = 0;
    for (const [key, count] of this.counts) if (this.expired(count, now)) this.counts.delete(key);
  }

  private current(key: string, now: number): FailureCount | undefined {
    const count = this.counts.get(key);
    if (count && this.expired(count, now)) {
      this.counts.delete(key);
      return undefined;
    }
    return count;
  }

  private expired(count: FailureCount, now: number): boolean {
    return now >= Math.max(count.lastFailureAt, this.lockEnd(count)) + this.policy.forgetAfterMs;
  }

  private lockEnd(count: FailureCount): number {
    const { freeFailures, baseLockoutMs, maxLockoutMs } = this.policy;
    if (count.failures <= freeFailures) return 0;
    // Capped before the power, so a long-lived counter cannot overflow to Infinity.
    const doublings = Math.min(count.failures - freeFailures - 1, 40);
    return count.lastFailureAt + Math.min(maxLockoutMs, baseLockoutMs * 2 ** doublings);
  }
}

/** The sign-in throttle the login route asks before checking a password. */
export class LoginThrottle {
  private readonly accounts: FailureCounters;
  private readonly addresses: FailureCounters;

  constructor(
    readonly options: LoginThrottleOptions,
    private readonly clock: Clock,
  ) {
    this.accounts = new FailureCounters(options.account, options.maxTracked);
    this.addresses = new FailureCounters(options.address, options.maxTracked);
  }

  /**
   * Before the password is checked: refused while the account or the address is locked out
   * (with the time until both are free); else the attempt is counted as a failure until
   * `succeeded` says otherwise.
   */
  attempt(username: string, address: string): LimitVerdict {
    const now = this.clock.now().getTime();
    const account = accountKey(username);
    const client = addressKey(address);
    this.accounts.pruneExpired(now);
    this.addresses.pruneExpired(now);
    const until = Math.max(this.accounts.lockedUntil(account, now), this.addresses.lockedUntil(client, now));
    if (until > now) return { ok: false, retryAfterMs: until - now };
    this.accounts.add(account, now);
    this.addresses.add(client, now);
    return { ok: true };
  }

  /** The attempt's password was right: the account starts over, and the address gets the attempt back. */
  succeeded(username: string, address: string): void {
    this.accounts.clear(accountKey(username));
    this.addresses.refund(addressKey(address), this.clock.now().getTime());
  }

  /** Counters currently kept (for tests and diagnostics). */
  get size(): { accounts: number; addresses: number } {
    return { accounts: this.accounts.size, addresses: this.addresses.size };
  }
}

/** Usernames are matched ignoring case and surrounding spaces, as sign-in matches them. */
function accountKey(username: string): string {
  return username.trim().toLowerCase();
}

/**
 * The counter an address falls under: an IPv4 address (also when IPv4-mapped, `::ffff:1.2.3.4`)
 * as it is; an IPv6 address by its /64 prefix, since one host is usually given a whole /64 and
 * could otherwise change address for every guess.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
