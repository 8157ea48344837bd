import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and committed as SQL; the app applies them at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
});
