/**
 * Tool schemas from zod live in the core (core/tool-schema.ts), so a session type can define its
 * own model tools; this module keeps the adapters' imports.
 */
export * from '../core/tool-schema';
