/**
 * Joins what the clients saw of each turn with what the fake provider recorded in the server
 * child, and splits the client-observed time into model time and server overhead.
 *
 *   observed      = `assistant` received − `chat` sent                       (client clock)
 *   model time    = the profile's schedule: max(evaluator, safety) (they run in parallel)
 *                   + the tutor's first token + the later chunks
 *   overhead      = observed − model time
 *   TTFT overhead = (first `assistant_delta` − `chat` sent) − (evaluation + first token)
 *
 * Model time is the schedule, not the fake's timers: a timer that fires late because the
 * server's event loop was busy is the server's delay (a real model's bytes would have been
 * waiting in the socket), so it counts as overhead. Timer granularity adds up to ~1 ms either
 * way. `overheadTimersAsModelMs` instead counts late timers as model time (the fake's own
 * elapsed time), for comparison.
 *
 * A first `assistant_delta` may wait for later chunks (the server's LeakGuard holds back the
 * last words until it knows they complete no leak): `ttftHoldBackMs` is the time from the
 * first chunk to the latest chunk due before the client got the first delta — meaningful on
 * an unloaded server only (under saturation every chunk is long due).
 */
import { replyChunks, type LatencyProfile, type TurnTiming } from './fake-tutor-provider';
import type { TurnObservation } from './load-client';
import { distribution, type Distribution } from './statistics';

export interface TurnBreakdown {
  overheadMs: Distribution;
  overheadTimersAsModelMs: Distribution;
  ttftOverheadMs: Distribution;
  ttftHoldBackMs: Distribution;
  /** Where the overhead goes (server phases; cross-process clocks aligned over IPC). */
  phasesMs: {
    /** `chat` sent → first model call: ws frame, parse, persist, queue, load checklist + conversation. */
    untilModelCalls: Distribution;
    /** evaluator + safety due → tutor called: late timers, checklist/FSRS transaction, tutor input. */
    betweenModelCalls: Distribution;
    /** tutor's last chunk due → stream handled (every delta broadcast). */
    streamTail: Distribution;
    /** stream handled → `assistant` received: sanitize, commit transaction, broadcast, client receive. */
    commitAndDeliver: Distribution;
  };
  matched: number;
  unmatched: number;
}

type CompleteTiming = { [Field in keyof TurnTiming]: NonNullable<TurnTiming[Field]> };

function isComplete(timing: TurnTiming | undefined): timing is CompleteTiming {
  return Boolean(timing && Object.values(timing).every((value) => value !== null) && timing.chunkAvailableAt.length === replyChunks.length);
}

export function analyseTurns(observations: readonly TurnObservation[], timings: readonly TurnTiming[], childClockOffsetMs: number, profile: LatencyProfile): TurnBreakdown {
  const byKey = new Map(timings.map((timing) => [timing.key, timing]));
  const toParent = (childTime: number) => childTime - childClockOffsetMs;
  const evaluationPhaseMs = Math.max(profile.evaluatorMs, profile.safetyMs);
  const tutorMs = profile.firstTokenMs + (replyChunks.length - 1) * profile.deltaIntervalMs;
  const samples = {
    overhead: [] as number[],
    timersAsModel: [] as number[],
    ttft: [] as number[],
    holdBack: [] as number[],
    untilModelCalls: [] as number[],
    betweenModelCalls: [] as number[],
    streamTail: [] as number[],
    commitAndDeliver: [] as number[],
  };
  let unmatched = 0;
  for (const observation of observations) {
    const timing = byKey.get(observation.key);
    if (!isComplete(timing)) {
      unmatched += 1;
      continue;
    }
    const observed = observation.assistantAt - observation.sentAt;
    samples.overhead.push(observed - evaluationPhaseMs - tutorMs);
    const measuredEvaluation = Math.max(timing.evaluationEndedAt - timing.evaluationStartedAt, timing.safetyEndedAt - timing.safetyStartedAt);
    samples.timersAsModel.push(observed - measuredEvaluation - (timing.lastChunkAvailableAt - timing.replyStartedAt));

    const chunkDue = (index: number) => timing.replyStartedAt + profile.firstTokenMs + index * profile.deltaIntervalMs;
    if (observation.firstDeltaAt !== null) {
      samples.ttft.push(observation.firstDeltaAt - observation.sentAt - evaluationPhaseMs - profile.firstTokenMs);
      const firstDeltaInChild = observation.firstDeltaAt + childClockOffsetMs;
      let releasing = 0;
      for (let index = 0; index < replyChunks.length; index += 1) if (Math.max(chunkDue(index), timing.chunkAvailableAt[index]!) <= firstDeltaInChild) releasing = index;
      samples.holdBack.push(releasing * profile.deltaIntervalMs);
    }
    const modelsCalledAt = Math.min(timing.evaluationStartedAt, timing.safetyStartedAt);
    const modelsDueAt = Math.max(timing.evaluationStartedAt + profile.evaluatorMs, timing.safetyStartedAt + profile.safetyMs);
    samples.untilModelCalls.push(toParent(modelsCalledAt) - observation.sentAt);
    // The two calls start a moment apart; that skew is server time too.
    samples.betweenModelCalls.push(timing.replyStartedAt - modelsDueAt + (modelsDueAt - modelsCalledAt - evaluationPhaseMs));
    samples.streamTail.push(timing.replyEndedAt - chunkDue(replyChunks.length - 1));
    samples.commitAndDeliver.push(observation.assistantAt - toParent(timing.replyEndedAt));
  }
  return {
    overheadMs: distribution(samples.overhead),
    overheadTimersAsModelMs: distribution(samples.timersAsModel),
    ttftOverheadMs: distribution(samples.ttft),
    ttftHoldBackMs: distribution(samples.holdBack),
    phasesMs: {
      untilModelCalls: distribution(samples.untilModelCalls),
      betweenModelCalls: distribution(samples.betweenModelCalls),
      streamTail: distribution(samples.streamTail),
      commitAndDeliver: distribution(samples.commitAndDeliver),
    },
    matched: samples.overhead.length,
    unmatched,
  };
}
