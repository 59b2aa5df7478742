import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listInvitations } from "@/app/api/account/invitations/route";
import { GET as me } from "@/app/api/account/me/route";
import { GET as members } from "@/app/api/account/members/route";
import type { Database } from "@/lib/db";
import { auth, BACKENDS, call, closeAll, useFreshDatabase } from "./harness";
import { expectError } from "./guard-cases";
import { join, makeTeam, type Person, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * The team rules in front of Better Auth's organization endpoints (lib/auth/organization-gate.ts) must
 * judge the actor in the organization Better Auth will change: the invitation's or member's own, or
 * (for a new invitation, a member named by email) `organizationId || the active organization`, as
 * Better Auth reads it. Naming another organization in the body (one the actor owns), or an empty
 * one, must not move the judgement elsewhere.
 */

describe.each(BACKENDS)("the team gate judges the target's own organization (%s)", (backend) => {
  let database: Database;
  let team: Team;
  let secondAdmin: Person & { memberId?: string };
  /** The admin's personal organization, where they are owner. */
  let adminsOwn: string;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "scope");
    secondAdmin = await join(database, team.owner.cookie, team.organizationId, "scope-admin2@example.com", "admin");
    const listed = await call(members, "GET", "/api/account/members?limit=100", { cookie: team.owner.cookie });
    secondAdmin.memberId = (listed.json as { items: Array<{ id: string; user: { email: string } }> }).items.find(
      (m) => m.user.email === secondAdmin.email,
    )?.id;
    const mine = await call(me, "GET", "/api/account/me", { cookie: team.admin.cookie });
    const organizations = (mine.json as { organizations: Array<{ id: string; role: string }> }).organizations;
    adminsOwn = organizations.find((o) => o.id !== team.organizationId && o.role === "owner")?.id ?? "";
    expect(adminsOwn).not.toBe("");
  }, 240_000);

  async function roleOf(memberId: string | undefined): Promise<string | undefined> {
    const listed = await call(members, "GET", "/api/account/members?limit=100", { cookie: team.owner.cookie });
    return (listed.json as { items: Array<{ id: string; role: string }> }).items.find((m) => m.id === memberId)?.role;
  }

  async function pendingEmails(): Promise<string[]> {
    const listed = await call(listInvitations, "GET", "/api/account/invitations?limit=100", {
      cookie: team.owner.cookie,
    });
    return (listed.json as { items: Array<{ email: string }> }).items.map((item) => item.email);
  }

  it("cancel-invitation: an admin cannot cancel an admin's invitation by naming a team they own, or none", async () => {
    const invited = await auth("POST", "/organization/invite-member", {
      cookie: team.owner.cookie,
      body: { email: "owner-only@example.com", role: "admin" },
    });
    expect(invited.status, invited.text).toBe(200);
    const invitationId = String(invited.json?.id);
    for (const organizationId of [adminsOwn, "", team.organizationId, "no-such-organization"]) {
      const result = await auth("POST", "/organization/cancel-invitation", {
        cookie: team.admin.cookie,
        body: { invitationId, organizationId },
      });
      expectError(result, 403, "FORBIDDEN");
    }
    expect(await pendingEmails()).toContain("owner-only@example.com");
  });

  it("invite-member: an empty organizationId is the active one (as Better Auth reads it), so an admin cannot invite an admin with it", async () => {
    expectError(
      await auth("POST", "/organization/invite-member", {
        cookie: team.admin.cookie,
        body: { email: "sneaky-admin@example.com", role: "admin", organizationId: "" },
      }),
      403,
      "FORBIDDEN",
    );
    expect(await pendingEmails()).not.toContain("sneaky-admin@example.com");
  });

  it("update-member-role: neither another organization nor an empty one lets an admin make an admin or demote an owner", async () => {
    for (const organizationId of ["", adminsOwn]) {
      const promote = await auth("POST", "/organization/update-member-role", {
        cookie: team.admin.cookie,
        body: { memberId: team.member.memberId, role: "admin", organizationId },
      });
      expect(promote.status, promote.text).toBe(403);
      const demote = await auth("POST", "/organization/update-member-role", {
        cookie: team.admin.cookie,
        body: { memberId: team.owner.memberId, role: "member", organizationId },
      });
      expect(demote.status, demote.text).toBe(403);
    }
    expect(await roleOf(team.member.memberId)).toBe("member");
    expect(await roleOf(team.owner.memberId)).toBe("owner");
  });

  it("remove-member: an admin cannot remove another admin with an empty or foreign organizationId", async () => {
    for (const organizationId of ["", adminsOwn]) {
      for (const target of [secondAdmin.memberId, secondAdmin.email]) {
        const result = await auth("POST", "/organization/remove-member", {
          cookie: team.admin.cookie,
          body: { memberIdOrEmail: target, organizationId },
        });
        expect(result.status, result.text).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await roleOf(secondAdmin.memberId)).toBe("admin");
    const blank = await auth("POST", "/organization/remove-member", {
      cookie: team.admin.cookie,
      body: { memberIdOrEmail: secondAdmin.email, organizationId: "" },
    });
    expectError(blank, 403, "FORBIDDEN");
  });

  it("within the rules the endpoints still work, and the audit row lands in the changed organization", async () => {
    const invited = await auth("POST", "/organization/invite-member", {
      cookie: team.admin.cookie,
      body: { email: "fine@example.com", role: "member", organizationId: "" },
    });
    expect(invited.status, invited.text).toBe(200);
    const cancelled = await auth("POST", "/organization/cancel-invitation", {
      cookie: team.admin.cookie,
      body: { invitationId: invited.json?.id, organizationId: adminsOwn },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    const { GET: auditLog } = await import("@/app/api/account/audit-log/route");
    const log = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.owner.cookie });
    const rows = (log.json as { items: Array<{ action: string; target: { id: string } | null }> }).items;
    expect(rows.some((row) => row.action === "invitation.cancel" && row.target?.id === invited.json?.id)).toBe(true);
  });
});
