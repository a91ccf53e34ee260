import { describe, expect, it } from 'vitest';
import { defaultModels, parseConfig, providerDefaultModels } from './config';

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

  it('auto: Anthropic key first, then the OpenAI key, else offline; each provider with its own default models', () => {
    const both = parseConfig({ ANTHROPIC_API_KEY: 'a-key', OPENAI_API_KEY: 'o-key' });
    expect(both.ok && both.value).toMatchObject({ provider: 'anthropic', tutorModel: 'claude-sonnet-4-6', evaluatorModel: 'claude-haiku-4-5', safetyModel: 'claude-haiku-4-5' });
    const openai = parseConfig({ OPENAI_API_KEY: 'o-key', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(openai.ok && openai.value).toMatchObject({
      provider: 'openai',
      openaiApiKey: 'o-key',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      tutorModel: providerDefaultModels.openai.tutor,
      evaluatorModel: providerDefaultModels.openai.evaluator,
      safetyModel: providerDefaultModels.openai.evaluator,
    });
    expect(parseConfig({ OPENAI_API_KEY: '' }).ok && parseConfig({ OPENAI_API_KEY: '' })).toMatchObject({ value: { provider: 'offline' } });
  });

  it('takes a model id per role; the safety gate follows the evaluator unless SAFETY_MODEL is set', () => {
    const env = { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'ollama', TUTOR_MODEL: 'llama3.1:8b', EVALUATOR_MODEL: 'qwen2.5:7b' };
    expect(parseConfig(env)).toMatchObject({ ok: true, value: { provider: 'openai', tutorModel: 'llama3.1:8b', evaluatorModel: 'qwen2.5:7b', safetyModel: 'qwen2.5:7b' } });
    expect(parseConfig({ ...env, SAFETY_MODEL: 'llama-guard3:1b' })).toMatchObject({ ok: true, value: { safetyModel: 'llama-guard3:1b' } });
  });

  it('budgets model work per learner: 30 operations a minute, 20 new sessions per 10 minutes, 2,000,000 tokens a day (0 = unlimited)', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, value: { turnRateLimit: 30, sessionRateLimit: 20, learnerDailyTokens: 2_000_000 } });
    expect(parseConfig({ SESSION_RATE_LIMIT: '5', LEARNER_DAILY_TOKENS: '0' })).toMatchObject({ ok: true, value: { sessionRateLimit: 5, learnerDailyTokens: 0 } });
    expect(parseConfig({ LEARNER_DAILY_TOKENS: '' })).toMatchObject({ ok: true, value: { learnerDailyTokens: 2_000_000 } });
    expect(parseConfig({ LEARNER_DAILY_TOKENS: '-1' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: LEARNER_DAILY_TOKENS .*"-1"/) });
    expect(parseConfig({ SESSION_RATE_LIMIT: '0' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: SESSION_RATE_LIMIT .*"0"/) });
  });

  it('stores on PostgreSQL when DATABASE_URL names a database, on the SQLite file when it is unset or empty', () => {
    expect(parseConfig({ DATABASE_URL: 'postgres://tutor:secret@db:5432/tutorloop' })).toMatchObject({ ok: true, value: { databaseUrl: 'postgres://tutor:secret@db:5432/tutorloop' } });
    expect(parseConfig({ DATABASE_URL: 'postgresql://db/tutorloop' })).toMatchObject({ ok: true, value: { databaseUrl: 'postgresql://db/tutorloop' } });
    expect(parseConfig({ DATABASE_URL: '' })).toMatchObject({ ok: true, value: { databaseUrl: undefined } });
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, in one line that never repeats it (it may hold a password)', () => {
    expect(parseConfig({ DATABASE_URL: 'mysql://tutor:secret@db/tutorloop' })).toEqual({
      ok: false,
      error: 'Invalid configuration: DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database (got a URL of scheme "mysql")',
    });
    expect(parseConfig({ DATABASE_URL: 'tutor secret db' })).toEqual({
      ok: false,
      error: 'Invalid configuration: DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database (got a value that is not a URL)',
    });
  });

  it('believes no X-Forwarded-For unless TRUST_PROXY names the proxies: a hop count, addresses, ranges or named ranges', () => {
    const read = (value?: string) => {
      const config = parseConfig(value === undefined ? {} : { TRUST_PROXY: value });
      return config.ok ? config.value.trustProxy : config.error;
    };
    expect(read()).toBe(false);
    expect(read('')).toBe(false);
    expect(read('1')).toBe(1);
    expect(read('loopback, 10.0.0.0/8,fd00::/8, 192.168.1.4')).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.4']);
    for (const wrong of ['yes', '10.0.0.0/33', '10.0.0/8', 'loopback,,nginx', '::1/129', '1.2.3.4/8/2']) {
      expect(read(wrong)).toMatch(/^Invalid configuration: TRUST_PROXY must be a number of proxy hops or a comma-separated list/);
    }
  });

  it('stops with one line naming the variable', () => {
    expect(parseConfig({ PORT: 'eighty' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: PORT .*"eighty"/) });
    expect(parseConfig({ LLM_PROVIDER: 'gemini' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: LLM_PROVIDER .*"gemini"/) });
    expect(parseConfig({ LLM_PROVIDER: 'openai' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: LLM_PROVIDER is "openai" but OPENAI_API_KEY is not set/) });
    expect(parseConfig({ OPENAI_BASE_URL: 'localhost:11434' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: OPENAI_BASE_URL must be an http\(s\) URL/) });
    expect(parseConfig({ JWT_SECRET: 'short' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: JWT_SECRET must be at least 32 characters/) });
    expect(parseConfig({ ANTHROPIC_BASE_URL: 'not a url' })).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: ANTHROPIC_BASE_URL must be a URL/) });
    expect(parseConfig({ LLM_PROVIDER: 'anthropic' })).toEqual({
      ok: false,
      error: 'Invalid configuration: LLM_PROVIDER is "anthropic" but ANTHROPIC_API_KEY is not set',
    });
  });
});
