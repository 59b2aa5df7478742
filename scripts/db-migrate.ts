// `npm run db:migrate`: applies pending migrations to DATABASE_URL or the embedded database in DATA_DIR.
import { parseConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await database.migrate();
    console.log(
      `migrations applied (${database.kind === "postgres" ? "PostgreSQL" : `embedded database in ${config.DATA_DIR}`})`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
