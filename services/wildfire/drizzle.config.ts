import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/db/schema.ts (`npm run db:generate -w services/wildfire`)
// and committed; both Postgres and embedded PGlite apply them at start-up.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
