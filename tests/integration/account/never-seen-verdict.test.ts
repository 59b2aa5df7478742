import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { POST as createMonitor } from "@/app/api/account/monitors/route";
import { POST as checkNow } from "@/app/api/account/monitors/[id]/check/route";
import { GET as listLinks } from "@/app/api/account/links/route";
import { GET as exportLinks } from "@/app/api/account/links/export/route";
import { GET as linkEvidence } from "@/app/api/account/links/[id]/evidence/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import type { Database } from "@/lib/db";
import { alertEvent } from "@/lib/db/schema";
import type { Evidence } from "@/lib/schemas/evidence";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { freePort } from "@/scripts/lib/server-process";
import { parseStrictCsv } from "../../helpers/strict-csv";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { expectMonitorShape, htmlPage, type MonitorJson, type TrackedLinkJson } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * A tracked link never seen on its page (placement-verdict.md, "Verdict of a tracked link"): a page whose
 * script takes the link out from the first check on, and a page that never had it. Rendered by real
 * Chromium from a fixture site, stored in PGlite and PostgreSQL: the first miss keeps no verdict, the
 * confirming check gives `does_not_count` with `missing` (and `removed_by_script`), as a first verdict (no
 * verdict_changed; the loss itself is one link_missing, with evidence of it); the ?verdict= filter and
 * both exports carry it.
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
const FIXTURE_PORT = await freePort();
process.env.ALLOW_PRIVATE_HOSTS = `127.0.0.1:${FIXTURE_PORT}`;
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;
process.env.LINK_CHECK_TIMEOUT_MS = "2000";
process.env.MONITOR_CONFIRM_CHECKS = "2";

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ port: FIXTURE_PORT });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
  await closeAll();
});

