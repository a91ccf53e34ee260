/** The code sandbox: runs learner functions against test cases (SPEC §4.3, §8). See README.md. */
export { createSandbox } from './create-sandbox';
export { RUN_ERROR_KINDS, SANDBOX_LANGUAGES } from './types';
export type { CodeTest, RunErrorKind, RunRequest, RunResult, Sandbox, SandboxLanguage, SandboxOptions, TestOutcome } from './types';
