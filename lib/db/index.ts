import { getConfig } from "../config";
import { getDatabase, type Database } from "./client";

export { getDatabase, openDatabase, setDatabase, MIGRATIONS_FOLDER, schema, type Database, type Db } from "./client";
export { DataDirLockedError } from "./lock";

/** The process database from the configuration (DATABASE_URL or the embedded one in DATA_DIR). */
export function database(): Database {
  const config = getConfig();
  return getDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
}