describe.each(BACKENDS)("a link never seen (%s)", (backend) => {
  let database: Database;
  let team: Team;
  const base = `/never-seen-${backend}`;
  const target = (name: string) => `http://127.0.0.1:${FIXTURE_PORT}${base}/${name}/target`;
  const scripted = { page: `${base}/scripted`, target: target("scripted") };
  const absent = { page: `${base}/absent`, target: target("absent") };
  const monitors = { scripted: "", absent: "" };
  const links = { scripted: "", absent: "" };
  const VERDICT = {
    scripted: { value: "does_not_count", reasons: ["missing", "removed_by_script"] },
    absent: { value: "does_not_count", reasons: ["missing"] },
  };
  const after: {
    first?: Record<string, TrackedLinkJson>;
    confirmed?: Record<string, TrackedLinkJson>;
    third?: Record<string, TrackedLinkJson>;
  } = {};

  async function watch(pagePath: string, linkTarget: string): Promise<MonitorJson> {
    const result = await call(createMonitor, "POST", "/api/account/monitors", {
      cookie: team.member.cookie,
      body: { url: site.url(pagePath), links: [{ target: linkTarget }] },
    });
    expect(result.status, result.text).toBe(201);
    return result.json as unknown as MonitorJson;
  }

  async function checkBoth(): Promise<Record<string, TrackedLinkJson>> {
    const seen: Record<string, TrackedLinkJson> = {};
    for (const name of ["scripted", "absent"] as const) {
      const result = await call(checkNow, "POST", "/x", { cookie: team.member.cookie, params: { id: monitors[name] } });
      expect(result.status, result.text).toBe(200);
      expectMonitorShape(result.json);
      seen[name] = result.json.links[0] as TrackedLinkJson;
    }
    return seen;
  }

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, `ns-${backend}`);
    for (const { target: linkTarget } of [scripted, absent])
      site.setPage(new URL(linkTarget).pathname, { body: htmlPage("<p>The shop.</p>") });
    // The served HTML has the paid link; the page's own script takes it out before anyone sees it.
    site.setPage(scripted.page, {
      body: htmlPage(
        `<main><p>Read <a id="paid" href="${scripted.target}">the best shoes</a> today.</p></main><script>document.getElementById("paid").remove();</script>`,
      ),
    });
    site.setPage(absent.page, { body: htmlPage("<main><p>A review with no link in it.</p></main>") });
    const createdScripted = await watch(scripted.page, scripted.target);
    const createdAbsent = await watch(absent.page, absent.target);
    monitors.scripted = createdScripted.id;
    monitors.absent = createdAbsent.id;
    links.scripted = createdScripted.links[0]?.id ?? "";
    links.absent = createdAbsent.links[0]?.id ?? "";
    after.first = await checkBoth();
    after.confirmed = await checkBoth();
    after.third = await checkBoth();
  }, 120_000);

  it("the first miss keeps no verdict: the loss waits for its confirmation", () => {
    for (const name of ["scripted", "absent"] as const) {
      expect(after.first?.[name], name).toMatchObject({
        state: "pending",
        verdict: null,
        matchCount: 0,
        current: null,
        firstSeenAt: null,
      });
    }
  });

  it("the confirming check: missing, does_not_count with missing, and removed_by_script when the served HTML had it", () => {
    expect(after.confirmed?.scripted).toMatchObject({
      state: "missing",
      matchCount: 0,
      current: null,
      firstSeenAt: null,
      verdict: VERDICT.scripted,
    });
    expect(after.confirmed?.absent).toMatchObject({
      state: "missing",
      matchCount: 0,
      current: null,
      firstSeenAt: null,
      verdict: VERDICT.absent,
    });
    // A later check keeps it (nothing changed).
    expect(after.third?.scripted?.verdict).toEqual(after.confirmed?.scripted?.verdict);
    expect(after.third?.absent?.verdict).toEqual(after.confirmed?.absent?.verdict);
  });

  it("one link_missing each (from pending), and no verdict_changed: the first verdict is not a change", async () => {
    for (const name of ["scripted", "absent"] as const) {
      const events = await database.db
        .select()
        .from(alertEvent)
        .where(eq(alertEvent.monitorId, monitors[name]))
        .orderBy(asc(alertEvent.createdAt));
      expect(
        events.map((event) => event.type),
        name,
      ).toEqual(["link_missing"]);
      expect(events[0]).toMatchObject({
        trackedLinkId: links[name],
        before: { state: "pending", link: null },
        after: { state: "missing", link: null },
      });
    }
  });

  it("evidence of the confirmed loss: one state_change record carrying the verdict, the top of the page", async () => {
    for (const name of ["scripted", "absent"] as const) {
      const result = await call(linkEvidence, "GET", "/x?limit=100", {
        cookie: team.viewer.cookie,
        params: { id: links[name] },
      });
      expect(result.status, result.text).toBe(200);
      const records = (result.json as { items: Evidence[] }).items;
      expect(records, name).toHaveLength(1);
      expect(records[0]).toMatchObject({ reason: "state_change", link: null, linkBox: null, verdict: VERDICT[name] });
    }
  });

  it("GET /links?verdict=does_not_count lists both; ?verdict=counts and at_risk neither", async () => {
    const listed = async (value: string) => {
      const result = await call(listLinks, "GET", `/api/account/links?verdict=${value}&limit=100`, {
        cookie: team.viewer.cookie,
      });
      expect(result.status, result.text).toBe(200);
      return (result.json as unknown as { items: TrackedLinkJson[] }).items.map((item) => item.id).sort();
    };
    expect(await listed("does_not_count")).toEqual([links.scripted, links.absent].sort());
    expect(await listed("counts")).toEqual([]);
    expect(await listed("at_risk")).toEqual([]);
  });

  it("the CSV and JSON exports carry the verdict and its reasons", async () => {
    const csv = await call(exportLinks, "GET", "/api/account/links/export?format=csv", { cookie: team.member.cookie });
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parseStrictCsv(csv.text);
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const rowOf = (linkTarget: string) => rows.find((row) => row[column("target_url")] === linkTarget);
    expect(rowOf(scripted.target)?.slice(column("state"), column("in_google_view"))).toEqual([
      "missing",
      "",
      "",
      "does_not_count",
      "missing;removed_by_script",
    ]);
    expect(rowOf(absent.target)?.slice(column("state"), column("in_google_view"))).toEqual([
      "missing",
      "",
      "",
      "does_not_count",
      "missing",
    ]);

    const json = await call(exportLinks, "GET", "/api/account/links/export?format=json", {
      cookie: team.member.cookie,
    });
    expect(json.status, json.text).toBe(200);
    const items = JSON.parse(json.text) as Array<Record<string, unknown>>;
    expect(items.find((item) => item.target_url === scripted.target)).toMatchObject({
      state: "missing",
      verdict: "does_not_count",
      verdict_reasons: "missing;removed_by_script",
    });
    expect(items.find((item) => item.target_url === absent.target)).toMatchObject({
      state: "missing",
      verdict: "does_not_count",
      verdict_reasons: "missing",
    });
  });
});
