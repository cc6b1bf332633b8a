/** drizzle-kit: generates the SQL in migrations/ from engine/store/schema.ts (`npm run db:generate`). */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  driver: 'durable-sqlite',
  schema: './engine/store/schema.ts',
  out: './migrations',
});
