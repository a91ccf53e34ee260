import { describe, expect, it } from 'vitest';
import { estimateAbilities } from './abilities';
import type { GeneratedItem } from './item-builder';
import { logistic } from './irt';
import { nextItem, weakestDomain, type EarlierItems } from './next-item';
import type { Random } from './random';
import { createRandom, randomForItem } from './random';
import type { ResponseRecord } from './responses';
import { toResponseRecord } from './responses';
import { shippedCatalog } from '../../../test/support/assessment-support';

const catalog = shippedCatalog();

/** A simulated learner of true ability `ability`, answering in `seconds`. */
interface Learner {
  ability: number;
  seconds: number;
  random: Random;
}

/** Runs a whole session the way the server will: a random source rebuilt per position from one seed. */
function runSession(
  assessmentId: string,
  sessionSeed: string,
  learner: Learner,
  earlier?: EarlierItems,
): { items: GeneratedItem[]; answered: ResponseRecord[]; after: GeneratedItem | null } {
  const items: GeneratedItem[] = [];
  const answered: ResponseRecord[] = [];
  for (let position = 1; position <= 100; position++) {
    const item = nextItem(catalog, assessmentId, answered, randomForItem(sessionSeed, position), earlier);
    if (item === null) break;
    items.push(item);
    const credit = learner.random.next() < logistic(learner.ability - item.difficulty) ? 1 : 0;
    answered.push(toResponseRecord(item, { position, credit, responseSeconds: learner.seconds }));
  }
  return { items, answered, after: nextItem(catalog, assessmentId, answered, randomForItem(sessionSeed, answered.length + 1)) };
}

const learner = (seed: string, ability = 0, seconds = 20): Learner => ({ ability, seconds, random: createRandom(seed) });

const countBy = <T>(values: readonly T[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
};

function record(item: { sectionId: string; domain: string; skillId: string; level: ResponseRecord['level']; difficulty: number }, credit: number, position: number): ResponseRecord {
  // Slower than every benchmark, so each response weighs exactly 1.
  return { position, ...item, credit, responseSeconds: 600, fingerprint: `test|${position}` };
}

describe('a retake of an assessment', () => {
  const earlierOf = (items: readonly GeneratedItem[]): EarlierItems => ({ fingerprints: new Set(items.map((item) => item.fingerprint)), stems: new Set(items.map((item) => item.stem)) });

  /** Four attempts by each of 30 learners; each attempt's items and what it shares with the three before it. */
  function retakes(assessmentId: string, remember: boolean): { lengths: number[]; repeated: GeneratedItem[] } {
    const lengths: number[] = [];
    const repeated: GeneratedItem[] = [];
    for (let trial = 0; trial < 30; trial++) {
      const attempts: GeneratedItem[][] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const earlier = earlierOf(attempts.slice(-3).flat());
        const { items } = runSession(assessmentId, `${assessmentId}|retake|${trial}|${attempt}`, learner(`retaker|${trial}`), remember ? earlier : undefined);
        lengths.push(items.length);
        repeated.push(...items.filter((item) => earlier.fingerprints.has(item.fingerprint) || earlier.stems.has(item.stem)));
        attempts.push(items);
      }
    }
    return { lengths, repeated };
  }

  for (const assessment of catalog.assessments.values()) {
    it(`${assessment.id}: repeats neither an item nor a stem of the three attempts before it (30 learners, 4 attempts)`, () => {
      const { lengths, repeated } = retakes(assessment.id, true);
      expect(lengths.every((length) => length === assessment.totalItems)).toBe(true);
      expect(repeated.map((item) => item.stem)).toEqual([]);
    });
  }

  it('PYTHON-STRINGS-L1 (a small pool): without the earlier attempts, retakes do repeat stems', () => {
    expect(retakes('PYTHON-STRINGS-L1', false).repeated.length).toBeGreaterThan(0);
  });
});

