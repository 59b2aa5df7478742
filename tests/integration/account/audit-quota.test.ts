import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as createAudit } from "@/app/api/account/audits/route";
import { POST as rerun } from "@/app/api/account/audits/[id]/rerun/route";
import { GET as getAudit } from "@/app/api/account/audits/[id]/route";
import { returnAuditUnit, takeAuditUnit } from "@/lib/account/audit-quota";
import { shutdownAnalyzer } from "@/lib/analyzer";
import { openDatabase, type Database } from "@/lib/db";
import { organizationDailyUsage } from "@/lib/db/schema";
import { startPostgres, type PostgresServer } from "../../helpers/postgres";
import { BACKENDS, call, closeAll, signUp, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";
import { newAudit } from "./audit-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
// Low, so the last unit is reached in a few audits (read once, at the first getConfig()).
process.env.ORG_AUDITS_PER_DAY = "3";

afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
});

const body = { html: '<a href="https://example.org/">x</a>', domain: "quota.example" };
const nextMidnight = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
};

describe.each(BACKENDS)("organization audit quota (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "q");
  });

  async function usedToday(organizationId: string): Promise<number> {
    const [row] = await database.db
      .select({ audits: organizationDailyUsage.audits })
      .from(organizationDailyUsage)
      .where(
        and(
          eq(organizationDailyUsage.organizationId, organizationId),
          eq(organizationDailyUsage.day, new Date().toISOString().slice(0, 10)),
        ),
      );
    return row?.audits ?? 0;
  }

  it("a failed audit gives its unit back (the quota counts saved audits)", async () => {
    // Nesting deeper than the parser allows: the analysis refuses it (422) after the unit was taken.
    const deep = `${"<div>".repeat(5_000)}<a href="/x">x</a>`;
    expectError(
      await call(createAudit, "POST", "/x", { cookie: team.member.cookie, body: { html: deep } }),
      422,
      "UNPROCESSABLE_PAGE",
    );
    expect(await usedToday(team.organizationId)).toBe(0);
  });

  it("ORG_AUDITS_PER_DAY audits pass with the headers counting down; the next is 429 until midnight UTC, re-runs included", async () => {
    const remaining: string[] = [];
    let first = "";
    for (let i = 0; i < 3; i += 1) {
      const result = await call(createAudit, "POST", "/x", { cookie: team.member.cookie, body });
      expect(result.status, result.text).toBe(201);
      first ||= String(result.json?.id);
      expect(result.headers.get("x-ratelimit-limit")).toBe("3");
      expect(Number(result.headers.get("x-ratelimit-reset"))).toBe(nextMidnight());
      remaining.push(String(result.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await call(createAudit, "POST", "/x", { cookie: team.admin.cookie, body });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.json?.error).toMatch(/3 audits for today \(UTC\)/);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("x-ratelimit-reset"))).toBe(nextMidnight());
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.now() / 1000 + retryAfter - nextMidnight())).toBeLessThanOrEqual(2);

    expectError(
      await call(rerun, "POST", "/x", { cookie: team.owner.cookie, params: { id: first } }),
      429,
      "RATE_LIMITED",
    );
    expect(await usedToday(team.organizationId)).toBe(3);
    // Reading is not limited.
    expect((await call(getAudit, "GET", "/x", { cookie: team.viewer.cookie, params: { id: first } })).status).toBe(200);
    // Validation comes first: a bad body is still a 400, not a 429.
    expectError(
      await call(createAudit, "POST", "/x", { cookie: team.member.cookie, body: { html: 1 } }),
      400,
      "INVALID_REQUEST",
    );
  });

  it("the quota is the organization's: another organization still has all of its own", async () => {
    const cookie = await signUp(`solo-${backend}@example.com`);
    const audit = await newAudit(cookie, body);
    expect(audit.links).toHaveLength(1);
  });

  it("counts per UTC day: tomorrow starts from zero; a refund never goes below zero", async () => {
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const ticket = await takeAuditUnit(database.db, team.organizationId, 3, tomorrow);
    expect(ticket).toMatchObject({ allowed: true, remaining: 2, day: tomorrow.toISOString().slice(0, 10) });
    await returnAuditUnit(database.db, team.organizationId, ticket.day);
    await returnAuditUnit(database.db, team.organizationId, ticket.day);
    expect((await takeAuditUnit(database.db, team.organizationId, 3, tomorrow)).remaining).toBe(2);
  });

  it("many takers at once never pass the last unit", async () => {
    const day = new Date(Date.UTC(2030, 0, 1, 12));
    const tickets = await Promise.all(
      Array.from({ length: 12 }, () => takeAuditUnit(database.db, team.organizationId, 5, day)),
    );
    expect(tickets.filter((t) => t.allowed)).toHaveLength(5);
    expect(
      tickets
        .filter((t) => t.allowed)
        .map((t) => t.remaining)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("two instances on one PostgreSQL", () => {
  let postgres: PostgresServer;
  const instances: Database[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
    const url = await postgres.createDatabase();
    for (let i = 0; i < 2; i += 1) instances.push(openDatabase({ databaseUrl: url, dataDir: "" }));
    await instances[0]?.migrate();
    await instances[0]?.db.execute(
      "INSERT INTO organization (id, name, slug, created_at) VALUES ('org-race', 'Race', 'race', now())",
    );
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await postgres?.stop();
  });

  it("both pools take at once, each with its own connections: exactly the limit passes, over several rounds", async () => {
    for (let round = 0; round < 5; round += 1) {
      const day = new Date(Date.UTC(2031, 0, 1 + round, 12));
      const takers = Array.from({ length: 20 }, (_, i) =>
        takeAuditUnit((instances[i % 2] as Database).db, "org-race", 7, day),
      );
      const tickets = await Promise.all(takers);
      expect(tickets.filter((t) => t.allowed)).toHaveLength(7);
      const [row] = await (instances[1] as Database).db
        .select({ audits: organizationDailyUsage.audits })
        .from(organizationDailyUsage)
        .where(
          and(
            eq(organizationDailyUsage.organizationId, "org-race"),
            eq(organizationDailyUsage.day, day.toISOString().slice(0, 10)),
          ),
        );
      expect(row?.audits).toBe(7);
    }
  });
});
