import { defineConfig } from 'drizzle-kit';

/** drizzle-kit generates the checked-in migrations from the schema; the server applies them at start. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './server/src/db/schema.ts',
  out: './server/drizzle',
});
