/**
 * The LLM port lives in the core (core/llm-port.ts), so a session type's own model calls can
 * build requests against it without importing `llm/`; this module keeps the adapters' imports.
 */
export * from '../core/llm-port';
