/**
 * The `anthropic` provider (SPEC §7): the Anthropic transport inside the resilient client,
 * under the vendor-neutral model provider. `createAnthropicModelProvider` is its line in
 * the provider registry.
 */
import type { TutorProvider } from '../../../core/provider';
import type { LlmClient } from '../../llm-client';
import { createModelProvider } from '../../model-provider';
import type { ProviderContext } from '../../provider-registry';
import { createResilientClient, type ResilientClientOptions } from '../../resilient-client';
import { createAnthropicTransport, type AnthropicTransportOptions } from './anthropic-transport';

export { classifyAnthropicError, createAnthropicTransport, type AnthropicTransportOptions } from './anthropic-transport';
export { toMessageParams } from './anthropic-messages';

export type AnthropicClientOptions = AnthropicTransportOptions & Omit<ResilientClientOptions, 'transport'>;

/** The `LlmClient` for the Anthropic Messages API: its transport with retries, timeouts and recording. */
export function createAnthropicClient(options: AnthropicClientOptions): LlmClient {
  const { apiKey, baseURL, ...resilience } = options;
  const transport = createAnthropicTransport({ apiKey, ...(baseURL ? { baseURL } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  return createResilientClient({ transport, ...resilience });
}

/** Builds the `anthropic` provider from the configuration (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, the models). */
export function createAnthropicModelProvider({ config, logger, recordCall }: ProviderContext): TutorProvider {
  const client = createAnthropicClient({
    apiKey: config.anthropicApiKey ?? '',
    ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}),
    logger,
    recordCall,
  });
  return createModelProvider({ name: 'anthropic', client, tutorModel: config.tutorModel, evaluatorModel: config.evaluatorModel, safetyModel: config.safetyModel, logger });
}
