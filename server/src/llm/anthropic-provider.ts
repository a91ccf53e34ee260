/**
 * The `anthropic` provider (SPEC §7): the TutorProvider port on top of an `LlmClient`
 * (in production the Anthropic adapter, `anthropic-client.ts`).
 *
 * - evaluate: the evaluator model, non-streamed, forced `record_evaluation` tool call
 *   (`evaluator-request.ts`); the tool input — or the text, when the model wrote text —
 *   goes through the defensive parser, so what it returns is already clean.
 * - reply: the tutor model, streamed (`tutor-request.ts`); text is passed on as it arrives,
 *   a client tool call becomes a `widget` event once its input validates against the shared
 *   props schemas (an invalid one is logged and dropped, the text stays).
 * - checkSafety: the evaluator model with a forced `safety_verdict` call; a failed check
 *   counts as safe (SPEC: the safety gate must not take the tutor down with it).
 *
 * Failures of evaluate and reply propagate (as `LlmError`s): the engine turns them into an
 * empty evaluation and an `error` event.
 */
import { normalizeEvaluation } from '../core/evaluation/parse-evaluation';
import { silentLogger, type Logger } from '../core/ports';
import type { EvaluationInput, EvaluationResult, SafetyVerdict, TutorEvent, TutorInput, TutorProvider } from '../core/provider';
import { buildEvaluatorRequest, evaluationToolName } from './evaluator-request';
import type { LlmClient, LlmResponse } from './llm-client';
import { buildSafetyRequest, readSafetyVerdict } from './safety-request';
import { buildTutorRequest } from './tutor-request';
import { modeFromToolCall, widgetFromToolCall } from './tutor-tools';

/** What the learner sees when the tutor model produced nothing displayable. */
export const emptyReplyFallback = 'Let’s keep going — tell me what else you remember.';

export interface AnthropicProviderOptions {
  client: LlmClient;
  /** The tutor's model (`TUTOR_MODEL`). */
  tutorModel: string;
  /** The evaluator's model (`EVALUATOR_MODEL`, a Haiku); also the safety gate's unless `safetyModel` is given. */
  evaluatorModel: string;
  safetyModel?: string;
  tutorMaxTokens?: number;
  tutorTemperature?: number;
  logger?: Logger;
}

/**
 * The session id for `llm_calls`, when the engine's input carries one. The port's inputs
 * have no such field yet; once `sessionId?: string` is added to them, calls are attributed.
 */
function sessionIdOf(input: object): string | undefined {
  const value = (input as { sessionId?: unknown }).sessionId;
  return typeof value === 'string' && value ? value : undefined;
}

/** The evaluator's raw answer: the forced tool's input, else the text (the parser strips fences). */
function rawEvaluation(response: LlmResponse): unknown {
  const call = response.content.find((block) => block.type === 'tool_use' && block.name === evaluationToolName);
  if (call && call.type === 'tool_use') return call.input;
  return response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

export function createAnthropicProvider(options: AnthropicProviderOptions): TutorProvider {
  const { client, tutorModel, evaluatorModel } = options;
  const safetyModel = options.safetyModel ?? evaluatorModel;
  const logger = options.logger ?? silentLogger;

  return {
    name: 'anthropic',

    async evaluate(input: EvaluationInput, signal: AbortSignal): Promise<EvaluationResult> {
      if (input.points.length === 0) return { recalledPoints: [], feedback: '' };
      const response = await client.complete(buildEvaluatorRequest(input, evaluatorModel, sessionIdOf(input)), signal);
      const raw = rawEvaluation(response);
      const result = normalizeEvaluation(raw, new Set(input.points.map((point) => point.id)));
      if (typeof raw === 'string') logger.warn({ stopReason: response.stopReason, parsed: result.recalledPoints.length }, 'evaluator answered with text instead of the tool');
      return result;
    },

    async *reply(input: TutorInput, signal: AbortSignal): AsyncGenerator<TutorEvent> {
      const sessionId = sessionIdOf(input);
      const request = buildTutorRequest(input, {
        model: tutorModel,
        ...(options.tutorMaxTokens !== undefined ? { maxTokens: options.tutorMaxTokens } : {}),
        ...(options.tutorTemperature !== undefined ? { temperature: options.tutorTemperature } : {}),
        ...(sessionId ? { sessionId } : {}),
      });
      let widgetSent = false;
      let textSent = false;
      let stopReason: string | null = null;
      for await (const event of client.stream(request, signal)) {
        switch (event.type) {
          case 'text_delta':
            textSent = true;
            yield { type: 'text_delta', text: event.text };
            break;
          case 'tool_use': {
            const mode = modeFromToolCall(event.name, event.input);
            if (mode) {
              if (!mode.ok) logger.warn({ tool: event.name, toolCallId: event.id, error: mode.error }, 'tutor mode change rejected');
              else if (widgetSent) logger.warn({ tool: event.name, toolCallId: event.id }, 'mode change after a widget skipped');
              else {
                widgetSent = true;
                yield { type: 'mode', toolCallId: event.id, change: mode.change };
              }
              break;
            }
            const checked = widgetFromToolCall(event.name, event.input);
            if (!checked.ok) {
              logger.warn({ tool: event.name, toolCallId: event.id, error: checked.error }, 'tutor tool call rejected; widget skipped');
            } else if (widgetSent) {
              logger.warn({ tool: event.name, toolCallId: event.id }, 'second widget in one reply skipped');
            } else {
              widgetSent = true;
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
      if (!textSent && !widgetSent) {
        logger.warn({ stopReason }, 'tutor reply was empty; sent the fallback line');
        yield { type: 'text_delta', text: emptyReplyFallback };
      }
    },

    async checkSafety(message: string, signal: AbortSignal): Promise<SafetyVerdict> {
      try {
        return readSafetyVerdict(await client.complete(buildSafetyRequest(message, safetyModel), signal));
      } catch (error) {
        if (signal.aborted) throw error;
        logger.warn({ err: error }, 'safety check failed; treating the message as safe');
        return { safe: true };
      }
    },
  };
}
