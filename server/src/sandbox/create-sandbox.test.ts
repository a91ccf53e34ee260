import { describe, expect, it } from 'vitest';
import { createSandbox, prepareJob } from './create-sandbox';
import type { RunRequest } from './types';

const request: RunRequest = {
  language: 'python',
  code: 'def count_chars(text):\n    return len(text)\n',
  functionName: 'count_chars',
  tests: [{ args: ['héllo'], expected: 5 }],
};

describe('prepareJob', () => {
  it('encodes each test’s args as JSON for the worker', () => {
    expect(prepareJob(request)).toEqual({
      ok: true,
      job: { code: request.code, functionName: 'count_chars', tests: request.tests, argsJson: ['["héllo"]'] },
    });
  });

  it('refuses a function name that is not an identifier, since it is spliced into lookup code', () => {
    const prepared = prepareJob({ ...request, language: 'javascript', functionName: 'f; globalThis.x = 1' });
    expect(prepared).toEqual({
      ok: false,
      result: {
        passed: 0,
        total: 1,
        outcomes: [{ passed: false, error: 'not run: invalid function name: "f; globalThis.x = 1"' }],
        error: { kind: 'internal', message: 'invalid function name: "f; globalThis.x = 1"' },
        durationMs: 0,
      },
    });
  });

  it('refuses an owner that is not a string', () => {
    const prepared = prepareJob({ ...request, owner: 42 as unknown as string });
    expect(prepared.ok ? undefined : prepared.result.error).toEqual({ kind: 'internal', message: 'owner must be a string' });
    expect(prepareJob({ ...request, owner: 'learner-1' }).ok).toBe(true);
  });

  it('refuses args that are not a JSON array', () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    for (const args of [cyclic, [10n], 'héllo' as unknown as unknown[]]) {
      const prepared = prepareJob({ ...request, tests: [{ args, expected: 0 }] });
      expect(prepared.ok ? undefined : prepared.result.error?.kind).toBe('internal');
    }
  });

  it('refuses oversized code as forbidden (the learner’s doing), and empty test lists as internal', () => {
    const long = prepareJob({ ...request, code: 'x = 1\n'.repeat(20_000) });
    expect(long.ok ? undefined : long.result.error).toEqual({ kind: 'forbidden', message: 'the code is too long (at most 65536 characters)' });
    const empty = prepareJob({ ...request, tests: [] });
    expect(empty.ok ? undefined : empty.result.error?.kind).toBe('internal');
  });

  it('throws at creation on a pool size or queue limit that is not a positive integer', () => {
    expect(() => createSandbox({ pythonWorkers: 0 })).toThrow('pythonWorkers must be a positive integer, got 0');
    expect(() => createSandbox({ javascriptWorkers: 1.5 })).toThrow('javascriptWorkers must be a positive integer, got 1.5');
    expect(() => createSandbox({ maxQueuedPerOwner: -1 })).toThrow('maxQueuedPerOwner must be a positive integer, got -1');
  });
});
