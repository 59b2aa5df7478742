import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, type Config } from "@/lib/config";
import { openDatabase, type Database } from "@/lib/db/client";
import { organization } from "@/lib/db/schema";
import { monitor, trackedLink } from "@/lib/db/schema/monitors";
import { SAMPLE_CORPUS_DIR, sharedCorpusDir } from "./corpus";
import { startCorpusSite, type CorpusSite } from "./corpus-site";
import { startPostgres, type PostgresServer } from "./postgres";
import { BENCH_CHROMIUM } from "./chromium";

/**
 * The set-up of the check benchmarks (bench:signals, bench:evidence): the real pages of
 * tests/fixtures/corpus (and up to `sharedPages` of ../shared/corpus when it is beside the checkout)
 * served from 127.0.0.1, a throw-away PostgreSQL with the account schema, one organization, and one
 * monitor per page tracking the first absolute link of its markup (exact match).
 */

export interface CorpusMonitors {
  config: Config;
  database: Database;
  organizationId: string;
  pages: { monitorId: string; linkId: string; file: string }[];
  /** Where the pages came from (for the report). */
  dirs: string[];
  close(): Promise<void>;
}

/** The first absolute http(s) link of a page's markup: what its monitor tracks. */
export function firstLink(file: string): string | null {
  const html = readFileSync(file, "utf8");
  for (const match of html.matchAll(/<a\b[^>]*\bhref\s*=\s*["'](https?:\/\/[^"'\s#]+)/gi)) {
    const url = URL.parse(match[1] ?? "");
    if (url) return url.href;
  }
  return null;
}

export async function startCorpusMonitors(sharedPages: number): Promise<CorpusMonitors> {
  const shared = sharedCorpusDir();
  const dirs = [SAMPLE_CORPUS_DIR, ...(shared ? [shared] : [])];
  const sites: CorpusSite[] = [];
  for (const dir of dirs) sites.push(await startCorpusSite(dir));
  const postgres: PostgresServer = await startPostgres();
  const config = parseConfig({
    DATABASE_URL: await postgres.createDatabase(),
    ALLOW_PRIVATE_HOSTS: sites.map((site) => site.allowEntry).join(","),
    PUPPETEER_EXECUTABLE_PATH: BENCH_CHROMIUM,
    LINK_CHECK_TIMEOUT_MS: "2000",
    ANALYSIS_CLIENT_BUDGET_MS: "36000000",
    LOG_LEVEL: "error",
  });
  const database = openDatabase({ databaseUrl: config.DATABASE_URL ?? "", dataDir: "" });
  await database.migrate();
  const db = database.db;
  const organizationId = randomUUID();
  await db
    .insert(organization)
    .values({ id: organizationId, name: "Bench", slug: `bench-${organizationId}`, createdAt: new Date() });

  const pages: CorpusMonitors["pages"] = [];
  for (const [index, site] of sites.entries()) {
    const files = index === 0 ? site.files : site.files.slice(0, sharedPages);
    for (const file of files) {
      const target = firstLink(path.join(dirs[index] as string, file));
      if (!target) continue;
      const monitorId = randomUUID();
      const linkId = randomUUID();
      await db
        .insert(monitor)
        .values({ id: monitorId, organizationId, url: site.url(file), intervalMinutes: 1440, nextCheckAt: new Date() });
      await db
        .insert(trackedLink)
        .values({ id: linkId, organizationId, monitorId, target, match: "exact", source: "import" });
      pages.push({ monitorId, linkId, file });
    }
  }
  return {
    config,
    database,
    organizationId,
    pages,
    dirs,
    async close() {
      await database.close();
      await postgres.stop();
      for (const site of sites) await site.close();
    },
  };
}
