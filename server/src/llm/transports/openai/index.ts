/**
 * The `openai` provider (SPEC §7): the OpenAI-compatible transport inside the resilient
 * client, under the vendor-neutral model provider — OpenAI itself or any compatible server
 * (Ollama, vLLM, llama.cpp's server, LM Studio) through `OPENAI_BASE_URL`.
 * `createOpenAiModelProvider` is its line in the provider registry.
 */
import type { TutorProvider } from '../../../core/provider';
import type { LlmClient } from '../../llm-client';
import { createModelProvider } from '../../model-provider';
import type { ProviderContext } from '../../provider-registry';
import { createResilientClient, type ResilientClientOptions } from '../../resilient-client';
import { createOpenAiTransport, type OpenAiTransportOptions } from './openai-transport';

export { classifyOpenAiError, createOpenAiTransport, type OpenAiTransportOptions } from './openai-transport';
export { isStrictSchema, toChatParams } from './openai-chat';

export type OpenAiClientOptions = OpenAiTransportOptions & Omit<ResilientClientOptions, 'transport'>;

/** The `LlmClient` for a Chat Completions API: its transport with retries, timeouts and recording. */
export function createOpenAiClient(options: OpenAiClientOptions): LlmClient {
  const { apiKey, baseURL, ...resilience } = options;
  const transport = createOpenAiTransport({ apiKey, ...(baseURL ? { baseURL } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  return createResilientClient({ transport, ...resilience });
}

/** Builds the `openai` provider from the configuration (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, the models per role). */
export function createOpenAiModelProvider({ config, logger, recordCall }: ProviderContext): TutorProvider {
  const client = createOpenAiClient({
    apiKey: config.openaiApiKey ?? '',
    ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
    logger,
    recordCall,
  });
  return createModelProvider({
    name: 'openai',
    client,
    tutorModel: config.tutorModel,
    evaluatorModel: config.evaluatorModel,
    safetyModel: config.safetyModel,
    logger,
  });
}
