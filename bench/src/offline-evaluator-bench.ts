/**
 * Offline evaluation time per turn for a 20-point set (issue 15: "fast — p99 ≤ 5 ms per turn
 * for a 20-point set"). The real offline evaluator (`evaluateOffline`, WordNet lemmas,
 * synonyms, hypernyms) in this process, on every turn all 20 points unchecked (the worst
 * case: the evaluator checks every unchecked point on every message), with learner messages
 * of every kind — paraphrased recalls, partial and contradicting answers, misses, questions,
 * long free text, code and multiple-choice picks — the conversation's last 10 messages as
 * the engine sends them. WordNet's one-time load (at server start) is reported apart.
 *
 *   corepack pnpm exec tsx bench/src/offline-evaluator-bench.ts [turns, default 4000]
 */
import { loadavg } from 'node:os';
import type { ConversationMessage, EvaluationInput } from '../../server/src/core/provider';
import { evaluateOffline } from '../../server/src/core/offline/offline-evaluator';
import { wordNet, wordNetLoadMs } from '../../server/src/core/offline/wordnet';

const TURNS = Number(process.argv[2] ?? 4000);
const TARGET_P99_MS = 5;

const contents = [
  'The mitochondria produce ATP through oxidative phosphorylation',
  'Photosynthesis converts light energy into chemical energy stored in glucose',
  'Ribosomes translate messenger RNA into proteins',
  'The nucleus stores the cell’s genetic material',
  'Enzymes lower the activation energy of a reaction',
  'Water boils at 100 degrees Celsius at sea level',
  'The Pacific is the largest and deepest ocean',
  'Apollo 11 landed on the Moon in July 1969',
  'The Berlin Wall fell in November 1989',
  'The French Revolution began in 1789 with the storming of the Bastille',
  'France was nearly bankrupt after funding the American War of Independence',
  'Python lists are mutable, whereas tuples are immutable',
  'Binary search runs in logarithmic time on a sorted array',
  '`len(s)` returns the number of characters in a string',
  'Newton’s first law: an object stays at rest or in uniform motion unless a force acts on it',
  'Acceleration is the rate of change of velocity',
  'Glaciers erode valleys into a U shape',
  'Volcanoes form where tectonic plates diverge or subduct',
  'Canberra is the capital of Australia, not Sydney',
  'One mole contains 6.022 × 10^23 particles',
];
const points = contents.map((content, index) => ({ id: `pt_${String(index + 1).padStart(2, '0')}`, content, context: index % 3 === 0 ? 'Exam prep' : null }));

const messages: Array<ConversationMessage[]> = [
  [{ role: 'learner', content: 'mitochondria make the cell’s energy, ATP, by oxidising stuff' }],
  [{ role: 'learner', content: 'plants turn sunlight into sugar, chemical energy basically' }],
  [{ role: 'learner', content: 'no idea, sorry' }],
  [{ role: 'learner', content: 'what do you mean?' }],
  [{ role: 'learner', content: 'is it the mitochondria?' }],
  [{ role: 'learner', content: 'ribosomes read the mRNA and build proteins, and the nucleus keeps the DNA' }],
  [{ role: 'learner', content: 'water freezes at 100 degrees' }],
  [{ role: 'learner', content: 'the Berlin wall came down in 1989 and Apollo 11 reached the moon in 1969' }],
  [{ role: 'learner', content: 'tuples can be changed but lists cannot' }],
  [{ role: 'learner', content: 'France went broke paying for the American revolution, and then the revolution started in 1789 when they stormed the Bastille prison in Paris' }],
  [
    { role: 'tutor', content: 'Show me in code.', toolCall: { id: 'offline-pt_14-1', name: 'present_code_editor', input: { prompt: 'Write it', language: 'python' } } },
    { role: 'tool_result', toolCallId: 'offline-pt_14-1', content: 'word = "héllo"\nprint(len(word))' },
  ],
  [
    { role: 'tutor', content: 'Which of these?', toolCall: { id: 'offline-pt_07-2', name: 'present_choices', input: { prompt: 'Which?', options: ['The Pacific is the largest and deepest ocean', 'The Pacific is not the largest and deepest ocean'] } } },
    { role: 'tool_result', toolCallId: 'offline-pt_07-2', content: 'The Pacific is the largest and deepest ocean' },
  ],
  [{ role: 'learner', content: 'an object keeps moving at the same speed unless some force pushes it; and acceleration is how fast velocity changes' }],
  [{ role: 'learner', content: 'glaciers carve U-shaped valleys, volcanoes appear at plate boundaries, Sydney is the capital of Australia' }],
];
const history: ConversationMessage[] = Array.from({ length: 9 }, (_, index) =>
  index % 2 === 0 ? { role: 'tutor' as const, content: 'Here’s a keyword to start from: “energy”. What do you remember?' } : { role: 'learner' as const, content: 'something about cells' },
);

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;

wordNet();
const loadMs = wordNetLoadMs();
// Warm-up: the first calls fill the lemma and relation caches, as a server's first turns do.
for (const latest of messages) evaluateOffline({ points, recentMessages: [...history, ...latest].slice(-10), mode: 'recall' });

const timings: number[] = [];
const cpuTimings: number[] = [];
for (let turn = 0; turn < TURNS; turn++) {
  const latest = messages[turn % messages.length]!;
  const input: EvaluationInput = { points, recentMessages: [...history, ...latest].slice(-10), mode: 'recall' };
  const cpu = process.cpuUsage();
  const startedAt = performance.now();
  evaluateOffline(input);
  timings.push(performance.now() - startedAt);
  const used = process.cpuUsage(cpu);
  cpuTimings.push((used.user + used.system) / 1000);
}
const byKind = messages.map((_, kind) => timings.filter((_, turn) => turn % messages.length === kind).sort((a, b) => a - b));
if (process.env.BENCH_KINDS) byKind.forEach((list, kind) => console.log(kind, percentile(list, 0.5).toFixed(2), percentile(list, 0.99).toFixed(2)));
const sorted = [...timings].sort((a, b) => a - b);
const p99 = percentile(sorted, 0.99);
console.log(`offline evaluation per turn, ${points.length} unchecked points, ${TURNS} turns (${messages.length} kinds of message):`);
console.log(`  p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  max ${sorted.at(-1)!.toFixed(2)} ms  — target p99 ≤ ${TARGET_P99_MS} ms ${p99 <= TARGET_P99_MS ? '✓' : '✗'}`);
// On a shared, oversubscribed machine wall time includes time the process was not running;
// CPU time per turn is what the evaluator itself costs.
const cpuSorted = [...cpuTimings].sort((a, b) => a - b);
console.log(`  CPU time per turn: p50 ${percentile(cpuSorted, 0.5).toFixed(2)} ms  p99 ${percentile(cpuSorted, 0.99).toFixed(2)} ms  (load average ${loadavg()[0]!.toFixed(1)})`);
console.log(`  WordNet load (once, at server start): ${loadMs.toFixed(0)} ms`);
