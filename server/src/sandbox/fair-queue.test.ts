import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

/** Takes everything in dispatch order, releasing each run as soon as it is taken. */
function serveAll(queue: FairQueue<string>): string[] {
  const order: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) {
    order.push(next.item);
    queue.release(next.owner);
  }
  return order;
}

describe('FairQueue', () => {
  it('serves one owner’s runs first in, first out', () => {
    const queue = new FairQueue<string>(3);
    for (const item of ['a1', 'a2', 'a3']) queue.push('alice', item);
    expect(serveAll(queue)).toEqual(['a1', 'a2', 'a3']);
  });

  it('serves owners round robin, whatever order their runs arrived in', () => {
    const queue = new FairQueue<string>(3);
    for (const item of ['a1', 'a2', 'a3']) queue.push('alice', item);
    for (const item of ['b1', 'b2']) queue.push('bob', item);
    queue.push('carol', 'c1');
    expect(serveAll(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('puts a newcomer ahead of owners already served, and owners never served in arrival order', () => {
    const queue = new FairQueue<string>(3);
    queue.push('alice', 'a1');
    queue.push('alice', 'a2');
    expect(queue.shift()).toEqual({ owner: 'alice', item: 'a1' });
    queue.push('bob', 'b1');
    queue.push('carol', 'c1');
    expect(serveAll(queue)).toEqual(['b1', 'c1', 'a2']);
  });

  it('counts waiting and running runs against the owner’s limit until released', () => {
    const queue = new FairQueue<string>(2);
    expect(queue.push('alice', 'a1')).toBe(true);
    expect(queue.push('alice', 'a2')).toBe(true);
    expect(queue.hasRoom('alice')).toBe(false);
    expect(queue.push('alice', 'a3')).toBe(false);
    expect(queue.hasRoom('bob')).toBe(true);
    const running = queue.shift();
    expect(running?.item).toBe('a1');
    // Dispatched but not released: still counts.
    expect(queue.hasRoom('alice')).toBe(false);
    queue.release('alice');
    expect(queue.push('alice', 'a3')).toBe(true);
    expect(queue.waiting).toBe(2);
  });

  it('frees the place of a waiting run taken out, and drains oldest first', () => {
    const queue = new FairQueue<string>(2);
    queue.push('alice', 'a1');
    queue.push('bob', 'b1');
    queue.push('alice', 'a2');
    expect(queue.remove('alice', 'a1')).toBe(true);
    expect(queue.remove('alice', 'a1')).toBe(false);
    expect(queue.hasRoom('alice')).toBe(true);
    expect(queue.drain()).toEqual(['b1', 'a2']);
    expect(queue.waiting).toBe(0);
    expect(queue.hasRoom('alice') && queue.hasRoom('bob')).toBe(true);
  });

  it('remembers an owner who keeps resubmitting: a run ending and a new one arriving does not make them a newcomer', () => {
    const queue = new FairQueue<string>(1);
    queue.push('victim', 'v1');
    queue.push('attacker', 'x1');
    expect([queue.shift()?.item, queue.shift()?.item]).toEqual(['v1', 'x1']);
    queue.release('victim');
    queue.push('victim', 'v2');
    // The attacker's run ends and it resubmits at once: it was served after the victim, so it waits its turn.
    queue.release('attacker');
    queue.push('attacker', 'x2');
    expect(serveAll(queue)).toEqual(['v2', 'x2']);
  });
});
