/**
 * The server side of the provider registry: how to build each provider that
 * shared/src/providers.ts names. `Record<ProviderName, …>` makes a name without a factory
 * (or a factory without a name) a type error. Adding a model provider: a transport folder
 * under `transports/` exporting a factory, and one line here (see ARCHITECTURE.md).
 *
 * Each factory imports its provider's code when it is called, never at start-up (issue 27):
 * a server loads only the provider it was configured with — not the other vendor's SDK (a few
 * MB of heap each), and with a model configured not the offline tutor's WordNet data. The
 * compiled server keeps each of these imports in a chunk of its own (scripts/build-server.mjs).
 */
import type { ProviderName } from '@tutorloop/shared';
import type { Config } from '../config';
import type { Logger } from '../core/ports';
import type { TutorProvider } from '../core/provider';
import type { LlmCallRecorder } from './llm-client';

/** What a factory may use to build its provider. */
export interface ProviderContext {
  config: Config;
  logger: Logger;
  /** Receives one record per model request (each becomes an `llm_calls` row). */
  recordCall: LlmCallRecorder;
}

export type ProviderFactory = (context: ProviderContext) => Promise<TutorProvider>;

export const providerFactories: Record<ProviderName, ProviderFactory> = {
  anthropic: async (context) => (await import('./transports/anthropic')).createAnthropicModelProvider(context),
  openai: async (context) => (await import('./transports/openai')).createOpenAiModelProvider(context),
  // A short pause between chunks keeps the offline tutor's streaming visible, as a model's would be.
  offline: async () => (await import('../core/offline/offline-provider')).createOfflineProvider({ chunkDelayMs: 25 }),
};