describe('nextItem over whole sessions of the shipped assessments', () => {
  for (const assessment of catalog.assessments.values()) {
    it(`${assessment.id}: serves exactly the blueprint's items, never one twice, then null (40 sessions)`, () => {
      for (let session = 0; session < 40; session++) {
        const { items, after } = runSession(assessment.id, `${assessment.id}|${session}`, learner(`learner|${session}`, (session % 5) - 2));
        expect(items).toHaveLength(assessment.totalItems);
        expect(after).toBeNull();
        expect(new Set(items.map((item) => item.fingerprint)).size).toBe(items.length);
        expect(countBy(items.map((item) => item.sectionId))).toEqual(Object.fromEntries(assessment.sections.map((section) => [section.id, section.itemCount])));
        for (const section of assessment.sections) {
          const served = items.filter((item) => item.sectionId === section.id);
          expect(served.every((item) => section.skills.includes(item.skillId) && item.domain === section.domain)).toBe(true);
          if (section.difficultyDistribution) expect(countBy(served.map((item) => item.level))).toEqual(section.difficultyDistribution);
        }
      }
    });
  }

  it('serves sections in blueprint order unless adaptive', () => {
    const { items } = runSession('MATH-FUNDAMENTALS-L1', 'order', learner('order'));
    expect(items.map((item) => item.sectionId)).toEqual(
      ['addition', 'subtraction', 'multiplication', 'division'].flatMap((id) => Array.from({ length: 5 }, () => id)),
    );
  });

  it('gives the same next item for the same seed, position and answers (a restart changes nothing)', () => {
    const { answered } = runSession('MATH-FUNDAMENTALS-L1', 'restart', learner('restart'));
    for (const cut of [0, 4, 11, 19]) {
      const before = answered.slice(0, cut);
      expect(nextItem(catalog, 'MATH-FUNDAMENTALS-L1', before, randomForItem('restart', cut + 1))).toEqual(
        nextItem(catalog, 'MATH-FUNDAMENTALS-L1', before, randomForItem('restart', cut + 1)),
      );
    }
  });

  it('random_from_pool draws new items per session; fixed keeps the form\'s structure but draws new variants per attempt', () => {
    const pool = (seed: string) => runSession('MATH-FUNDAMENTALS-L1', seed, learner('same')).items.map((item) => item.fingerprint);
    expect(pool('one')).not.toEqual(pool('two'));
    const form = (seed: string) => runSession('PYTHON-STRINGS-L1', seed, learner('same')).items;
    const [one, two] = [form('one'), form('two')];
    // Same slots: skill, case and level position by position…
    const structure = (items: typeof one) => items.map((item) => [item.skillId, item.sectionId, item.params.case, item.level]);
    expect(structure(one)).toEqual(structure(two));
    // …but no item of one attempt comes back in the other (regression: attempt 2 answered from attempt 1's review).
    const fingerprints = new Set(one.map((item) => item.fingerprint));
    expect(two.filter((item) => fingerprints.has(item.fingerprint))).toEqual([]);
    // The fixed form's levels run easiest first within each section.
    expect(runSession('PYTHON-STRINGS-L1', 'x', learner('x')).items.map((item) => item.level)).toEqual(['easy', 'medium', 'hard', 'easy', 'medium', 'hard']);
  });

  it('never repeats an answered fingerprint, even when the same draw would produce it', () => {
    const first = nextItem(catalog, 'MATH-FUNDAMENTALS-L1', [], randomForItem('collide', 1));
    if (first === null) throw new Error('no first item');
    // An answer elsewhere carrying the same fingerprint: the addition draw must avoid it.
    const elsewhere: ResponseRecord = { ...toResponseRecord(first, { position: 1, credit: 1, responseSeconds: 5 }), sectionId: 'division' };
    const second = nextItem(catalog, 'MATH-FUNDAMENTALS-L1', [elsewhere], randomForItem('collide', 1));
    expect(second?.sectionId).toBe('addition');
    expect(second?.fingerprint).not.toBe(first.fingerprint);

    const fixed = nextItem(catalog, 'PYTHON-STRINGS-L1', [], randomForItem('a', 1));
    if (fixed === null) throw new Error('no fixed item');
    const taken: ResponseRecord = { ...toResponseRecord(fixed, { position: 1, credit: 1, responseSeconds: 5 }), sectionId: 'writing' };
    expect(nextItem(catalog, 'PYTHON-STRINGS-L1', [taken], randomForItem('a', 1))?.fingerprint).not.toBe(fixed.fingerprint);
  });

  it('throws on an unknown assessment (the server checks ids before starting a session)', () => {
    expect(() => nextItem(catalog, 'NOPE', [], createRandom(1))).toThrow('unknown assessment blueprint "NOPE"');
  });
});

