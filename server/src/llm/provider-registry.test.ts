import { providerNames } from '@tutorloop/shared';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { silentLogger } from '../core/ports';
import { providerFactories } from './provider-registry';

describe('the provider registry', () => {
  it('builds, for every name of shared/src/providers.ts, a provider that reports that name', async () => {
    expect(Object.keys(providerFactories).sort()).toEqual([...providerNames].sort());
    for (const name of providerNames) {
      const config = parseConfig({ LLM_PROVIDER: name, ANTHROPIC_API_KEY: 'test-key', OPENAI_API_KEY: 'test-key' });
      if (!config.ok) throw new Error(config.error);
      expect(config.value.provider).toBe(name);
      expect((await providerFactories[name]({ config: config.value, logger: silentLogger, recordCall: () => {} })).name).toBe(name);
    }
  });
});
