/**
 * The server side of the provider registry: how to build each provider that
 * shared/src/providers.ts names. `Record<ProviderName, …>` makes a name without a factory
 * (or a factory without a name) a type error. Adding a model provider: a transport folder
 * under `transports/` exporting a factory, and one line here (see ARCHITECTURE.md).
 */
import type { ProviderName } from '@tutorloop/shared';
import type { Config } from '../config';
import { createOfflineProvider } from '../core/offline/offline-provider';
import type { Logger } from '../core/ports';
import type { TutorProvider } from '../core/provider';
import type { LlmCallRecorder } from './llm-client';
import { createAnthropicModelProvider } from './transports/anthropic';
import { createOpenAiModelProvider } from './transports/openai';

/** What a factory may use to build its provider. */
export interface ProviderContext {
  config: Config;
  logger: Logger;
  /** Receives one record per model request (each becomes an `llm_calls` row). */
  recordCall: LlmCallRecorder;
}

export type ProviderFactory = (context: ProviderContext) => TutorProvider;

export const providerFactories: Record<ProviderName, ProviderFactory> = {
  anthropic: createAnthropicModelProvider,
  openai: createOpenAiModelProvider,
  // A short pause between chunks keeps the offline tutor's streaming visible, as a model's would be.
  offline: () => createOfflineProvider({ chunkDelayMs: 25 }),
};
