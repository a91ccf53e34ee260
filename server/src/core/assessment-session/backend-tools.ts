/**
 * Backend tools (SPEC §4.2): `get_next_item`, `evaluate_response`, `complete_session`, behind
 * one registry. The engine calls them (in assessments the backend alone decides what comes
 * next; the model cannot skip, reorder or reword items). Each tool returns its full result
 * to the engine and, separately, what a model may see of it — filtered by what the session
 * type allows (SPEC §4.3: in an assessment, never a correct answer, a test or a score before
 * the end). Anything a model is ever given goes through `forModel`.
 */
import type { SessionType } from '@tutorloop/shared';
import type { GeneratedItem, TestOutcomeRecord } from '../assessment';

export interface BackendToolContext {
  sessionId: string;
  sessionType: SessionType;
}

export interface BackendTool<Input, Result> {
  name: string;
  description: string;
  run(context: BackendToolContext, input: Input): Promise<Result>;
  /** What a model may see of `result` in a session of this type. */
  forModel(result: Result, sessionType: SessionType): Record<string, unknown>;
}

export interface ToolOutcome<Result> {
  result: Result;
  /** The filtered view; the only form in which a result may reach a model. */
  forModel: Record<string, unknown>;
}

/** The item as a learner sees it: what every session type may show a model too. */
export function publicItem(item: GeneratedItem, position: number, totalItems: number): Record<string, unknown> {
  return {
    position,
    totalItems,
    section: item.sectionId,
    domain: item.domain,
    kind: item.kind,
    stem: item.stem,
    ...(item.options ? { options: [...item.options] } : {}),
    ...(item.code ? { language: item.code.language, functionName: item.code.functionName, starterCode: item.code.starterCode } : {}),
  };
}

/** Session types whose model may learn correctness as it happens (tutoring, not testing). */
const correctnessVisible: ReadonlySet<SessionType> = new Set(['learning']);

export interface NextItemResult {
  item: GeneratedItem | null;
  position: number;
  totalItems: number;
}

export interface EvaluateInput {
  item: GeneratedItem;
  answerText: string;
  selectedIndex?: number;
  code?: string;
  /** The learner whose answer it is: code runs queue per learner in the sandbox. */
  owner?: string;
  /** Cancels a code run (the session ended meanwhile). */
  signal?: AbortSignal;
}

export interface EvaluateResult {
  credit: number;
  testsPassed: number | null;
  testsTotal: number | null;
  note: string | null;
  /** Code: each test's outcome (kept for the results; never given to a model). */
  outcomes?: TestOutcomeRecord[];
}

export interface CompleteResult {
  reason: string;
  answered: number;
  totalItems: number;
  score: number;
}

export interface BackendToolHandlers {
  nextItem(context: BackendToolContext): Promise<NextItemResult>;
  evaluate(context: BackendToolContext, input: EvaluateInput): Promise<EvaluateResult>;
  complete(context: BackendToolContext, reason: string): Promise<CompleteResult>;
}

export const backendToolNames = {
  nextItem: 'get_next_item',
  evaluate: 'evaluate_response',
  complete: 'complete_session',
} as const;

/** The registry: the three tools bound to a session type's handlers. */
export class BackendToolRegistry {
  readonly nextItem: BackendTool<void, NextItemResult>;
  readonly evaluate: BackendTool<EvaluateInput, EvaluateResult>;
  readonly complete: BackendTool<string, CompleteResult>;

  constructor(handlers: BackendToolHandlers) {
    this.nextItem = {
      name: backendToolNames.nextItem,
      description: 'The next item of the session, chosen by the backend.',
      run: (context) => handlers.nextItem(context),
      forModel: (result) => (result.item ? { item: publicItem(result.item, result.position, result.totalItems) } : { item: null, done: true }),
    };
    this.evaluate = {
      name: backendToolNames.evaluate,
      description: 'Scores the learner’s answer to the current item.',
      run: (context, input) => handlers.evaluate(context, input),
      forModel: (result, sessionType) =>
        correctnessVisible.has(sessionType) ? { credit: result.credit, testsPassed: result.testsPassed, testsTotal: result.testsTotal } : { recorded: true },
    };
    this.complete = {
      name: backendToolNames.complete,
      description: 'Ends the session and computes its results.',
      run: (context, reason) => handlers.complete(context, reason),
      // Once the session is over the learner sees the results; a model may too.
      forModel: (result) => ({ ...result }),
    };
  }

  /** The tools' names, in registry order. */
  get names(): string[] {
    return [this.nextItem.name, this.evaluate.name, this.complete.name];
  }

  /** Runs a tool and returns its result with the filtered view. */
  async call<Input, Result>(tool: BackendTool<Input, Result>, context: BackendToolContext, input: Input): Promise<ToolOutcome<Result>> {
    const result = await tool.run(context, input);
    return { result, forModel: tool.forModel(result, context.sessionType) };
  }
}
