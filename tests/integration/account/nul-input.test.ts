import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as switchOrg } from "@/app/api/account/active-organization/route";
import { GET as listAlerts } from "@/app/api/account/alerts/route";
import { GET as listGroups, POST as createGroup } from "@/app/api/account/domain-groups/route";
import { POST as invite } from "@/app/api/account/invitations/route";
import { GET as listLinks } from "@/app/api/account/links/route";
import { POST as importLinks } from "@/app/api/account/links/import/route";
import { GET as members } from "@/app/api/account/members/route";
import { GET as listMonitors, POST as createMonitor } from "@/app/api/account/monitors/route";
import { GET as getMonitor, PATCH as patchMonitor } from "@/app/api/account/monitors/[id]/route";
import { POST as transfer } from "@/app/api/account/organization/transfer/route";
import type { Database } from "@/lib/db";
import { auth, BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";
import { csvRequest } from "./monitor-setup";
import { makeTeam, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * U+0000 anywhere a client can put text. PostgreSQL refuses it in text and jsonb, so before the guard
 * (lib/http/nul.ts) it reached SQL and answered 500, and a CSV cell holding one lost a whole import,
 * valid rows included. Now: a body field or query parameter → 400 naming it, a path id → 404 (no id
 * holds it), a CSV cell → that row's error while the other rows import. Both backends: PGlite and
 * PostgreSQL refuse NUL alike.
 */

const NUL = "\u0000";

function cursorWithId(id: string): string {
  return Buffer.from(`2026-11-25T10:07:42.080Z|${id}`).toString("base64url");
}

describe.each(BACKENDS)("NUL characters in account input (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "nul");
  }, 240_000);

  it.each([
    {
      name: "invite",
      handler: invite,
      method: "POST",
      path: "/api/account/invitations",
      body: { email: `a${NUL}@example.com` },
      field: "email",
    },
    {
      name: "transfer",
      handler: transfer,
      method: "POST",
      path: "/api/account/organization/transfer",
      body: { memberId: NUL },
      field: "memberId",
    },
    {
      name: "switch organization",
      handler: switchOrg,
      method: "PUT",
      path: "/api/account/active-organization",
      body: { organizationId: NUL },
      field: "organizationId",
    },
    {
      name: "monitor tags",
      handler: createMonitor,
      method: "POST",
      path: "/api/account/monitors",
      body: { url: "https://nul-test.example/", tags: [`a${NUL}b`] },
      field: "tags.0",
    },
    {
      name: "monitor link notes",
      handler: createMonitor,
      method: "POST",
      path: "/api/account/monitors",
      body: { url: "https://nul-test.example/", links: [{ target: "https://t.example/", notes: `n${NUL}` }] },
      field: "links.0.notes",
    },
    {
      name: "domain group name",
      handler: createGroup,
      method: "POST",
      path: "/api/account/domain-groups",
      body: { name: `G${NUL}`, domains: ["a.example"] },
      field: "name",
    },
  ])("a body field holding U+0000 is 400 naming it: $name", async ({ handler, method, path, body, field }) => {
    const result = await call(handler, method, path, { cookie: team.owner.cookie, body });
    expectError(result, 400, "INVALID_REQUEST");
    expect(result.json?.error).toBe(`${field}: must not contain the NUL character (U+0000).`);
  });

  it.each([
    { name: "links ?q", handler: listLinks, path: `/api/account/links?q=${encodeURIComponent(NUL)}`, field: "q" },
    {
      name: "links ?tag",
      handler: listLinks,
      path: `/api/account/links?tag=x${encodeURIComponent(NUL)}`,
      field: "tag",
    },
    {
      name: "links ?monitorId",
      handler: listLinks,
      path: `/api/account/links?monitorId=${encodeURIComponent(NUL)}`,
      field: "monitorId",
    },
    {
      name: "alerts ?monitorId",
      handler: listAlerts,
      path: `/api/account/alerts?monitorId=${encodeURIComponent(NUL)}`,
      field: "monitorId",
    },
  ])("a query parameter holding U+0000 is 400 naming it: $name", async ({ handler, path, field }) => {
    const result = await call(handler, "GET", path, { cookie: team.owner.cookie });
    expectError(result, 400, "INVALID_REQUEST");
    expect(result.json?.error).toBe(`${field}: must not contain the NUL character (U+0000).`);
  });

  it.each([
    { name: "members", handler: members, path: "/api/account/members" },
    { name: "domain groups", handler: listGroups, path: "/api/account/domain-groups" },
    { name: "monitors", handler: listMonitors, path: "/api/account/monitors" },
    { name: "links", handler: listLinks, path: "/api/account/links" },
    { name: "alerts", handler: listAlerts, path: "/api/account/alerts" },
  ])("a cursor whose id holds U+0000 is 400 cursor: $name", async ({ handler, path }) => {
    const result = await call(handler, "GET", `${path}?cursor=${cursorWithId(`x${NUL}`)}`, {
      cookie: team.owner.cookie,
    });
    expectError(result, 400, "INVALID_REQUEST");
    expect(String(result.json?.error)).toMatch(/^cursor: /);
  });

  it("a path id holding U+0000 is 404, after the role check", async () => {
    expectError(
      await call(getMonitor, "GET", "/api/account/monitors/x", {
        cookie: team.viewer.cookie,
        params: { id: `m${NUL}` },
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(patchMonitor, "PATCH", "/api/account/monitors/x", {
        cookie: team.viewer.cookie,
        params: { id: NUL },
        body: { paused: true },
      }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await call(patchMonitor, "PATCH", "/api/account/monitors/x", {
        cookie: team.member.cookie,
        params: { id: NUL },
        body: { paused: true },
      }),
      404,
      "NOT_FOUND",
    );
  });

  it("a CSV cell holding U+0000 is that row's error; the dry run says so and the real import keeps the valid rows", async () => {
    const csv = `page_url,target_url,notes\nhttps://nul-imp.example/,https://t.example/,a${NUL}b\nhttps://ok-imp.example/,https://t.example/,fine\n`;
    const rowError = { row: 2, message: "notes: must not contain the NUL character (U+0000)." };
    const dry = await importLinks(csvRequest("/api/account/links/import?dryRun=1", team.member.cookie, csv), {
      params: Promise.resolve({}),
    });
    expect(dry.status).toBe(200);
    expect(await dry.json()).toEqual({ created: 1, updated: 0, unchanged: 0, errors: [rowError] });
    const real = await importLinks(csvRequest("/api/account/links/import", team.member.cookie, csv), {
      params: Promise.resolve({}),
    });
    expect(real.status).toBe(200);
    expect(await real.json()).toEqual({ created: 1, updated: 0, unchanged: 0, errors: [rowError] });
    const listed = await call(listLinks, "GET", "/api/account/links?q=t.example", { cookie: team.member.cookie });
    expect((listed.json as { items: Array<{ notes: string | null }> }).items.map((link) => link.notes)).toEqual([
      "fine",
    ]);
  });

  it("Better Auth's endpoints: a JSON field or query parameter holding U+0000 is 400 naming it", async () => {
    const rename = await auth("POST", "/update-user", { cookie: team.owner.cookie, body: { name: `A${NUL}lice` } });
    expectError(rename, 400, "INVALID_REQUEST");
    expect(rename.json?.error).toBe("name: must not contain the NUL character (U+0000).");
    const signUp = await auth("POST", "/sign-up/email", {
      body: { email: "nul-new@example.com", password: "correct horse battery", name: `N${NUL}` },
    });
    expectError(signUp, 400, "INVALID_REQUEST");
    const verify = await auth("GET", `/magic-link/verify?token=${encodeURIComponent(NUL)}`);
    expectError(verify, 400, "INVALID_REQUEST");
    expect(verify.json?.error).toBe("token: must not contain the NUL character (U+0000).");
    for (const [path, body] of [
      ["/organization/set-active", { organizationId: NUL }],
      ["/organization/accept-invitation", { invitationId: NUL }],
      ["/revoke-session", { token: NUL }],
    ] as const) {
      expectError(await auth("POST", path, { cookie: team.owner.cookie, body }), 400, "INVALID_REQUEST");
    }
    // The address is unused: a clean sign-up with it works.
    const clean = await auth("POST", "/sign-up/email", {
      body: { email: "nul-new@example.com", password: "correct horse battery", name: "N" },
    });
    expect(clean.status, clean.text).toBe(200);
  });

  it("an unknown query parameter is named as part of the query, not the body", async () => {
    const result = await call(members, "GET", "/api/account/members?foo=bar", { cookie: team.owner.cookie });
    expectError(result, 400, "INVALID_REQUEST");
    expect(String(result.json?.error)).toMatch(/^query: /);
  });
});
