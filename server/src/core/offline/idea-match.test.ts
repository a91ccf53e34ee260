import { describe, expect, it } from 'vitest';
import { matchPoint, pointSetOf, prepareMessage } from './idea-match';
import { classifyLearnerMessage } from './learner-message';
import { evaluateOffline } from './offline-evaluator';

const match = (content: string, message: string) => matchPoint(prepareMessage(message), content);
const photosynthesis = 'Photosynthesis converts light energy into chemical energy stored in glucose.';

describe('idea matching (issue 15)', () => {
  it('recalls a paraphrase through lemmas, synonyms and close hypernyms, and says which ideas matched', () => {
    const m = match(photosynthesis, 'Plants use sunlight to make sugar, storing the light energy chemically');
    expect(m.recalled).toBe(true);
    expect(m.hits.map((hit) => [hit.idea.surface, hit.words])).toEqual(
      expect.arrayContaining([
        ['glucose', 'sugar'],
        ['stored', 'storing'],
      ]),
    );
  });

  it('never counts a contradiction: negation, antonyms, another number, a sister term, a swapped comparison', () => {
    expect(match('Correlation does not prove causation.', 'a correlation proves causation')).toMatchObject({ recalled: false, conflict: 'negates what the point states' });
    expect(match('Correlation does not prove causation.', "correlation doesn't prove causation").recalled).toBe(true);
    expect(match('The Nile is the longest river in Africa.', 'The Nile is the shortest river in Africa').recalled).toBe(false);
    expect(match('Inflation reduces the purchasing power of money.', 'Inflation increases the purchasing power of money').recalled).toBe(false);
    expect(match('The French Revolution began in 1789.', 'The French Revolution started in 1790').recalled).toBe(false);
    expect(match('Hamlet is a tragedy about a prince seeking revenge.', 'Hamlet is a comedy about a prince seeking revenge').recalled).toBe(false);
    expect(match('The median is less affected by outliers than the mean.', 'The mean is less affected by outliers than the median').recalled).toBe(false);
  });

  it('hears a direction in "more", "less" and "goes down", and rejects the opposite one', () => {
    const supply = 'When supply rises and demand stays the same, prices fall.';
    expect(match(supply, "if there's more supply but the same demand, the price goes down").recalled).toBe(true);
    expect(match(supply, 'with more supply and the same demand the price goes up').recalled).toBe(false);
    expect(match(supply, 'with less supply and the same demand the price goes down').recalled).toBe(false);
    // In a comparison the sides decide, not the word: this one says the point the other way round.
    expect(match('The median is less affected by outliers than the mean.', 'Outliers affect the mean more than they affect the median').recalled).toBe(true);
  });

  it('reads "or it …" and "otherwise" as a clause of its own, so its negation stays there', () => {
    const recursion = 'Recursion is when a function calls itself, and it needs a base case to stop.';
    expect(match(recursion, 'a recursive function calls itself and must have a base case or it never ends').recalled).toBe(true);
    expect(match(recursion, 'a recursive function calls itself and needs a base case, otherwise it never stops').recalled).toBe(true);
    // "or" between two words is not a clause: the negation still covers the whole statement.
    expect(match(recursion, 'a recursive function never calls itself or a base case').recalled).toBe(false);
  });

  it('reads numbers in words and digits alike', () => {
    expect(match('Humans have 23 pairs of chromosomes.', 'people have twenty-three pairs of chromosomes').recalled).toBe(true);
    expect(match('The French Revolution began in 1789.', 'the French Revolution began in seventeen eighty-nine').recalled).toBe(true);
  });

  it('is deterministic: the same message and set always give the same verdict and feedback', () => {
    const points = Array.from({ length: 20 }, (_, i) => ({ id: `p${i}`, content: `${photosynthesis} Variant ${i} about enzyme ${i}.`, context: null }));
    const run = () => evaluateOffline({ points, recentMessages: [{ role: 'learner', content: 'Plants use sunlight to make sugar, storing the energy chemically' }], mode: 'recall' });
    expect(run()).toEqual(run());
  });
});

