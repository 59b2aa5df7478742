import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectUrl, shutdownAnalyzer, type RenderPriority } from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db";
import { checkDeps, runCheck, type CheckDeps } from "@/lib/monitor/run-check";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { closeAll, useFreshDatabase } from "./harness";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * "Check now" goes before routine checks (docs/account-api.md "Scheduling"): its render asks for an
 * interactive place in the render queue, a scheduled check's for a background one
 * (lib/analyzer/render/queue.ts orders them).
 * The real render runs; the test only watches what each check asks the analyzer's front door for.
 */

let site: FixtureSite;
let database: Database;
const organizationId = randomUUID();

beforeAll(async () => {
  site = await startFixtureSite();
  database = await useFreshDatabase("pglite");
  await database.execute("INSERT INTO organization (id, name, slug, created_at) VALUES ($1, 'Priority', $2, now())", [
    organizationId,
    `priority-${organizationId}`,
  ]);
});

afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

describe("check priority", () => {
  it("Check now renders as interactive, a scheduled check as background", async () => {
    const config = parseConfig({
      ALLOW_PRIVATE_HOSTS: site.allowEntry,
      PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
      LINK_CHECK_TIMEOUT_MS: "2000",
    });
    const asked: Array<RenderPriority | undefined> = [];
    const deps: CheckDeps = {
      ...checkDeps({ db: database.db, settings: config, now: () => new Date() }),
      random: () => 0,
      inspect: (url, options) => {
        asked.push(options.priority);
        return inspectUrl(url, options);
      },
    };
    const monitorId = randomUUID();
    const dueAt = new Date(Date.now() - 1000);
    await database.execute(
      "INSERT INTO monitor (id, organization_id, url, interval_minutes, next_check_at) VALUES ($1, $2, $3, 1440, $4)",
      [monitorId, organizationId, site.url("/p/priority"), dueAt],
    );
    expect(await runCheck(deps, organizationId, monitorId, { kind: "schedule", dueAt })).toMatchObject({
      status: "applied",
      outcome: "ok",
    });
    expect(await runCheck(deps, organizationId, monitorId, { kind: "manual" })).toMatchObject({
      status: "applied",
      outcome: "ok",
    });
    expect(asked).toEqual(["background", "interactive"]);
  }, 60_000);
});
