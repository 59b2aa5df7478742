import type { Config } from "../config";
import { resolveAuthSecret } from "./secret";
import { onShutdown } from "../shutdown";
import { getDatabase, type Database } from "./client";

/**
 * What `npm start` does before it listens: checks BETTER_AUTH_SECRET (required with DATABASE_URL;
 * generated in DATA_DIR otherwise), opens the process database (taking the embedded one's lock) and
 * applies pending migrations. Throws an Error whose message says what to fix.
 */
export async function prepareDatabase(config: Config): Promise<Database> {
  resolveAuthSecret(config);
  const database = getDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await database.migrate();
  onShutdown("database", () => database.close());
  return database;
}
