import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as activityLog } from "@/app/api/account/activity-log/route";
import { GET as members } from "@/app/api/account/members/route";
import { GET as monitors } from "@/app/api/account/monitors/route";
import { PATCH as patchOrganization } from "@/app/api/account/organization/route";
import { IMPLEMENTED } from "@/lib/auth/account-route";
import { ERRORS } from "@/lib/errors";
import { ACCOUNT_OPERATIONS } from "@/lib/schemas/operations";
import { expectError, type Handler } from "./guard-cases";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { makeTeam, type Team } from "./team-setup";
import { enrol, meOf } from "./two-factor-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";
process.env.AUTH_IP_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * A team may require two-factor sign-in (docs/spec/account-api.md "Two-factor sign-in"): PATCH
 * /api/account/organization by its owner, once the owner's own factor is on; then every account route of
 * the team answers a member without the factor 403 TWO_FACTOR_REQUIRED, but the few about their own
 * membership. The routes are those of the operation catalog, so a new operation is covered here at once.
 */

const ROOT = path.resolve(__dirname, "../../..");
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
/** The spec's list of what stays reachable. */
const EXEMPT = [
  "GET /api/account/me",
  "PUT /api/account/active-organization",
  "GET /api/account/notifications",
  "PUT /api/account/notifications",
  "POST /api/account/organization/leave",
];

/** Each catalog operation with the handler of its route (app/api/account/<path>/route.ts). */
async function catalogRoutes() {
  const routes = [];
  for (const operation of ACCOUNT_OPERATIONS) {
    const dir = operation.path.replace(/^\/api\/account/, "").replace(/\{(\w+)\}/g, "[$1]");
    const file = path.join(ROOT, "app/api/account", dir, "route.ts");
    expect(fs.existsSync(file), file).toBe(true);
    const handler = ((await import(file)) as Record<string, Handler & { [IMPLEMENTED]?: boolean }>)[operation.method];
    expect(handler?.[IMPLEMENTED], `${operation.method} ${operation.path}`).toBe(true);
    routes.push({ key: `${operation.method} ${operation.path}`, operation, handler: handler as Handler });
  }
  return routes;
}

const routes = await catalogRoutes();

/** A body that passes validation, for the exempt operations that take one (they must succeed). */
const EXEMPT_BODIES: Record<string, (team: Team) => unknown> = {
  "PUT /api/account/active-organization": (team) => ({ organizationId: team.organizationId }),
  "PUT /api/account/notifications": () => ({ email: "daily" }),
};

describe("the exempt operations", () => {
  it("are exactly the spec's: the caller's own membership and alert emails", () => {
    expect(
      routes
        .filter((route) => route.operation.twoFactorExempt)
        .map((route) => route.key)
        .sort(),
    ).toEqual([...EXEMPT].sort());
  });
});

