import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes a new SQL migration into lib/db/migrations from the schema's diff.
// Migrations are applied by `npm run db:migrate` and by `npm start` before it listens (lib/db/prepare.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./lib/db/migrations",
});
