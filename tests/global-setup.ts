import { keepTmpFilesInMemory } from "../scripts/lib/memory-tmpdir";
import { startPostgres } from "../scripts/lib/postgres";
import { SHARED_POSTGRES_ENV } from "./helpers/postgres";

/**
 * The run's temporary files in memory (scripts/lib/memory-tmpdir.ts), then one PostgreSQL cluster for the
 * whole vitest run; each test file creates its own databases in it. The workers inherit both variables.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SHARED_POSTGRES_ENV]) return undefined;
  const tmpdir = keepTmpFilesInMemory();
  const cluster = await startPostgres();
  process.env[SHARED_POSTGRES_ENV] = cluster.url;
  return async () => {
    await cluster.stop();
    tmpdir?.remove();
  };
}
