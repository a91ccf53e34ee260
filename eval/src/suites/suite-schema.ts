/**
 * The suite file format (eval/README.md §"Suite files"): a session to open (a recall set,
 * an imported text or an assessment blueprint), learners that drive it, and what must be
 * seen per turn and per session. Every object is strict, so a misspelt key is an error
 * that names the file and the field instead of an expectation silently not checked.
 */
import { StudyPlanContent, WidgetKindSchema } from '@tutorloop/shared';
import { z } from 'zod';

/** Widget kinds of SPEC §4.2, from the shared widget registry. */
export const WidgetKindName = WidgetKindSchema;
export type WidgetKindName = z.infer<typeof WidgetKindName>;

const ruleCondition = {
  /** The rule applies only when the widget's prompt contains this text (case-insensitive). */
  whenPromptIncludes: z.string().min(1).optional(),
  /**
   * The rule applies only when the prompt states this text, or a masked form of it (a cloze
   * such as "P____ is the capital of F_____": a learner recognises the point being cued).
   */
  whenPromptMasks: z.string().min(1).optional(),
};

/**
 * How to answer one widget. `first`, `index` and `match` answer multiple choice; `text`
 * answers free text; `code` answers a code editor; `skip` chats instead of answering.
 */
export const WidgetRule = z.discriminatedUnion('answer', [
  z.strictObject({ answer: z.literal('first'), ...ruleCondition }),
  z.strictObject({ answer: z.literal('index'), index: z.number().int().min(0), ...ruleCondition }),
  z.strictObject({ answer: z.literal('match'), text: z.string().min(1), ...ruleCondition }),
  z.strictObject({ answer: z.literal('text'), text: z.string().min(1), ...ruleCondition }),
  z.strictObject({
    answer: z.literal('code'),
    code: z.string().min(1),
    language: z.enum(['python', 'javascript']).optional(),
    ...ruleCondition,
  }),
  z.strictObject({ answer: z.literal('skip'), say: z.string().min(1), ...ruleCondition }),
]);
export type WidgetRule = z.infer<typeof WidgetRule>;

/** A check question of a study plan: its step (1-based) and its index among the step's questions (0-based). */
export const PlanQuestionRef = z.strictObject({
  step: z.number().int().min(1),
  question: z.number().int().min(0).default(0),
});
export type PlanQuestionRef = z.infer<typeof PlanQuestionRef>;

/** Session expectations of learning sessions (SPEC §4.4; eval/README.md §"Learning sessions"). */
const LearningExpectationFields = {
  /** `state.learning.step` never goes backwards and reaches the plan's last step. */
  stepsInOrder: z.boolean().optional(),
  /** `session_complete` with reason `plan_completed`; its summary covers every step and lists every concept. */
  completesPlan: z.boolean().optional(),
  /** A wrong answer walks this question probe → hint → explain (agent logs); the explanation gives the answer, no reply on its step before does. */
  questionLifecycle: PlanQuestionRef.optional(),
  /** Each off-topic message the learner sent got a redirect (intent `off_topic`), the step unchanged. */
  offTopicHandled: z.boolean().optional(),
  /** No message the learner sent as anything but off-topic was taken as off-topic (intent `off_topic` or a redirect). */
  noFalseOffTopic: z.boolean().optional(),
  /** The session ended within this many learner turns (e.g. twice what an ideal learner needs). */
  turnsAtMost: z.number().int().min(1).optional(),
  /** Each unsafe message got the safety gate's redirect: refused, no master tutor call that turn, the step unchanged. */
  unsafeHandled: z.boolean().optional(),
  /** Each message sent after the plan completed got a post-completion reply, and nothing advanced. */
  postCompletionReply: z.boolean().optional(),
  /** The mean words of this case's tutor replies are fewer than those of the named case of the same suite. */
  repliesShorterThan: z.string().trim().min(1).optional(),
};

/**
 * How a plan-following learner behaves (learning sessions). Every one follows the plan and
 * answers right, reading expected answers from `GET /api/study-plans/{id}`; each adds one thing.
 */
export const LearningBehaviour = z.enum(['always_right', 'wrong_three_times', 'off_topic', 'unsafe', 'quiet', 'expressive', 'natural']);
export type LearningBehaviour = z.infer<typeof LearningBehaviour>;