describe('adaptive selection (NETWORKING-IPV4-L1)', () => {
  const network = { sectionId: 'network-address', domain: 'Networking > IPv4 > Network address', skillId: 'NET.IPV4.SUBNET.NETWORK' };
  const broadcast = { sectionId: 'broadcast-address', domain: 'Networking > IPv4 > Broadcast address', skillId: 'NET.IPV4.SUBNET.BROADCAST' };
  const next = (answered: ResponseRecord[]) => nextItem(catalog, 'NETWORKING-IPV4-L1', answered, createRandom('adaptive'));

  it('starts with the first domain and an item just below the prior ability (target −0.5: a classful one)', () => {
    expect(next([])).toMatchObject({ sectionId: 'network-address', level: 'easy', difficulty: -0.5 });
  });

  it('picks the weaker domain', () => {
    const networkStrong = [1, 2, 3].map((position) => record({ ...network, level: 'medium', difficulty: 0.1 }, 1, position));
    expect(next(networkStrong)?.sectionId).toBe('broadcast-address');
    const networkWeak = [1, 2].map((position) => record({ ...network, level: 'easy', difficulty: -0.5 }, 0, position));
    const broadcastStrong = [3].map((position) => record({ ...broadcast, level: 'easy', difficulty: -0.3 }, 1, position));
    expect(next([...networkWeak, ...broadcastStrong])?.sectionId).toBe('network-address');
  });

  it('breaks an ability tie by fewer responses', () => {
    // One right and one wrong at difficulty 0 leaves the MAP estimate exactly at the prior, 0.
    const even = [record({ ...network, level: 'medium', difficulty: 0 }, 1, 1), record({ ...network, level: 'medium', difficulty: 0 }, 0, 2)];
    expect(estimateAbilities(catalog, 'NETWORKING-IPV4-L1', even).domains[0]?.ability).toBeCloseTo(0, 12);
    expect(next(even)?.sectionId).toBe('broadcast-address');
  });

  it('targets harder items as ability rises', () => {
    const strong = [1, 2, 3, 4].flatMap((position) => [
      record({ ...network, level: 'hard', difficulty: 1.3 }, 1, position),
      record({ ...broadcast, level: 'hard', difficulty: 1.5 }, 1, position + 4),
    ]);
    const { domains } = estimateAbilities(catalog, 'NETWORKING-IPV4-L1', strong);
    expect(Math.min(...domains.map((domain) => domain.ability))).toBeGreaterThan(1.5);
    expect(next(strong)?.level).toBe('hard');
  });

  it('spends the items of a session where the learner is weak', () => {
    // Section quotas cap it, so a learner who fails everything still gets 5 + 5.
    const { items } = runSession('NETWORKING-IPV4-L1', 'weak', learner('weak', -3));
    expect(items.filter((item) => item.level === 'easy').length).toBeGreaterThanOrEqual(8);
  });
});

describe('weakestDomain', () => {
  it('orders by ability, then fewer responses, then input order', () => {
    const a = { name: 'a', ability: 0.2, responses: 1 };
    const b = { name: 'b', ability: -0.1, responses: 3 };
    const c = { name: 'c', ability: -0.1, responses: 2 };
    const d = { name: 'd', ability: -0.1, responses: 2 };
    expect(weakestDomain([a, b, c, d])?.name).toBe('c');
    expect(weakestDomain([])).toBeUndefined();
  });
});

describe('estimateAbilities', () => {
  it('reports overall and per domain, in section order, the prior for a domain without responses', () => {
    const answered = [record({ sectionId: 'addition', domain: 'Mathematics > Arithmetic > Addition', skillId: 'MATH.ARITH.ADD.2DIGIT', level: 'easy', difficulty: 0 }, 1, 1)];
    const report = estimateAbilities(catalog, 'MATH-FUNDAMENTALS-L1', answered);
    expect(report.overall.ability).toBeCloseTo(0.401058, 5);
    expect(report.domains.map((domain) => [domain.domain, domain.responses])).toEqual([
      ['Mathematics > Arithmetic > Addition', 1],
      ['Mathematics > Arithmetic > Subtraction', 0],
      ['Mathematics > Arithmetic > Multiplication', 0],
      ['Mathematics > Arithmetic > Division', 0],
    ]);
    expect(report.domains[1]).toEqual({ domain: 'Mathematics > Arithmetic > Subtraction', ability: 0, standardError: 1, responses: 0 });
  });

  it('counts a fast correct answer as stronger evidence, against the skill benchmark (15 s for addition)', () => {
    const addition = { sectionId: 'addition', domain: 'Mathematics > Arithmetic > Addition', skillId: 'MATH.ARITH.ADD.2DIGIT', level: 'easy' as const, difficulty: 0 };
    const at = (responseSeconds: number) =>
      estimateAbilities(catalog, 'MATH-FUNDAMENTALS-L1', [{ ...record(addition, 1, 1), responseSeconds }]).overall.ability;
    expect(at(0)).toBeCloseTo(0.549107, 5); // weight 1.5
    expect(at(5)).toBeGreaterThan(at(15));
    expect(at(15)).toBe(at(60));
  });
});
