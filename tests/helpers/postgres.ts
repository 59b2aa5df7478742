import { Client } from "pg";
import { startPostgres as startCluster, type PostgresServer } from "../../scripts/lib/postgres";

export type { PostgresServer };

/** Set by tests/global-setup.ts: the one cluster a vitest run shares (the `postgres` database's URL). */
export const SHARED_POSTGRES_ENV = "LINKLENS_TEST_POSTGRES_URL";

let counter = 0;

/**
 * A PostgreSQL for one test file. Under vitest every file shares the run's cluster (starting one per file
 * cost a second of initdb each, fifty times over) and keeps apart by its own databases, dropped at `stop`;
 * elsewhere (Playwright, scripts) it is a throw-away cluster of its own (scripts/lib/postgres.ts).
 */
export async function startPostgres(): Promise<PostgresServer> {
  const shared = process.env[SHARED_POSTGRES_ENV];
  return shared ? databasesInSharedCluster(shared) : startCluster();
}

function databasesInSharedCluster(url: string): PostgresServer {
  const port = Number(new URL(url).port);
  const created: string[] = [];
  const run = async (statement: string) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    pid: 0,
    url,
    async createDatabase(name = `t${process.pid}_${Date.now()}_${counter++}`) {
      const safe = name.replace(/"/g, "");
      await run(`CREATE DATABASE "${safe}"`);
      created.push(safe);
      return `postgres://postgres@127.0.0.1:${port}/${safe}`;
    },
    async stop() {
      // FORCE: a stopped instance's pool may still be closing its connections.
      for (const name of created.splice(0)) await run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    },
  };
}