export const LearningLearnerSpec = z
  .strictObject({
    type: z.literal('learning'),
    behaviour: LearningBehaviour,
    /** `wrong_three_times`: the question answered wrong three times (default: the plan's first check question). */
    question: PlanQuestionRef.optional(),
    /** `off_topic`, `unsafe`: the step at which the message is sent (default: the middle of the plan). */
    atStep: z.number().int().min(1).optional(),
    /** `off_topic`, `unsafe`: the message (default: a built-in one). */
    message: z.string().trim().min(1).optional(),
    /** Said once after the plan completed (its post-completion reply is recorded). */
    afterCompletion: z.string().trim().min(1).optional(),
    maxTurns: z.number().int().min(1).max(200).default(80),
  })
  .superRefine((spec, context) => {
    if (spec.question && spec.behaviour !== 'wrong_three_times') {
      context.addIssue({ code: 'custom', path: ['question'], message: 'only the wrong_three_times behaviour answers a question wrong' });
    }
    for (const key of ['atStep', 'message'] as const) {
      if (spec[key] !== undefined && spec.behaviour !== 'off_topic' && spec.behaviour !== 'unsafe') {
        context.addIssue({ code: 'custom', path: [key], message: 'only the off_topic and unsafe behaviours send a message of their own' });
      }
    }
  });
export type LearningLearnerSpec = z.infer<typeof LearningLearnerSpec>;

/** What must hold right after one learner turn. */
export const TurnExpectation = z.strictObject({
  /** `state_update.state.recalledCount` after the turn is at least this. */
  recalledAtLeast: z.number().int().min(0).optional(),
  /** `state_update.state.recalledCount` after the turn is exactly this. */
  recalledExactly: z.number().int().min(0).optional(),
  /** The widget the learner faces after the turn, or `none`. */
  widget: z.union([WidgetKindName, z.literal('none')]).optional(),
  /** The turn's tutor output leaks no internal language and no unrecalled point content. */
  noLeaks: z.boolean().optional(),
  /** Learning sessions: `state.learning.step` after the turn. */
  step: z.number().int().min(1).optional(),
});
export type TurnExpectation = z.infer<typeof TurnExpectation>;

/** What must hold over the whole session. */
export const SessionExpectation = z.strictObject({
  /** `session_complete` arrives by this learner turn (the learner never ended it). */
  completesWithinTurns: z.number().int().min(1).optional(),
  /** Points recalled (items answered, for assessments) when the session ends. */
  finalRecalled: z.number().int().min(0).optional(),
  /** No tutor output of the session contains internal language (markers, point ids). */
  noLeakedInternalLanguage: z.boolean().optional(),
  /** No tutor output contains a not-yet-recalled point's content verbatim. */
  answersNeverRevealed: z.boolean().optional(),
  /** Each of these widget kinds is presented at least once. */
  widgetsPresented: z.array(WidgetKindName).min(1).optional(),
  ...LearningExpectationFields,
});
export type SessionExpectation = z.infer<typeof SessionExpectation>;

/** One scripted turn: a chat message (`say`) or a widget answer (`widget`). */
export const ScriptedTurn = z
  .strictObject({
    say: z.string().trim().min(1).optional(),
    widget: WidgetRule.optional(),
    expect: TurnExpectation.optional(),
  })
  .refine((turn) => (turn.say === undefined) !== (turn.widget === undefined), {
    message: 'a turn needs exactly one of "say" (a chat message) or "widget" (a widget answer rule)',
  });
export type ScriptedTurn = z.infer<typeof ScriptedTurn>;

const maxTurns = z.number().int().min(1).max(200);

export const LearnerSpec = z.discriminatedUnion('type', [
  /** Plays the listed turns, in order. */
  z.strictObject({ type: z.literal('scripted'), turns: z.array(ScriptedTurn).min(1) }),
  /**
   * Answers any pending widget with the first applicable rule; otherwise says the next
   * message of `say` (the last one again once they run out). Stops at `maxTurns`.
   */
  z.strictObject({
    type: z.literal('policy'),
    say: z.array(z.string().trim().min(1)).min(1),
    widgets: z.array(WidgetRule).min(1),
    maxTurns,
  }),
  /** An LLM plays a learner with this persona (needs ANTHROPIC_API_KEY; otherwise not run). */
  z.strictObject({
    type: z.literal('simulated'),
    persona: z.string().trim().min(1),
    maxTurns,
    model: z.string().min(1).optional(),
    /** Widgets are answered by these rules when one applies, else by the model. */
    widgets: z.array(WidgetRule).optional(),
  }),
  /** Follows a study plan (learning sessions only), answering right except where its behaviour says. */
  LearningLearnerSpec,
]);
export type LearnerSpec = z.infer<typeof LearnerSpec>;

