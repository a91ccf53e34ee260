/**
 * Tool input schemas are generated from zod (zod 4's `z.toJSONSchema`), never written by
 * hand: the schema the model is shown and the one its answer is checked against cannot
 * drift apart. Field descriptions come from the zod schemas' `.describe()`.
 */
import { z } from 'zod';
import type { LlmJsonSchema, LlmTool } from './llm-port';

/** The JSON schema (draft 2020-12, without the `$schema` marker) of an object schema's output. */
export function toolInputSchema(schema: z.ZodObject): LlmJsonSchema {
  const { $schema: _marker, ...json } = z.toJSONSchema(schema);
  return json as LlmJsonSchema;
}

/** A tool whose input is described by a zod object schema. */
export function defineTool(name: string, description: string, input: z.ZodObject): LlmTool {
  return { name, description, inputSchema: toolInputSchema(input) };
}
