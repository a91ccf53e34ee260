import { describe, expect, it } from 'vitest';
import { LoginThrottle, addressKey, defaultLoginThrottleOptions, type LoginThrottleOptions } from './login-throttle';

function steppingClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const second = 1000;
const minute = 60 * second;

/** Tries until refused: the number admitted, and the refusal. */
function admittedUntilRefused(throttle: LoginThrottle, attempt: (index: number) => [string, string]) {
  for (let index = 0; index < 1000; index += 1) {
    const verdict = throttle.attempt(...attempt(index));
    if (!verdict.ok) return { admitted: index, retryAfterMs: verdict.retryAfterMs };
  }
  throw new Error('never refused');
}

describe('LoginThrottle (SPEC §8: failed logins are throttled)', () => {
  it('lets an account fail 5 times, then locks it 1 s, 2 s, 4 s … capped at 1 minute, whatever addresses the guesses come from', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    let address = 0;
    const fromAnywhere = () => ['ada', `10.0.0.${(address += 1)}`] as [string, string];
    expect(admittedUntilRefused(throttle, fromAnywhere)).toEqual({ admitted: 6, retryAfterMs: 1 * second });
    const lockouts: number[] = [];
    for (let round = 0; round < 9; round += 1) {
      const refused = throttle.attempt(...fromAnywhere());
      if (refused.ok) throw new Error('expected a lockout');
      clock.advance(refused.retryAfterMs);
      lockouts.push(refused.retryAfterMs);
      expect(throttle.attempt(...fromAnywhere())).toEqual({ ok: true });
    }
    expect(lockouts).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60].map((seconds) => seconds * second));
  });

  it('refuses every attempt while locked, counting none of them: a flood does not make the lockout longer', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    let address = 0;
    for (let index = 0; index < 6; index += 1) throttle.attempt('ada', `10.0.0.${(address += 1)}`);
    for (let index = 0; index < 500; index += 1) expect(throttle.attempt('ada', `10.0.1.${index % 250}`).ok).toBe(false);
    clock.advance(second);
    expect(throttle.attempt('ada', '10.0.2.1')).toEqual({ ok: true });
    expect(throttle.attempt('ada', '10.0.2.2')).toEqual({ ok: false, retryAfterMs: 2 * second });
  });

  it('counts a parallel burst as it starts: of 40 attempts sent at once, 6 reach the password check', () => {
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, steppingClock());
    const verdicts = Array.from({ length: 40 }, () => throttle.attempt('ada', '192.0.2.7'));
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(6);
    expect(verdicts[6]).toEqual({ ok: false, retryAfterMs: second });
  });

  it('starts the account over when the right password gets in', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    let address = 0;
    const fromAnywhere = () => ['ada', `10.0.0.${(address += 1)}`] as [string, string];
    for (let index = 0; index < 8; index += 1) {
      const verdict = throttle.attempt(...fromAnywhere());
      if (!verdict.ok) clock.advance(verdict.retryAfterMs);
    }
    clock.advance(minute);
    const learner = fromAnywhere();
    expect(throttle.attempt(...learner)).toEqual({ ok: true });
    throttle.succeeded(...learner);
    expect(admittedUntilRefused(throttle, fromAnywhere)).toEqual({ admitted: 6, retryAfterMs: second });
  });

  it('is stricter per address: guesses at many usernames lock the address up to 15 minutes, and a success there does not clear it', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    let username = 0;
    const manyNames = () => [`user${(username += 1)}`, '203.0.113.9'] as [string, string];
    expect(admittedUntilRefused(throttle, manyNames).admitted).toBe(6);
    const lockouts: number[] = [];
    for (let round = 0; round < 12; round += 1) {
      const refused = throttle.attempt(...manyNames());
      if (refused.ok) throw new Error('expected a lockout');
      lockouts.push(refused.retryAfterMs / second);
      clock.advance(refused.retryAfterMs);
      // The attacker signs into an account of their own between guesses: it changes nothing.
      expect(throttle.attempt('attacker', '203.0.113.9')).toEqual({ ok: true });
      throttle.succeeded('attacker', '203.0.113.9');
      expect(throttle.attempt(...manyNames())).toEqual({ ok: true });
    }
    expect(lockouts).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    // The accounts guessed at are not locked: a learner elsewhere signs in at once.
    expect(throttle.attempt('user3', '198.51.100.1')).toEqual({ ok: true });
  });

  it('does not let a right password at a failing address start a lockout there', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    for (let index = 0; index < 5; index += 1) throttle.attempt(`typo${index}`, '192.0.2.1');
    clock.advance(10 * second);
    expect(throttle.attempt('ada', '192.0.2.1')).toEqual({ ok: true });
    throttle.succeeded('ada', '192.0.2.1');
    expect(throttle.attempt('grace', '192.0.2.1')).toEqual({ ok: true });
    // That one was a failure: the sixth counts, the next waits.
    expect(throttle.attempt('grace', '192.0.2.1')).toEqual({ ok: false, retryAfterMs: second });
  });

  it('forgets an account after 15 quiet minutes and an address after an hour', () => {
    const clock = steppingClock();
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, clock);
    for (let index = 0; index < 5; index += 1) throttle.attempt('ada', `10.0.0.${index}`);
    clock.advance(15 * minute - 1);
    expect(throttle.attempt('ada', '10.0.1.1')).toEqual({ ok: true });
    expect(throttle.attempt('ada', '10.0.1.2')).toEqual({ ok: false, retryAfterMs: second });
    clock.advance(second + 15 * minute);
    expect(admittedUntilRefused(throttle, (index) => ['ada', `10.0.2.${index}`]).admitted).toBe(6);

    for (let index = 0; index < 5; index += 1) throttle.attempt(`name${index}`, '192.0.2.50');
    clock.advance(59 * minute);
    expect(throttle.attempt('someone', '192.0.2.50')).toEqual({ ok: true });
    clock.advance(61 * minute);
    expect(admittedUntilRefused(throttle, (index) => [`again${index}`, '192.0.2.50']).admitted).toBe(6);
  });

  it('matches usernames ignoring case and surrounding spaces, as sign-in does', () => {
    const throttle = new LoginThrottle(defaultLoginThrottleOptions, steppingClock());
    const spellings = ['Ada', 'ADA', ' ada ', 'ada', 'aDa', 'ADa'];
    spellings.forEach((name, index) => expect(throttle.attempt(name, `10.0.0.${index}`)).toEqual({ ok: true }));
    expect(throttle.attempt('ada', '10.0.0.99').ok).toBe(false);
  });

  it('keeps memory bounded: at most maxTracked counters, and expired ones are pruned', () => {
    const clock = steppingClock();
    const options: LoginThrottleOptions = { ...defaultLoginThrottleOptions, maxTracked: 100 };
    const throttle = new LoginThrottle(options, clock);
    for (let index = 0; index < 5000; index += 1) throttle.attempt(`sprayed${index}`, `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
    expect(throttle.size).toEqual({ accounts: 100, addresses: 100 });
    clock.advance(2 * 60 * minute);
    for (let index = 0; index < 256; index += 1) throttle.attempt('late', '192.0.2.1');
    expect(throttle.size).toEqual({ accounts: 1, addresses: 1 });
  });
});

describe('addressKey', () => {
  it('keeps IPv4 (also IPv4-mapped) as it is and groups IPv6 by its /64', () => {
    expect(['127.0.0.1', '::ffff:127.0.0.1', '::FFFF:10.1.2.3'].map(addressKey)).toEqual(['127.0.0.1', '127.0.0.1', '10.1.2.3']);
    expect(['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::7', '2001:DB8:0001:0002:ffff::1', 'fe80::1%eth0', '::1'].map(addressKey)).toEqual([
      '2001:db8:1:2::/64',
      '2001:db8:1:2::/64',
      '2001:db8:1:2::/64',
      'fe80:0:0:0::/64',
      '0:0:0:0::/64',
    ]);
  });
});
