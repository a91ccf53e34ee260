/**
 * The tutorloop contract: zod schemas and inferred types for every WebSocket message and
 * REST body (SPEC §5, §6), close codes and limits. No I/O here.
 */
export * from './account';
export * from './agent-logs';
export * from './assessment';
export * from './cloze';
export * from './errors';
export * from './import';
export * from './json-guard';
export * from './learning';
export * from './limits';
export * from './progress';
export * from './providers';
export * from './rest';
export * from './session';
export * from './survey';
export * from './thought';
export * from './widgets';
export * from './ws';
export * from './scheduler';
export * from './documents';
