import { describe, expect, it } from 'vitest';
import { defaultModels, parseConfig } from './config';

describe('parseConfig', () => {
  it('has sensible defaults: loopback, port 3000, offline without a key', () => {
    const config = parseConfig({});
    expect(config.ok && config.value).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      provider: 'offline',
      tutorModel: defaultModels.tutor,
      evaluatorModel: defaultModels.evaluator,
      logLevel: 'info',
    });
  });

  it('picks anthropic automatically when a key is set', () => {
    const config = parseConfig({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' });
    expect(config.ok && config.value.provider).toBe('anthropic');
  });

  it('stops with one line naming the variable', () => {
    expect(parseConfig({ PORT: 'eighty' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: PORT .*"eighty"/) });
    expect(parseConfig({ LLM_PROVIDER: 'openai' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: LLM_PROVIDER /) });
    expect(parseConfig({ JWT_SECRET: 'short' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: JWT_SECRET must be at least 32 characters/) });
    expect(parseConfig({ ANTHROPIC_BASE_URL: 'not a url' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: ANTHROPIC_BASE_URL must be a URL/) });
    expect(parseConfig({ LLM_PROVIDER: 'anthropic' })).toEqual({
      ok: false,
      error: 'Invalid configuration: LLM_PROVIDER is "anthropic" but ANTHROPIC_API_KEY is not set',
    });
  });
});
