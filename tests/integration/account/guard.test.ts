import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { GET as outboxList } from "@/app/api/account/outbox/route";
import { GET as members } from "@/app/api/account/members/route";
import { PATCH as patchMember, DELETE as deleteMember } from "@/app/api/account/members/[id]/route";
import { GET as invitations, POST as invite } from "@/app/api/account/invitations/route";
import { DELETE as cancelInvitation } from "@/app/api/account/invitations/[id]/route";
import { POST as leave } from "@/app/api/account/organization/leave/route";
import { POST as transfer } from "@/app/api/account/organization/transfer/route";
import { PUT as switchOrg } from "@/app/api/account/active-organization/route";
import { GET as accountOpenApi } from "@/app/api/account/openapi.json/route";
import { BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import {
  expectError,
  itChecksGuardOrder,
  itFindsIdsBeforeBodies,
  itHintsAccountRequests,
  itEnforcesRoles,
  type RouteCase,
} from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

afterAll(closeAll);

/** Every account route of teams and accounts, with a request that is valid for its lowest allowed role. */
const ROUTES: RouteCase[] = [
  { name: "GET /me", handler: me, method: "GET", path: "/api/account/me", minRole: "viewer" },
  {
    name: "GET /openapi.json",
    handler: accountOpenApi,
    method: "GET",
    path: "/api/account/openapi.json",
    minRole: "viewer",
  },
  { name: "GET /members", handler: members, method: "GET", path: "/api/account/members", minRole: "viewer" },
  {
    name: "GET /invitations",
    handler: invitations,
    method: "GET",
    path: "/api/account/invitations",
    minRole: "viewer",
  },
  { name: "GET /audit-log", handler: auditLog, method: "GET", path: "/api/account/audit-log", minRole: "admin" },
  { name: "GET /outbox", handler: outboxList, method: "GET", path: "/api/account/outbox", minRole: "owner" },
  {
    name: "POST /invitations",
    handler: invite,
    method: "POST",
    path: "/api/account/invitations",
    minRole: "admin",
    body: () => ({ email: `new-${Math.random()}@example.com`, role: "viewer" }),
  },
  {
    name: "PATCH /members/{id}",
    handler: patchMember,
    method: "PATCH",
    path: "/api/account/members/x",
    minRole: "admin",
    body: () => ({ role: "viewer" }),
    params: (t) => ({ id: t.viewer.memberId ?? "" }),
  },
  {
    name: "POST /organization/transfer",
    handler: transfer,
    method: "POST",
    path: "/api/account/organization/transfer",
    minRole: "owner",
    body: (t) => ({ memberId: t.admin.memberId }),
  },
];

describe.each(BACKENDS)("account guard (%s)", (backend) => {
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    const database = await useFreshDatabase(backend);
    team = await makeTeam(database, "a");
    other = await makeTeam(database, "b");
  });

  describe("check order", () => {
    itChecksGuardOrder(ROUTES, () => team);
    itHintsAccountRequests(ROUTES, () => team);
    itFindsIdsBeforeBodies(ROUTES, () => team);

    it("a mutation with no Origin and no Sec-Fetch-Site is a non-browser client: allowed", async () => {
      const result = await call(invite, "POST", "/api/account/invitations", {
        cookie: team.owner.cookie,
        origin: null,
        body: { email: "cli@example.com", role: "viewer" },
      });
      expect(result.status, result.text).toBe(201);
    });

    it("a GET with a foreign Origin is not refused (reads are not mutations)", async () => {
      const result = await call(me, "GET", "/api/account/me", {
        cookie: team.viewer.cookie,
        origin: "https://evil.example",
      });
      expect(result.status).toBe(200);
    });
  });

  describe("role boundaries", () => {
    itEnforcesRoles(
      ROUTES.filter((r) => r.name !== "POST /organization/transfer"),
      () => team,
    );

    it("transfer ownership: only the owner (then the former owner is admin)", async () => {
      for (const role of ["viewer", "member", "admin"] as const) {
        expectError(
          await call(transfer, "POST", "/api/account/organization/transfer", {
            cookie: team[role].cookie,
            body: { memberId: team[role].memberId },
          }),
          403,
          "FORBIDDEN",
        );
      }
    });

    it("an admin cannot re-role or remove an admin or owner, nor make an admin; an owner can", async () => {
      const asAdmin = { cookie: team.admin.cookie };
      expectError(
        await call(patchMember, "PATCH", "/x", {
          ...asAdmin,
          body: { role: "viewer" },
          params: { id: team.owner.memberId ?? "" },
        }),
        403,
        "FORBIDDEN",
      );
      expectError(
        await call(patchMember, "PATCH", "/x", {
          ...asAdmin,
          body: { role: "admin" },
          params: { id: team.member.memberId ?? "" },
        }),
        403,
        "FORBIDDEN",
      );
      expectError(
        await call(deleteMember, "DELETE", "/x", { ...asAdmin, params: { id: team.owner.memberId ?? "" } }),
        403,
        "FORBIDDEN",
      );
      const ok = await call(patchMember, "PATCH", "/x", {
        ...asAdmin,
        body: { role: "member" },
        params: { id: team.viewer.memberId ?? "" },
      });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json).toMatchObject({ role: "member" });
      const back = await call(patchMember, "PATCH", "/x", {
        cookie: team.owner.cookie,
        body: { role: "viewer" },
        params: { id: team.viewer.memberId ?? "" },
      });
      expect(back.status, back.text).toBe(200);
    });

    it("the last owner can neither leave, be demoted nor be removed (409)", async () => {
      expectError(await call(leave, "POST", "/x", { cookie: team.owner.cookie }), 409, "CONFLICT");
      expectError(
        await call(patchMember, "PATCH", "/x", {
          cookie: team.owner.cookie,
          body: { role: "admin" },
          params: { id: team.owner.memberId ?? "" },
        }),
        409,
        "CONFLICT",
      );
      expectError(
        await call(deleteMember, "DELETE", "/x", {
          cookie: team.owner.cookie,
          params: { id: team.owner.memberId ?? "" },
        }),
        409,
        "CONFLICT",
      );
    });

    it("body validation names the field (400) after the role check", async () => {
      const result = await call(patchMember, "PATCH", "/x", {
        cookie: team.admin.cookie,
        body: { role: "king" },
        params: { id: team.viewer.memberId ?? "" },
      });
      expectError(result, 400, "INVALID_REQUEST");
      expect(String(result.json?.error)).toMatch(/^role: /);
      expectError(
        await call(invite, "POST", "/x", { cookie: team.viewer.cookie, body: { email: "not-an-email" } }),
        403,
        "FORBIDDEN",
      );
    });

    it("inviting an existing member is 409 CONFLICT", async () => {
      expectError(
        await call(invite, "POST", "/x", {
          cookie: team.owner.cookie,
          body: { email: team.member.email, role: "viewer" },
        }),
        409,
        "CONFLICT",
      );
    });
  });

  describe("tenant isolation: another organization's ids are 404, never 403", () => {
    it("every route with an id answers 404 for the other organization's ids", async () => {
      const foreignMember = other.viewer.memberId ?? "";
      const foreignInvite = await call(invite, "POST", "/x", {
        cookie: other.owner.cookie,
        body: { email: "foreign@example.com", role: "viewer" },
      });
      const foreignInvitationId = (foreignInvite.json as { id: string }).id;
      const asOwner = { cookie: team.owner.cookie };
      expectError(
        await call(patchMember, "PATCH", "/x", { ...asOwner, body: { role: "member" }, params: { id: foreignMember } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(deleteMember, "DELETE", "/x", { ...asOwner, params: { id: foreignMember } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(cancelInvitation, "DELETE", "/x", { ...asOwner, params: { id: foreignInvitationId } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(transfer, "POST", "/x", { ...asOwner, body: { memberId: foreignMember } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(switchOrg, "PUT", "/x", { ...asOwner, body: { organizationId: other.organizationId } }),
        404,
        "NOT_FOUND",
      );
      // Unknown ids answer the same.
      expectError(
        await call(patchMember, "PATCH", "/x", { ...asOwner, body: { role: "member" }, params: { id: "no-such-id" } }),
        404,
        "NOT_FOUND",
      );
      expectError(
        await call(cancelInvitation, "DELETE", "/x", { ...asOwner, params: { id: "no-such-id" } }),
        404,
        "NOT_FOUND",
      );
      // And the other organization's rows stay as they were.
      const theirs = await call(members, "GET", "/x", { cookie: other.owner.cookie });
      expect((theirs.json as { items: unknown[] }).items).toHaveLength(4);
    });

    it("lists show only the active organization", async () => {
      const mine = await call(members, "GET", "/x", { cookie: team.owner.cookie });
      const emails = (mine.json as { items: Array<{ user: { email: string } }> }).items.map((i) => i.user.email);
      expect(emails.every((e) => e.startsWith("a-"))).toBe(true);
      const log = await call(auditLog, "GET", "/api/account/audit-log", { cookie: team.owner.cookie });
      expect(JSON.stringify(log.json)).not.toMatch(/b-owner|foreign@/);
      const box = await call(outboxList, "GET", "/x", { cookie: team.owner.cookie });
      expect(JSON.stringify(box.json)).not.toMatch(/foreign@|b-admin/);
    });
  });

  describe("audit log", () => {
    it("records sign-ins, invitations and role changes, newest first, with cursor pagination", async () => {
      const first = await call(auditLog, "GET", "/api/account/audit-log?limit=2", { cookie: team.admin.cookie });
      expect(first.status, first.text).toBe(200);
      const page = first.json as { items: Array<{ id: string; action: string }>; nextCursor: string | null };
      expect(page.items).toHaveLength(2);
      expect(page.nextCursor).toBeTypeOf("string");
      const all = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.admin.cookie });
      const actions = (all.json as { items: Array<{ action: string }> }).items.map((i) => i.action);
      for (const action of [
        "user.sign_up",
        "user.sign_in",
        "invitation.create",
        "invitation.accept",
        "member.role_change",
      ])
        expect(actions).toContain(action);
      const second = await call(auditLog, "GET", `/api/account/audit-log?limit=2&cursor=${page.nextCursor}`, {
        cookie: team.admin.cookie,
      });
      const ids = (second.json as { items: Array<{ id: string }> }).items.map((i) => i.id);
      expect(ids).toEqual((all.json as { items: Array<{ id: string }> }).items.slice(2, 4).map((i) => i.id));
      expectError(
        await call(auditLog, "GET", "/api/account/audit-log?limit=0", { cookie: team.admin.cookie }),
        400,
        "INVALID_REQUEST",
      );
      expectError(
        await call(auditLog, "GET", "/api/account/audit-log?cursor=zzz", { cookie: team.admin.cookie }),
        400,
        "INVALID_REQUEST",
      );
    });
  });

  describe("pagination", () => {
    const lists = [
      ["members", members],
      ["invitations", invitations],
      ["outbox", outboxList],
      ["audit log", auditLog],
    ] as const;
    it.each(lists)("%s: pages of one walk the whole list, each row once, in the same order", async (_name, handler) => {
      // At least two pending invitations (and their outbox rows), so every list has more than one page.
      for (const email of ["page-1@example.com", "page-2@example.com"]) {
        await call(invite, "POST", "/x", { cookie: team.owner.cookie, body: { email, role: "viewer" } });
      }
      const all = await call(handler, "GET", "/x?limit=100", { cookie: team.owner.cookie });
      const expected = (all.json as { items: Array<{ id: string }> }).items.map((item) => item.id);
      expect(expected.length).toBeGreaterThan(1);
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=1&cursor=${cursor}` : "?limit=1";
        const page = await call(handler, "GET", `/x${query}`, { cookie: team.owner.cookie });
        expect(page.status, page.text).toBe(200);
        const body = page.json as { items: Array<{ id: string }>; nextCursor: string | null };
        expect(body.items.length).toBeLessThanOrEqual(1);
        walked.push(...body.items.map((item) => item.id));
        cursor = body.nextCursor;
      } while (cursor && walked.length <= expected.length);
      expect(walked).toEqual(expected);
      expectError(
        await call(handler, "GET", "/x?cursor=bm90LWEtY3Vyc29y", { cookie: team.owner.cookie }),
        400,
        "INVALID_REQUEST",
      );
      expectError(await call(handler, "GET", "/x?limit=101", { cookie: team.owner.cookie }), 400, "INVALID_REQUEST");
    });
  });

  describe("methods", () => {
    it("a method a route does not have is 405 with Allow, as an Error body", async () => {
      const { POST } = await import("@/app/api/account/me/route");
      const result = await call(POST, "POST", "/api/account/me", { cookie: team.owner.cookie });
      expectError(result, 405, "METHOD_NOT_ALLOWED");
      expect(result.headers.get("allow")).toBe("GET");
    });
  });
});