describe.each(BACKENDS)("a team that requires two-factor sign-in (%s)", (backend) => {
  let team: Team;

  beforeAll(async () => {
    team = await makeTeam(await useFreshDatabase(backend), `req-${backend}`);
  });

  const requireIt = (cookie: string, requireTwoFactor: unknown) =>
    call(patchOrganization, "PATCH", "/api/account/organization", { cookie, body: { requireTwoFactor } });

  it("GET /members shows who has the factor to admins and owners only", async () => {
    const asViewer = await call(members, "GET", "/api/account/members", { cookie: team.viewer.cookie });
    for (const item of (asViewer.json as { items: object[] }).items)
      expect(item).not.toHaveProperty("twoFactorEnabled");
    const asAdmin = await call(members, "GET", "/api/account/members", { cookie: team.admin.cookie });
    const items = (asAdmin.json as { items: Array<{ twoFactorEnabled?: boolean }> }).items;
    expect(items.map((item) => item.twoFactorEnabled)).toEqual([false, false, false, false]);
  });

  it("only the owner may require it, and only once their own factor is on (409 before)", async () => {
    expectError(await requireIt(team.admin.cookie, true), 403, "FORBIDDEN");
    expectError(await requireIt(team.owner.cookie, "yes"), 400, "INVALID_REQUEST");
    const early = await requireIt(team.owner.cookie, true);
    expectError(early, 409, "CONFLICT");
    expect(String(early.json?.hint)).toMatch(/Settings → Security/);
    expect((await meOf(team.owner.cookie)).organization.requireTwoFactor).toBe(false);

    team.owner.cookie = (await enrol(team.owner.cookie)).cookie;
    const required = await requireIt(team.owner.cookie, true);
    expect(required.status, required.text).toBe(200);
    expect(required.json).toMatchObject({ id: team.organizationId, requireTwoFactor: true });
    const me = await meOf(team.owner.cookie);
    expect(me.user.twoFactorEnabled).toBe(true);
    expect(me.organization.requireTwoFactor).toBe(true);
    const log = await call(activityLog, "GET", "/api/account/activity-log", { cookie: team.owner.cookie });
    expect((log.json as { items: Array<{ action: string; details: object }> }).items[0]).toMatchObject({
      action: "organization.update",
      details: { requireTwoFactor: { before: false, after: true } },
    });
    const list = await call(members, "GET", "/api/account/members", { cookie: team.owner.cookie });
    const byEmail = Object.fromEntries(
      (list.json as { items: Array<{ user: { email: string }; twoFactorEnabled: boolean }> }).items.map((item) => [
        item.user.email,
        item.twoFactorEnabled,
      ]),
    );
    expect(byEmail).toEqual({
      [team.owner.email]: true,
      [team.admin.email]: false,
      [team.member.email]: false,
      [team.viewer.email]: false,
    });
  });

  // Leaving comes last: the member is gone after it.
  const inOrder = [...routes].sort(
    (a, b) => Number(a.key.endsWith("/leave")) - Number(b.key.endsWith("/leave")) || a.key.localeCompare(b.key),
  );

  it.each(inOrder)(
    "$key: a member without the factor is refused unless it is about their own membership",
    async (route) => {
      const params = Object.fromEntries(
        [...route.operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name ?? "", UNKNOWN_ID]),
      );
      const result = await call(
        route.handler,
        route.operation.method,
        route.operation.path.replace(/\{\w+\}/g, UNKNOWN_ID),
        {
          cookie: team.member.cookie,
          params,
          body: EXEMPT_BODIES[route.key]?.(team),
        },
      );
      if (route.operation.twoFactorExempt) {
        expect(result.status, result.text).toBeLessThan(300);
      } else {
        expectError(result, 403, "TWO_FACTOR_REQUIRED");
        expect(result.json?.hint).toBe(ERRORS.TWO_FACTOR_REQUIRED.hint);
        expect(String(result.json?.hint)).toMatch(/turn it on in Settings/);
      }
    },
  );

  it("after the check order's first steps: no session is still 401, a foreign origin still 403 INVALID_ORIGIN", async () => {
    expectError(await call(monitors, "GET", "/api/account/monitors", {}), 401, "UNAUTHORIZED");
    expectError(
      await call(patchOrganization, "PATCH", "/api/account/organization", {
        cookie: team.viewer.cookie,
        origin: "https://evil.example",
        body: { requireTwoFactor: false },
      }),
      403,
      "INVALID_ORIGIN",
    );
    // The role check comes after: a viewer without the factor hears about the factor first.
    expectError(await requireIt(team.viewer.cookie, false), 403, "TWO_FACTOR_REQUIRED");
  });

  it("a member who turns it on gets in; when the owner stops requiring it, everyone does", async () => {
    expectError(
      await call(monitors, "GET", "/api/account/monitors", { cookie: team.viewer.cookie }),
      403,
      "TWO_FACTOR_REQUIRED",
    );
    team.viewer.cookie = (await enrol(team.viewer.cookie)).cookie;
    expect((await call(monitors, "GET", "/api/account/monitors", { cookie: team.viewer.cookie })).status).toBe(200);

    expectError(
      await call(monitors, "GET", "/api/account/monitors", { cookie: team.admin.cookie }),
      403,
      "TWO_FACTOR_REQUIRED",
    );
    const stopped = await requireIt(team.owner.cookie, false);
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.json).toMatchObject({ requireTwoFactor: false });
    expect((await call(monitors, "GET", "/api/account/monitors", { cookie: team.admin.cookie })).status).toBe(200);
  });
});
