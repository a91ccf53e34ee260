/**
 * The model provider (SPEC §7): the TutorProvider port on top of any `LlmClient` — in
 * production the resilient client over a vendor transport. Nothing here knows the vendor.
 *
 * - evaluate: the evaluator model, non-streamed, forced `record_evaluation` tool call
 *   (`evaluator-request.ts`); returns the tool input — or the text, when the model wrote
 *   text — as it came. The engine normalises it (core/evaluation/parse-evaluation.ts).
 * - reply: the tutor model, streamed (`tutor-request.ts`); text is passed on as it arrives,
 *   each client tool call becomes a `widget` event once its input validates against the
 *   shared props schemas (an invalid one is logged and dropped, the text stays), each mode
 *   tool call a `mode` event. Which of them applies (one per reply) is the engine's call.
 * - checkSafety: the evaluator model with a forced `safety_verdict` call.
 * - models: the client and model names, for a session type that builds its own calls in its
 *   folder (`core/<type>/<type>-model.ts`); nothing in llm/ knows a session type.
 *
 * Failures propagate (as `LlmError`s): the engine turns a failed evaluation into an empty
 * result, a failed reply into an `error` event, a failed safety check into "safe".
 */
import type { ProviderName } from '@tutorloop/shared';
import { silentLogger, type Logger } from '../core/ports';
import type { EvaluationInput, RawEvaluation, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../core/provider';
import { buildEvaluatorRequest, evaluationToolName } from './evaluator-request';
import type { LlmClient, LlmResponse } from './llm-client';
import { buildSafetyRequest, readSafetyVerdict } from './safety-request';
import { buildTutorRequest } from './tutor-request';
import { modeFromToolCall, widgetFromToolCall } from './tutor-tools';

/** What the learner sees when the tutor model produced nothing displayable. */
export const emptyReplyFallback = 'Let’s keep going — tell me what else you remember.';

export interface ModelProviderOptions {
  /** The provider's name (`GET /api/health`, the start line): the vendor behind `client`. */
  name: ProviderName;
  client: LlmClient;
  /** The tutor's model (`TUTOR_MODEL`). */
  tutorModel: string;
  /** The evaluator's model (`EVALUATOR_MODEL`, a small fast one); also the safety gate's unless `safetyModel` is given. */
  evaluatorModel: string;
  safetyModel?: string;
  tutorMaxTokens?: number;
  tutorTemperature?: number;
  logger?: Logger;
}

/** The evaluator's raw answer: the forced tool's input, else the text (the engine's parser strips fences). */
function rawEvaluation(response: LlmResponse): RawEvaluation {
  const call = response.content.find((block) => block.type === 'tool_use' && block.name === evaluationToolName);
  if (call && call.type === 'tool_use') return call.input;
  return response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

export function createModelProvider(options: ModelProviderOptions): TutorProvider {
  const { client, tutorModel, evaluatorModel } = options;
  const safetyModel = options.safetyModel ?? evaluatorModel;
  const logger = options.logger ?? silentLogger;

  return {
    name: options.name,
    models: { client, tutorModel, evaluatorModel },

    async evaluate(input: EvaluationInput, signal: AbortSignal): Promise<RawEvaluation> {
      // The forced tool lists the ids on offer: with none there is no valid request to make.
      if (input.points.length === 0) return { recalledPoints: [], feedback: '' };
      const response = await client.complete(buildEvaluatorRequest(input, evaluatorModel, input.sessionId || undefined), signal);
      const raw = rawEvaluation(response);
      if (typeof raw === 'string') logger.warn({ stopReason: response.stopReason, length: raw.length }, 'evaluator answered with text instead of the tool');
      return raw;
    },

    async *reply(input: TutorInput, signal: AbortSignal): AsyncGenerator<TutorEvent> {
      const request = buildTutorRequest(input, {
        model: tutorModel,
        ...(options.tutorMaxTokens !== undefined ? { maxTokens: options.tutorMaxTokens } : {}),
        ...(options.tutorTemperature !== undefined ? { temperature: options.tutorTemperature } : {}),
        ...(input.sessionId ? { sessionId: input.sessionId } : {}),
      });
      let shown = false;
      let stopReason: string | null = null;
      for await (const event of client.stream(request, signal)) {
        switch (event.type) {
          case 'text_delta':
            shown = true;
            yield { type: 'text_delta', text: event.text };
            break;
          case 'tool_use': {
            const mode = modeFromToolCall(event.name, event.input);
            if (mode) {
              if (!mode.ok) {
                logger.warn({ tool: event.name, toolCallId: event.id, error: mode.error }, 'tutor mode change rejected');
              } else {
                shown = true;
                yield { type: 'mode', toolCallId: event.id, change: mode.change };
              }
              break;
            }
            const checked = widgetFromToolCall(event.name, event.input);
            if (!checked.ok) {
              logger.warn({ tool: event.name, toolCallId: event.id, error: checked.error }, 'tutor tool call rejected; widget skipped');
            } else {
              shown = true;
              yield { type: 'widget', toolCallId: event.id, widget: checked.widget };
            }
            break;
          }
          case 'done':
            stopReason = event.stopReason;
            if (event.stopReason === 'max_tokens') logger.warn({ usage: event.usage }, 'tutor reply cut off at max tokens');
            break;
          default: {
            const unreachable: never = event;
            throw new Error(`unknown stream event ${JSON.stringify(unreachable)}`);
          }
        }
      }
      // A reply with nothing to show (a refusal, or only a rejected widget) would be an empty bubble.
      if (!shown) {
        logger.warn({ stopReason }, 'tutor reply was empty; sent the fallback line');
        yield { type: 'text_delta', text: emptyReplyFallback };
      }
    },

    async checkSafety(message: string, signal: AbortSignal): Promise<SafetyVerdict> {
      return readSafetyVerdict(await client.complete(buildSafetyRequest(message, safetyModel), signal));
    },
  };
}
