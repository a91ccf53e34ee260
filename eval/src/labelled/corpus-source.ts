/**
 * The independent labelled corpus (issue 28): hand-written turns in a compact text form
 * (`eval/corpus/*.txt`, format in eval/corpus/README.md), read into labelled sets and turns,
 * then split once into a dev and a frozen test suite, stratified by kind with a fixed seed.
 * Pure: the caller reads and writes the files (`build-corpus.ts`). The parser only reads what
 * was written by hand — it never makes up a turn.
 */
import type { WidgetRule } from '../suites/suite-schema';
import type { z } from 'zod';
import { LabelledSuiteFile, type LabelledKind, type LabelledMove, type LabelledSet, type LabelledSplit, type LabelledTurn } from './labelled-schema';

type LabelledSuiteFileInput = z.input<typeof LabelledSuiteFile>;

/** Short kind names of the source lines → the suite's kinds. */
export const sourceKinds = {
  ex: 'exact',
  para: 'paraphrase',
  pc: 'partial_core',
  pm: 'partial_missing',
  near: 'near_miss',
  contra: 'contradiction',
  hedge: 'hedged',
  q: 'question',
  off: 'off_topic',
  multi: 'multi',
  widget: 'widget',
} as const satisfies Record<string, LabelledKind>;

export interface CorpusSource {
  sets: Record<string, LabelledSet>;
  turns: LabelledTurn[];
}

export type ParseResult = { ok: true; value: CorpusSource } | { ok: false; errors: string[] };

const setLine = /^== (\w[\w-]*) \| ([^|]+) \| ([^|]+)$/;
const pointLine = /^(k\d+)(?: \[([^\]]+)\])?: (.+)$/;
// kind, shows ("-" or keys), optional "!keys" contradicted, optional "<< move // move >>" context, ": message".
const turnLine = /^(\w+) (-|k\d+(?:,k\d+)*)(?: !(k\d+(?:,k\d+)*))?(?: << (.+?) >>)?: (.+)$/;

/** `@text …` / `@match …` answer the pending widget; anything else is a chat message. */
function parseMove(text: string): LabelledMove {
  const widget = /^@(text|match) (.+)$/.exec(text);
  if (!widget) return { say: text };
  const rule: WidgetRule = widget[1] === 'text' ? { answer: 'text', text: widget[2]! } : { answer: 'match', text: widget[2]! };
  return { widget: rule };
}

/** Reads the source files in order; every mistake names its file and line. */
export function parseCorpusSource(files: ReadonlyArray<{ name: string; text: string }>): ParseResult {
  const sets: Record<string, LabelledSet> = {};
  const turns: LabelledTurn[] = [];
  const errors: string[] = [];
  for (const file of files) {
    let current: { key: string; set: LabelledSet; turns: number } | null = null;
    file.text.split(/\r?\n/).forEach((raw, index) => {
      const line = raw.trim();
      const where = `${file.name}:${index + 1}`;
      if (line === '' || line.startsWith('#')) return;
      const set = setLine.exec(line);
      if (set) {
        const key = set[1]!;
        if (sets[key]) errors.push(`${where}: set "${key}" is declared twice`);
        current = { key, set: { name: set[2]!.trim(), subject: set[3]!.trim(), points: [] }, turns: 0 };
        sets[key] = current.set;
        return;
      }
      if (!current) return void errors.push(`${where}: a line before the first "== set | name | subject" line`);
      const point = pointLine.exec(line);
      if (point) {
        if (current.turns > 0) return void errors.push(`${where}: point ${point[1]} comes after the set's turns`);
        current.set.points.push({ key: point[1]!, content: point[3]!.trim(), ...(point[2] ? { context: point[2].trim() } : {}) });
        return;
      }
      const turn = turnLine.exec(line);
      const kind = turn ? sourceKinds[turn[1] as keyof typeof sourceKinds] : undefined;
      if (!turn || !kind) return void errors.push(`${where}: not a set, point or turn line: "${line}"`);
      current.turns += 1;
      const context = turn[4] ? turn[4].split(' // ').map((move) => parseMove(move.trim())) : [];
      const message = parseMove(turn[5]!.trim());
      if (kind === 'widget' && message.widget === undefined) errors.push(`${where}: a widget turn needs an "@text" or "@match" answer`);
      turns.push({
        id: `${current.key}-${String(current.turns).padStart(2, '0')}`,
        set: current.key,
        kind,
        context,
        message,
        shows: turn[2] === '-' ? [] : turn[2]!.split(','),
        ...(turn[3] ? { contradicts: turn[3].split(',') } : {}),
      });
    });
  }
  // The suite schema checks the rest (known point keys, unique ids) with its own messages.
  const checked = LabelledSuiteFile.safeParse({ format: 'labelled', sets, turns });
  if (!checked.success) errors.push(...checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { sets, turns } };
}

