import { startPostgres } from "../scripts/lib/postgres";
import { SHARED_POSTGRES_ENV } from "./helpers/postgres";

/** One PostgreSQL cluster for the whole vitest run; each test file creates its own databases in it. */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SHARED_POSTGRES_ENV]) return undefined;
  const cluster = await startPostgres();
  process.env[SHARED_POSTGRES_ENV] = cluster.url;
  return async () => {
    await cluster.stop();
  };
}
