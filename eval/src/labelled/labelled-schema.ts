/**
 * Labelled-turn suites (eval/README.md §"Labelled turns"): measure the evaluator's accuracy.
 * A suite holds recall sets and turns; each turn names its set, the learner turns played
 * before it (`context`), the labelled learner message (a chat message or a widget answer),
 * and which of the set's points that message shows. Every object is strict.
 */
import { z } from 'zod';
import { WidgetRule } from '../suites/suite-schema';

/**
 * The kinds of labelled turns a report breaks its figures down by. `partial` is the older,
 * undivided kind; `partial_core` (the core idea without a detail: shown) and
 * `partial_missing` (a fragment or a topic word: not shown) split it, and `hedged` is a
 * right answer said unsurely (issue 28).
 */
export const LabelledKinds = ['exact', 'paraphrase', 'partial', 'partial_core', 'partial_missing', 'near_miss', 'contradiction', 'hedged', 'off_topic', 'multi', 'question', 'widget'] as const;
export const LabelledKind = z.enum(LabelledKinds);
export type LabelledKind = z.infer<typeof LabelledKind>;

/**
 * Which part of a corpus a suite is: `dev` may be read and tuned on; `test` is frozen and
 * only scored — the report gives its figures apart and lists none of its turns.
 */
export const LabelledSplits = ['dev', 'test'] as const;
export const LabelledSplit = z.enum(LabelledSplits);
export type LabelledSplit = z.infer<typeof LabelledSplit>;

const PointKey = z.string().trim().min(1);

export const LabelledSet = z.strictObject({
  name: z.string().trim().min(1),
  /** A free label for the report ("biology"). */
  subject: z.string().trim().min(1),
  points: z.array(z.strictObject({ key: PointKey, content: z.string().trim().min(1), context: z.string().trim().min(1).optional() })).min(1),
});
export type LabelledSet = z.infer<typeof LabelledSet>;

/** A learner move: a chat message or a widget answer (same rules as scenario suites). */
export const LabelledMove = z
  .strictObject({ say: z.string().trim().min(1).optional(), widget: WidgetRule.optional() })
  .refine((move) => (move.say === undefined) !== (move.widget === undefined), { message: 'a move needs exactly one of "say" or "widget"' });
export type LabelledMove = z.infer<typeof LabelledMove>;

export const LabelledTurn = z.strictObject({
  id: z.string().trim().min(1),
  /** Key of a set in `sets`. */
  set: z.string().trim().min(1),
  kind: LabelledKind,
  /** Learner moves played before the labelled one (the tutor answers each as usual). */
  context: z.array(LabelledMove).default([]),
  message: LabelledMove,
  /** Keys of the set's points the message shows (recalls). */
  shows: z.array(PointKey),
  /** Keys of points the message contradicts (for the contradiction rate). */
  contradicts: z.array(PointKey).optional(),
  note: z.string().optional(),
});
export type LabelledTurn = z.infer<typeof LabelledTurn>;

export const LabelledSuiteFile = z
  .strictObject({
    $schema: z.string().optional(),
    format: z.literal('labelled'),
    name: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    split: LabelledSplit.optional(),
    sets: z.record(z.string(), LabelledSet),
    turns: z.array(LabelledTurn).min(1),
  })
  .superRefine((suite, context) => {
    const ids = new Set<string>();
    suite.turns.forEach((turn, index) => {
      if (ids.has(turn.id)) context.addIssue({ code: 'custom', path: ['turns', index, 'id'], message: `duplicate turn id "${turn.id}"` });
      ids.add(turn.id);
      const set = suite.sets[turn.set];
      if (!set) {
        context.addIssue({ code: 'custom', path: ['turns', index, 'set'], message: `no set "${turn.set}" in "sets"` });
        return;
      }
      const keys = new Set(set.points.map((point) => point.key));
      for (const [field, list] of [['shows', turn.shows], ['contradicts', turn.contradicts ?? []]] as const) {
        list.forEach((key, at) => {
          if (!keys.has(key)) context.addIssue({ code: 'custom', path: ['turns', index, field, at], message: `set "${turn.set}" has no point "${key}"` });
        });
      }
    });
  });
export type LabelledSuiteFile = z.infer<typeof LabelledSuiteFile>;

/** One labelled turn as played. */
export const LabelledOutcome = z.object({
  suite: z.string(),
  /** The suite's split; null for a suite that is not part of a dev/test corpus (and in results written before splits). */
  split: LabelledSplit.nullable().default(null),
  id: z.string(),
  kind: LabelledKind,
  subject: z.string(),
  message: z.string(),
  expected: z.array(z.string()),
  /** Point keys the server checked off in reply to the labelled message; null when it could not be played. */
  predicted: z.array(z.string()).nullable(),
  contradicts: z.array(z.string()),
  /** Points already recalled by the context moves (left out of the figures). */
  recalledInContext: z.array(z.string()),
  tutorReply: z.string(),
  /** The widget the tutor presented in reply, if any. */
  widgetAfter: z.string().nullable(),
  /** Why the turn could not be scored (a context widget that never came, an error). */
  error: z.string().nullable(),
  contents: z.record(z.string(), z.string()),
});
export type LabelledOutcome = z.infer<typeof LabelledOutcome>;

export const Scores = z.object({
  turns: z.number().int(),
  truePositives: z.number().int(),
  falsePositives: z.number().int(),
  falseNegatives: z.number().int(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  f1: z.number().nullable(),
  /** Turns whose predicted set equals the labelled one. */
  exactTurns: z.number().int(),
  /** Turns labelled as showing at least one point (not counting points recalled in context). Absent in older results. */
  turnsShowing: z.number().int().optional(),
  /** Turns where at least one point was counted that the labels do not show. Absent in older results. */
  turnsWithFalsePositive: z.number().int().optional(),
});
export type Scores = z.infer<typeof Scores>;

/**
 * The figures of one part of a run: a split (every suite with `split: "dev"`, or `"test"`)
 * or a suite that has no split — so a dev/test corpus is never blended with the rest.
 */
export const LabelledGroup = z.object({
  /** The split's name, or the suite's name when it has none. */
  name: z.string(),
  split: LabelledSplit.nullable(),
  suites: z.array(z.string()),
  overall: Scores,
  byKind: z.record(z.string(), Scores),
  contradictionRate: z.number().nullable(),
  questionsGraded: z.number().int(),
  notScored: z.number().int(),
});
export type LabelledGroup = z.infer<typeof LabelledGroup>;

export const LabelledRunResult = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('labelled'),
  metadata: z.object({
    label: z.string().nullable(),
    serverUrl: z.string(),
    tutor: z.string(),
    startedAt: z.string(),
    durationMs: z.number(),
    suites: z.array(z.string()),
  }),
  overall: Scores,
  byKind: z.record(z.string(), Scores),
  /** Contradiction turns where a contradicted point was counted as recalled, / contradiction turns. */
  contradictionRate: z.number().nullable(),
  /** Question turns whose reply changed the recalled count. */
  questionsGraded: z.number().int(),
  notScored: z.number().int(),
  /** The same figures per split and per suite without one (empty in results written before splits). */
  groups: z.array(LabelledGroup).default([]),
  outcomes: z.array(LabelledOutcome),
});
export type LabelledRunResult = z.infer<typeof LabelledRunResult>;
