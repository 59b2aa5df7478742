import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/account/me/route";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { GET as members } from "@/app/api/account/members/route";
import { DELETE as deleteMember } from "@/app/api/account/members/[id]/route";
import { GET as invitations, POST as invite } from "@/app/api/account/invitations/route";
import { DELETE as cancelInvitation } from "@/app/api/account/invitations/[id]/route";
import { POST as leave } from "@/app/api/account/organization/leave/route";
import { POST as transfer } from "@/app/api/account/organization/transfer/route";
import { PUT as switchOrg } from "@/app/api/account/active-organization/route";
import type { Database } from "@/lib/db";
import { BACKENDS, call, closeAll, lastEmailTo, useFreshDatabase } from "./harness";
import { makeTeam, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

const roleOf = async (cookie: string) =>
  (await call(me, "GET", "/api/account/me", { cookie })).json as { role: string; organization: { id: string } };
const actions = async (cookie: string) =>
  (
    (await call(auditLog, "GET", "/x?limit=100", { cookie })).json as {
      items: Array<{ action: string; details: Record<string, unknown> }>;
    }
  ).items;

describe.each(BACKENDS)("team management (%s)", (backend) => {
  let database: Database;
  let team: Team;
  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "t");
  });

  it("an invitation is an outbox row written with it (same link), and can be cancelled once", async () => {
    const created = await call(invite, "POST", "/x", {
      cookie: team.admin.cookie,
      body: { email: "Later@Example.com", role: "member" },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    expect(created.json).toMatchObject({ email: "later@example.com", role: "member", status: "pending" });
    const email = await lastEmailTo(database, "later@example.com");
    expect(email).toMatchObject({ kind: "invitation", organizationId: team.organizationId, status: "pending" });
    expect(email.text).toContain(`/app/invitations/${id}`);
    // An admin may not invite an admin.
    expect(
      (
        await call(invite, "POST", "/x", {
          cookie: team.admin.cookie,
          body: { email: "boss@example.com", role: "admin" },
        })
      ).status,
    ).toBe(403);
    const listed = await call(invitations, "GET", "/x", { cookie: team.viewer.cookie });
    expect((listed.json as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(id);
    expect((await call(cancelInvitation, "DELETE", "/x", { cookie: team.admin.cookie, params: { id } })).status).toBe(
      204,
    );
    expect(
      (await call(cancelInvitation, "DELETE", "/x", { cookie: team.admin.cookie, params: { id } })).json,
    ).toMatchObject({ errorCode: "CONFLICT" });
    expect((await actions(team.owner.cookie)).map((a) => a.action)).toContain("invitation.cancel");
  });

  it("a member leaves: the session falls back to their own team; the log records it", async () => {
    const result = await call(leave, "POST", "/x", { cookie: team.member.cookie });
    expect(result.status, result.text).toBe(204);
    const after = await roleOf(team.member.cookie);
    expect(after.organization.id).not.toBe(team.organizationId);
    expect(after.role).toBe("owner");
    const left = (await actions(team.owner.cookie)).find(
      (a) => a.action === "member.remove" && a.details.left === true,
    );
    expect(left?.details.email).toBe(team.member.email);
  });

  it("an admin removes a viewer; the viewer's session then reads its own team", async () => {
    expect(
      (
        await call(deleteMember, "DELETE", "/x", {
          cookie: team.admin.cookie,
          params: { id: team.viewer.memberId ?? "" },
        })
      ).status,
    ).toBe(204);
    expect((await roleOf(team.viewer.cookie)).organization.id).not.toBe(team.organizationId);
    expect(
      (
        await call(switchOrg, "PUT", "/x", {
          cookie: team.viewer.cookie,
          body: { organizationId: team.organizationId },
        })
      ).status,
    ).toBe(404);
  });

  it("the owner transfers ownership to the admin and becomes admin; the new owner may then leave the old one behind", async () => {
    const moved = await call(transfer, "POST", "/x", {
      cookie: team.owner.cookie,
      body: { memberId: team.admin.memberId },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ role: "owner", user: { email: team.admin.email } });
    expect((await roleOf(team.owner.cookie)).role).toBe("admin");
    expect((await roleOf(team.admin.cookie)).role).toBe("owner");
    const list = await call(members, "GET", "/x", { cookie: team.owner.cookie });
    expect((list.json as { items: Array<{ role: string }> }).items.map((m) => m.role).sort()).toEqual([
      "admin",
      "owner",
    ]);
    // Now the former owner (admin) can leave; the new owner is the last owner and cannot.
    expect((await call(leave, "POST", "/x", { cookie: team.admin.cookie })).status).toBe(409);
    expect((await call(leave, "POST", "/x", { cookie: team.owner.cookie })).status).toBe(204);
  });
});
