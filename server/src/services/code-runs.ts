/**
 * "Run examples" (issue 25 item 2): the learner's code on a pending code item's visible
 * examples, in the sandbox, charged to the learner — a token bucket of `CODE_RUN_RATE_LIMIT`
 * runs a minute, then the sandbox's own per-learner queue (a learner with runs still queued or
 * running gets `busy`, answered 429). Nothing is stored: the item stays pending, no response,
 * no message. The rules are in core/assessment-session/run-examples.ts.
 */
import type { RunExamplesBody, RunExamplesResponse } from '@tutorloop/shared';
import { examplesResponse, examplesToRun, type ExamplesRunResult } from '../core/assessment-session/run-examples';
import { retryHint, TokenBuckets, type RateBudget } from '../core/limits/learner-limits';
import type { Clock } from '../core/ports';
import type { Storage } from '../core/storage/storage';
import { AppError } from './app-error';

/** Runs code in the sandbox (the sandbox implements it). */
export interface ExamplesRunner {
  run(request: {
    language: 'python' | 'javascript';
    code: string;
    functionName: string;
    tests: Array<{ args: unknown[]; expected: unknown }>;
    owner?: string;
  }): Promise<ExamplesRunResult>;
}

/** How soon to try again when the learner's previous run still holds its place in the sandbox. */
const busyRetryMs = 1000;

export class CodeRunService {
  private readonly buckets: TokenBuckets;

  constructor(
    private readonly deps: { storage: Storage; runner: ExamplesRunner; clock: Clock; budget: RateBudget },
  ) {
    this.buckets = new TokenBuckets(deps.budget, deps.clock);
  }

  async runExamples(learnerId: string, sessionId: string, widgetId: string, body: RunExamplesBody): Promise<RunExamplesResponse> {
    const { storage, runner, clock } = this.deps;
    const decision = await storage.read(async (reader) => {
      const session = await reader.sessions.get(sessionId);
      // Another learner's session is read no further than its owner.
      const mine = session !== null && session.learnerId === learnerId;
      return examplesToRun({
        session,
        learnerId,
        items: mine ? await reader.assessments.listItems(sessionId) : [],
        pending: mine ? await reader.pendingActions.getPending(sessionId) : null,
        widgetId,
        language: body.language,
        now: clock.now(),
      });
    });
    if (!decision.ok) throw new AppError(decision.error.code, decision.error.message);
    const allowed = this.buckets.take(learnerId);
    if (!allowed.ok) {
      const { limit, windowMs } = this.deps.budget;
      throw new AppError('rate_limited', `Too many code runs: at most ${limit} per ${Math.round(windowMs / 1000)} s. ${retryHint(allowed.retryAfterMs)}`, allowed.retryAfterMs);
    }
    const run = decision.value;
    const result = await runner.run({
      language: run.language,
      code: body.code,
      functionName: run.functionName,
      tests: run.tests.map(({ args, expected }) => ({ args, expected })),
      owner: learnerId,
    });
    if (result.error?.kind === 'busy') {
      throw new AppError('rate_limited', `Your previous code runs are still going. ${retryHint(busyRetryMs)}`, busyRetryMs);
    }
    return examplesResponse(run, result);
  }
}
