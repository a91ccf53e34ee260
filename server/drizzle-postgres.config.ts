import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit generates the PostgreSQL migrations (server/drizzle-postgres/) from the PostgreSQL
 * schema; the server applies them at start when DATABASE_URL names a PostgreSQL database.
 * `corepack pnpm --filter @tutorloop/server exec drizzle-kit generate --config drizzle-postgres.config.ts`
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/db/postgres/schema.ts', './src/db/postgres/fleet/fleet-schema.ts'],
  out: './drizzle-postgres',
});
