import { z } from 'zod';

/**
 * The tutor + evaluator providers a server can run (SPEC §7): the one list every package
 * reads — the server's configuration and provider registry, `GET /api/health`, the web
 * header's offline badge, the evaluation CLI. Adding a provider starts here.
 */
export const providerNames = ['anthropic', 'openai', 'offline'] as const;
/** A provider's name, as `LLM_PROVIDER` takes it and `/api/health` reports it. */
export type ProviderName = (typeof providerNames)[number];
/** Validates a provider name. */
export const ProviderName = z.enum(providerNames);

/** How people see each provider named (the server's start line, say). */
export const providerLabels = {
  anthropic: 'Anthropic',
  openai: 'OpenAI-compatible',
  offline: 'Offline',
} as const satisfies Record<ProviderName, string>;

/**
 * What `LLM_PROVIDER` accepts: a provider name, or `auto` (the server picks one from the
 * keys it finds; see server/src/config.ts).
 */
export const providerSettings = ['auto', ...providerNames] as const;
/** A value of `LLM_PROVIDER`. */
export type ProviderSetting = (typeof providerSettings)[number];
/** Validates a value of `LLM_PROVIDER`. */
export const ProviderSetting = z.enum(providerSettings);