describe('a question is not an answer (issue 15)', () => {
  it.each(['what do you mean?', 'why was France broke?', "I don't understand the question", 'Sorry, could you repeat that?', 'ok, got it'])('"%s" is not an attempt', (text) => {
    expect(classifyLearnerMessage(text)).toBe('question');
  });

  // A guess put as a question is a hedged answer and is graded (issue 28); "hint please" is an empty attempt.
  it.each(['Mitochondria make ATP?', 'Photosynthesis makes glucose, right?', "I don't know", 'Plants make sugar. Why do they need it?', 'is it the mitochondria?', 'maybe the mitochondria?', 'hint please'])('"%s" is an attempt', (text) => {
    expect(classifyLearnerMessage(text)).toBe('attempt');
  });

  it('is never graded, even when it names a point', () => {
    const r = evaluateOffline({
      points: [{ id: 'p1', content: 'Mitochondria produce ATP.', context: null }],
      recentMessages: [{ role: 'learner', content: 'why do mitochondria produce ATP?' }],
      mode: 'recall',
    });
    expect(r).toMatchObject({ recalledPoints: [], messageKind: 'question' });
    expect(r.feedback).toContain('not an attempt');
  });
});

describe('weights, core and asides, and what a paraphrase may use (issue 28)', () => {
  it('weighs a word by how much it identifies the point: rare words more, a word every point of the set shares less', () => {
    const ideas = match('The mitochondria produce ATP through oxidative phosphorylation', '').ideas;
    const weight = (surface: string) => ideas.find((idea) => idea.surface === surface)!.weight;
    expect(weight('mitochondria')).toBeGreaterThan(weight('produce'));
    const git = ['git pull is a git fetch followed by a merge.', 'git clone copies a remote repository to your machine.', 'git commit records a snapshot of the staged changes.'];
    const withoutGit = 'pull is a fetch followed by a merge';
    const alone = matchPoint(prepareMessage(withoutGit), git[0]!);
    const inSet = matchPoint(prepareMessage(withoutGit), git[0]!, { set: pointSetOf(git) });
    expect(inSet.coverage).toBeGreaterThan(alone.coverage);
  });

  it('recalls the core of a point said without its details, not a topic word or a fragment', () => {
    const rome = 'The Western Roman Empire fell in 476 AD when Odoacer deposed Romulus Augustulus.';
    expect(match(rome, 'the western roman empire fell in 476').recalled).toBe(true);
    expect(match('The Nile is generally considered the longest river in the world, at about 6,650 km.', 'the Nile is the longest river').recalled).toBe(true);
    expect(match('DNA is a double helix of two strands held together by complementary base pairs.', 'DNA is a double helix of two strands').recalled).toBe(true);
    expect(match(rome, 'something about Romulus').recalled).toBe(false);
    expect(match('The mitochondria produce ATP through oxidative phosphorylation', 'mitochondria?').recalled).toBe(false);
  });

  it('names the missing words of the core, heaviest first, not the asides', () => {
    const m = match('Chest compressions should be 5 to 6 cm deep (about two inches) at a rate of 100 to 120 per minute.', 'compressions at a rate of 100 to 120 per minute');
    expect(m.missingCore.map((idea) => idea.surface)).toEqual(expect.arrayContaining(['5', '6', 'cm', 'deep']));
    expect(m.missingCore.map((idea) => idea.surface)).not.toContain('inches');
  });

  it('matches a definition, a clipped word, a compound, an adjective of the same cluster, numbers in words', () => {
    expect(match('Python lists are mutable, but tuples are immutable.', "you can change a list after you make it, but a tuple can't be changed").recalled).toBe(true);
    expect(match('git clone copies a remote repository to your machine.', 'git clone copies the remote repo to your machine').recalled).toBe(true);
    expect(match('Merge sort runs in O(n log n) time in the worst case.', 'even in the worst case mergesort runs in n log n time').recalled).toBe(true);
    expect(match('At subduction zones a denser oceanic plate sinks beneath another plate.', 'at subduction zones the heavier oceanic plate sinks beneath another plate').recalled).toBe(true);
    expect(match('Mount Everest is 8,849 metres high.', 'Everest is eight thousand eight hundred and forty-nine metres high').recalled).toBe(true);
    expect(match('In tennis, the points in a game are called love, 15, 30, 40 and game.', 'tennis points go love, fifteen, thirty, forty, then game').recalled).toBe(true);
  });

  it('judges a hedged answer on its content', () => {
    const semicolon = 'A semicolon can join two independent clauses that are closely related.';
    expect(match(semicolon, 'a semicolon links two independent clauses maybe? ones that are related').recalled).toBe(true);
    expect(match(semicolon, 'I think a semicolon can never join two independent clauses?').recalled).toBe(false);
  });
});
