/**
 * The floor under every matcher change: a point said word for word is recalled, whatever the
 * rest of the set. A contradiction rule that misreads a point against itself (a word on both
 * sides of "than" once made the sample set's second point "reverse the comparison") shows up
 * here, over every point of every labelled suite's sets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateOffline } from './offline-evaluator';

const suites = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../eval/suites/labelled');

interface Suite {
  sets: Record<string, { points: Array<{ key: string; content: string; context?: string }> }>;
}

const sets = new Map<string, Array<{ content: string; context: string | null }>>();
for (const file of ['corpus-dev.json', 'corpus-test.json', 'labelled-turns.json', 'heldout-turns.json']) {
  const suite = JSON.parse(readFileSync(path.join(suites, file), 'utf8')) as Suite;
  for (const [name, set] of Object.entries(suite.sets)) sets.set(`${file}:${name}`, set.points.map((point) => ({ content: point.content, context: point.context ?? null })));
}
// The sample set a new learner is offered on the welcome page (web/src/pages/welcome-page.tsx).
sets.set(
  'sample set',
  [
    'Recalling something from memory strengthens it more than reading it again',
    'Reviews spread out over days keep a memory longer than the same reviews crammed together',
    'Without review most new facts are forgotten within a few days',
  ].map((content) => ({ content, context: null })),
);

describe('a point said word for word is recalled', () => {
  // A card's point is its answer, cued by its question (the context): "K" answers "Chemical symbol for potassium".
  it(`every point of ${sets.size} sets, with the whole set still to recall`, () => {
    const missed: string[] = [];
    for (const [name, contents] of sets) {
      const points = contents.map((point, index) => ({ id: `p${index}`, ...point }));
      for (const point of points) {
        const result = evaluateOffline({ points, recentMessages: [{ role: 'tutor', content: 'What can you tell me?' }, { role: 'learner', content: point.content }], mode: 'recall' });
        const recalled = result.recalledPoints.find((candidate) => candidate.id === point.id);
        // Word for word is as sure as recall gets: rated as such by FSRS, not as a hesitant answer.
        if (recalled?.confidence !== 1) missed.push(`${name}: ${point.content} — ${recalled ? `confidence ${recalled.confidence}` : result.feedback}`);
      }
    }
    expect(missed).toEqual([]);
  }, 120_000);
});