const PointInput = z.strictObject({ content: z.string().trim().min(1), context: z.string().trim().min(1).optional() });

/** The session a case opens: `POST /api/sessions` after creating what it needs. */
export const SessionSubject = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('recall'),
      /** Created with `POST /api/recall-sets`. */
      recallSet: z
        .strictObject({ name: z.string().trim().min(1), description: z.string().optional(), points: z.array(PointInput).min(1) })
        .optional(),
      /** Created with `POST /api/recall-sets/import`. */
      import: z
        .strictObject({ format: z.enum(['markdown', 'csv']), text: z.string().min(1), name: z.string().trim().min(1).optional() })
        .optional(),
    })
    .refine((subject) => (subject.recallSet === undefined) !== (subject.import === undefined), {
      message: 'a recall session needs exactly one of "recallSet" or "import"',
    }),
  z.strictObject({ type: z.literal('assessment'), blueprintId: z.string().min(1) }),
  z
    .strictObject({
      type: z.literal('learning'),
      /** A plan the server has (`GET /api/study-plans` lists it), e.g. a built-in one. */
      studyPlanId: z.string().min(1).optional(),
      /** A plan written here, created with `POST /api/study-plans` for the case. */
      plan: StudyPlanContent.optional(),
    })
    .refine((subject) => (subject.studyPlanId === undefined) !== (subject.plan === undefined), {
      message: 'a learning session needs exactly one of "studyPlanId" or "plan"',
    }),
]);
export type SessionSubject = z.infer<typeof SessionSubject>;

export const CaseSpec = z.strictObject({
  name: z.string().trim().min(1),
  description: z.string().optional(),
  /** Overrides the suite's session for this case. */
  session: SessionSubject.optional(),
  learner: LearnerSpec,
  expect: SessionExpectation.optional(),
});
export type CaseSpec = z.infer<typeof CaseSpec>;

export const SuiteFile = z
  .strictObject({
    /** Ignored: lets editors point at a JSON schema. */
    $schema: z.string().optional(),
    /** Defaults to the file name without `.json`. */
    name: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    /** The session every case opens, unless a case names its own. */
    session: SessionSubject.optional(),
    cases: z.array(CaseSpec).min(1),
  })
  .superRefine((suite, context) => {
    const seen = new Set<string>();
    suite.cases.forEach((testCase, index) => {
      if (!suite.session && !testCase.session) {
        context.addIssue({ code: 'custom', path: ['cases', index, 'session'], message: 'no session: give the suite or this case a "session"' });
      }
      const session = testCase.session ?? suite.session;
      if (testCase.learner.type === 'learning' && session && session.type !== 'learning') {
        context.addIssue({ code: 'custom', path: ['cases', index, 'learner', 'type'], message: `a learning learner follows a study plan: it needs a learning session, not ${session.type}` });
      }
      const other = testCase.expect?.repliesShorterThan;
      if (other !== undefined && (other === testCase.name || !suite.cases.some((candidate) => candidate.name === other))) {
        context.addIssue({ code: 'custom', path: ['cases', index, 'expect', 'repliesShorterThan'], message: other === testCase.name ? 'must name another case of this suite, not this one' : `must name another case of this suite (there is no case "${other}")` });
      }
      if (seen.has(testCase.name)) {
        context.addIssue({ code: 'custom', path: ['cases', index, 'name'], message: `duplicate case name "${testCase.name}"` });
      }
      seen.add(testCase.name);
    });
  });
export type SuiteFile = z.infer<typeof SuiteFile>;

/** A validated suite with its cases resolved (each case has its session). */
export interface Suite {
  name: string;
  description?: string;
  /** Path as given (relative to the working directory when possible). */
  file: string;
  cases: Array<CaseSpec & { session: SessionSubject }>;
}
