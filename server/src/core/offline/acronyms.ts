/**
 * Acronyms, either way round (idea-match.ts): a learner's "PPI" says the point's "proton pump
 * inhibitor", "NZ" its "New Zealand"; a learner who spells out the point's "SSRI" as "selective
 * serotonin reuptake inhibitor" says it too. An acronym is a word written in capitals (or one
 * WordNet does not know) whose letters are the initials of two or more consecutive words of the
 * other side, one function word between them allowed ("Union of Soviet Socialist Republics").
 */
import type { IdeaHit, KeyIdea } from './idea-match';
import { candidateNegated, type Candidate, type PreparedMessage } from './prepared-message';
import { wordNet } from './wordnet';

/** Strength of an idea said by its acronym, or an acronym by its words. */
export const ACRONYM_STRENGTH = 0.9;
const MAX_GAP = 2;

/** The acronym a written word may be: its letters, lowercase, a plural "s" dropped ("PPIs"); null for a word that is not one. */
function acronymOf(raw: string): string | null {
  if (/^[A-Z]{2,6}s?$/.test(raw)) return raw.replace(/s$/, '').toLowerCase();
  if (/^[a-z]{2,5}$/.test(raw) && !wordNet().has(raw)) return raw;
  return null;
}

function initials(surface: string): string {
  return surface
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toLowerCase())
    .join('');
}

type Hits = Map<number, IdeaHit>;

/** A learner acronym for consecutive ideas of the point. */
function acronymsForIdeas(ideas: readonly KeyIdea[], message: PreparedMessage, byIdea: Hits, isFree: (c: Candidate) => boolean, use: (c: Candidate) => void): void {
  const order = ideas.map((idea, index) => ({ idea, index })).filter(({ idea }) => idea.value === null).sort((a, b) => a.idea.position - b.idea.position);
  for (const c of message.candidates) {
    if (c.from !== c.to || !isFree(c)) continue;
    const acronym = acronymOf(c.words);
    if (!acronym) continue;
    for (let start = 0; start < order.length; start++) {
      let spelled = '';
      let words = 0;
      const run: number[] = [];
      for (let k = start; k < order.length; k++) {
        const { idea, index } = order[k]!;
        const previous = order[k - 1]?.idea;
        if (k > start && (idea.position - (previous!.end ?? previous!.position) > MAX_GAP || idea.clause !== previous!.clause)) break;
        spelled += initials(idea.surface);
        words += idea.surface.split(/[\s-]+/).length;
        run.push(index);
        if (!acronym.startsWith(spelled)) break;
        if (spelled === acronym && words >= 2 && run.every((i) => !byIdea.has(i))) {
          for (const i of run) byIdea.set(i, { idea: ideas[i]!, words: c.words, relation: 'same', strength: ACRONYM_STRENGTH, negated: candidateNegated(message, c), clause: c.clause, wordIndices: [c.from] });
          use(c);
          return;
        }
      }
    }
  }
}

/** An acronym of the point spelled out by consecutive learner words. */
function wordsForAcronyms(ideas: readonly KeyIdea[], message: PreparedMessage, byIdea: Hits, isFree: (c: Candidate) => boolean, use: (c: Candidate) => void): void {
  const single = message.candidates.filter((c) => c.from === c.to && !c.strict);
  ideas.forEach((idea, index) => {
    if (byIdea.has(index) || idea.value !== null || idea.parts) return;
    const acronym = acronymOf(idea.surface);
    if (!acronym || !/^[A-Z]/.test(idea.surface)) return;
    for (let start = 0; start < single.length; start++) {
      let spelled = '';
      const run: Candidate[] = [];
      for (let k = start; k < single.length; k++) {
        const c = single[k]!;
        if (!isFree(c) || (k > start && (c.from - run.at(-1)!.to > MAX_GAP || c.clause !== run.at(-1)!.clause))) break;
        spelled += c.norm[0] ?? '';
        run.push(c);
        if (!acronym.startsWith(spelled)) break;
        if (spelled === acronym && run.length >= 2) {
          byIdea.set(index, { idea, words: run.map((r) => r.words).join(' '), relation: 'same', strength: ACRONYM_STRENGTH, negated: candidateNegated(message, run[0]!), clause: run[0]!.clause, wordIndices: run.map((r) => r.from) });
          run.forEach(use);
          return;
        }
      }
    }
  });
}

/** Both directions, on the ideas no word has expressed yet. */
export function matchAcronyms(ideas: readonly KeyIdea[], message: PreparedMessage, byIdea: Hits, isFree: (c: Candidate) => boolean, use: (c: Candidate) => void): void {
  acronymsForIdeas(ideas, message, byIdea, isFree, use);
  wordsForAcronyms(ideas, message, byIdea, isFree, use);
}