/** mulberry32: a small seeded generator, so the split is the same on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Splits the turns into dev and test: within each kind (in order of first appearance) the
 * turns are shuffled with the seeded generator and the first `round(n × testShare)` go to
 * test. Each part keeps the source order.
 */
export function splitTurns(turns: readonly LabelledTurn[], options: { seed: number; testShare: number }): { dev: LabelledTurn[]; test: LabelledTurn[] } {
  const random = seededRandom(options.seed);
  const byKind = new Map<string, LabelledTurn[]>();
  for (const turn of turns) byKind.set(turn.kind, [...(byKind.get(turn.kind) ?? []), turn]);
  const inTest = new Set<string>();
  for (const group of byKind.values()) {
    const shuffled = [...group];
    for (let index = shuffled.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
    }
    for (const turn of shuffled.slice(0, Math.round(group.length * options.testShare))) inTest.add(turn.id);
  }
  return { dev: turns.filter((turn) => !inTest.has(turn.id)), test: turns.filter((turn) => inTest.has(turn.id)) };
}

/** The sets the turns use, in the source's order. */
function setsOf(source: CorpusSource, turns: readonly LabelledTurn[]): Record<string, LabelledSet> {
  const used = new Set(turns.map((turn) => turn.set));
  return Object.fromEntries(Object.entries(source.sets).filter(([key]) => used.has(key)));
}

export const corpusSeed = 20261127;
export const corpusTestShare = 0.4;

export const corpusDescriptions = {
  dev: 'Development split of the independent corpus (issue 28): learner turns over many subjects, written and labelled by hand on 2026-11-27 by an author who had not read the matcher, judging meaning the way a fair teacher would. About 60 % of the turns, stratified by kind (seed 20261127). Look at its misses freely; tuning on it is what it is for. Built from eval/corpus/*.txt by eval/src/labelled/build-corpus.ts.',
  test: 'FROZEN test split of the independent corpus (issue 28): written 2026-11-27 by an author who had not read the matcher; about 40 % of the turns, stratified by kind (seed 20261127). Never to be edited or looked at case by case — only scored: pnpm eval labelled prints its figures apart and lists none of its turns. Built from eval/corpus/*.txt by eval/src/labelled/build-corpus.ts; a test checks the two stay identical.',
} as const;

/** The two suite files of the corpus, as they are written to eval/suites/labelled/. */
export function corpusSuites(source: CorpusSource): { dev: LabelledSuiteFileInput; test: LabelledSuiteFileInput } {
  const { dev, test } = splitTurns(source.turns, { seed: corpusSeed, testShare: corpusTestShare });
  const suite = (split: LabelledSplit, turns: LabelledTurn[]): LabelledSuiteFileInput => ({
    format: 'labelled',
    name: `corpus-${split}`,
    split,
    description: corpusDescriptions[split],
    sets: setsOf(source, turns),
    // An empty context is the schema's default: left out to keep the files short.
    turns: turns.map(({ context, ...turn }) => (context.length > 0 ? { ...turn, context } : turn)),
  });
  return { dev: suite('dev', dev), test: suite('test', test) };
}

/** A suite file's text as written: JSON with a one-space indent, like the other labelled suites. */
export function serializeSuite(suite: LabelledSuiteFileInput): string {
  return `${JSON.stringify(suite, null, 1)}\n`;
}
