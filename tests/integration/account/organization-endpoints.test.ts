import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as auditLog } from "@/app/api/account/audit-log/route";
import { GET as me } from "@/app/api/account/me/route";
import { GET as members } from "@/app/api/account/members/route";
import type { Database } from "@/lib/db";
import { auth, BACKENDS, call, closeAll, lastEmailTo, linkIn, signUp, useFreshDatabase } from "./harness";
import { makeTeam, type Team } from "./team-setup";
import { ERROR_KEYS } from "../../helpers/server";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * docs/spec/account-api.md mounts Better Auth's organization endpoints at /api/auth/organization/*. They answer
 * in Better Auth's shapes, under the spec's team rules (admins manage only roles below admin), with
 * the same emails and audit rows as /api/account's team routes.
 */

function expectForbidden(result: Awaited<ReturnType<typeof auth>>) {
  expect(result.status, result.text).toBe(403);
  expect(Object.keys(result.json ?? {}).sort()).toEqual(ERROR_KEYS);
}

async function actions(team: Team): Promise<string[]> {
  const result = await call(auditLog, "GET", "/api/account/audit-log?limit=100", { cookie: team.owner.cookie });
  return (result.json as { items: Array<{ action: string }> }).items.map((item) => item.action);
}

async function roleOf(team: Team, memberId: string | undefined): Promise<string | undefined> {
  const result = await call(members, "GET", "/api/account/members?limit=100", { cookie: team.owner.cookie });
  return (result.json as { items: Array<{ id: string; role: string }> }).items.find((m) => m.id === memberId)?.role;
}

describe.each(BACKENDS)("Better Auth's organization endpoints (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "org");
  }, 240_000);

  it("a new account's session is active in its personal organization (Better Auth's own reads work)", async () => {
    const cookie = await signUp("fresh@example.com");
    const listed = await auth("GET", "/organization/list-members", { cookie });
    expect(listed.status, listed.text).toBe(200);
    const body = listed.json as unknown as { members: Array<{ role: string; user: { email: string } }> };
    expect(body.members.map((m) => `${m.user.email}:${m.role}`)).toEqual(["fresh@example.com:owner"]);
    const full = await auth("GET", "/organization/get-full-organization", { cookie });
    expect(full.json).toMatchObject({ name: "fresh's team" });
  });

  it("invite-member: an owner invites an admin; the invitation is emailed and audited", async () => {
    const result = await auth("POST", "/organization/invite-member", {
      cookie: team.owner.cookie,
      body: { email: "Second-Admin@example.com", role: "admin" },
    });
    expect(result.status, result.text).toBe(200);
    expect(result.json).toMatchObject({
      email: "second-admin@example.com",
      role: "admin",
      status: "pending",
      organizationId: team.organizationId,
    });
    const email = await lastEmailTo(database, "second-admin@example.com");
    expect(email.kind).toBe("invitation");
    // The link carries the token that proves the mailbox (invitation-accept.test.ts).
    expect(linkIn(email.text)).toMatch(
      new RegExp(`^http://localhost:3000/app/invitations/${String(result.json?.id)}\\?token=[A-Za-z0-9_-]{43}$`),
    );
    expect(await actions(team)).toContain("invitation.create");
  });

  it("invite-member: an admin may invite below admin only; a viewer may not invite", async () => {
    expectForbidden(
      await auth("POST", "/organization/invite-member", {
        cookie: team.admin.cookie,
        body: { email: "a2@example.com", role: "admin" },
      }),
    );
    expectForbidden(
      await auth("POST", "/organization/invite-member", {
        cookie: team.admin.cookie,
        body: { email: "o2@example.com", role: "owner" },
      }),
    );
    const ok = await auth("POST", "/organization/invite-member", {
      cookie: team.admin.cookie,
      body: { email: "m2@example.com", role: "member" },
    });
    expect(ok.status, ok.text).toBe(200);
    expectForbidden(
      await auth("POST", "/organization/invite-member", {
        cookie: team.viewer.cookie,
        body: { email: "v2@example.com", role: "viewer" },
      }),
    );
  });

  it("cancel-invitation: an admin cannot cancel an admin's invitation; the owner can", async () => {
    const invited = await auth("POST", "/organization/invite-member", {
      cookie: team.owner.cookie,
      body: { email: "third-admin@example.com", role: "admin" },
    });
    const invitationId = String(invited.json?.id);
    expectForbidden(
      await auth("POST", "/organization/cancel-invitation", { cookie: team.admin.cookie, body: { invitationId } }),
    );
    const cancelled = await auth("POST", "/organization/cancel-invitation", {
      cookie: team.owner.cookie,
      body: { invitationId },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await actions(team)).toContain("invitation.cancel");
  });

  it("update-member-role: an admin cannot make an admin nor re-role one; within the rule it works and is audited", async () => {
    expectForbidden(
      await auth("POST", "/organization/update-member-role", {
        cookie: team.admin.cookie,
        body: { memberId: team.member.memberId, role: "admin" },
      }),
    );
    expectForbidden(
      await auth("POST", "/organization/update-member-role", {
        cookie: team.admin.cookie,
        body: { memberId: team.owner.memberId, role: "member" },
      }),
    );
    expect(await roleOf(team, team.member.memberId)).toBe("member");
    const changed = await auth("POST", "/organization/update-member-role", {
      cookie: team.admin.cookie,
      body: { memberId: team.viewer.memberId, role: "member" },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await roleOf(team, team.viewer.memberId)).toBe("member");
    const back = await auth("POST", "/organization/update-member-role", {
      cookie: team.owner.cookie,
      body: { memberId: team.viewer.memberId, role: "viewer" },
    });
    expect(back.status, back.text).toBe(200);
    expect(await actions(team)).toContain("member.role_change");
  });

  it("remove-member: a member or a viewer removing someone else is 403 FORBIDDEN (Better Auth alone says 401), and their session stays", async () => {
    for (const actor of [team.member, team.viewer]) {
      for (const target of [team.viewer.memberId, team.admin.email, "no-such-member"]) {
        if (target === actor.memberId) continue;
        const result = await auth("POST", "/organization/remove-member", {
          cookie: actor.cookie,
          body: { memberIdOrEmail: target },
        });
        expectForbidden(result);
        expect(result.json?.errorCode).toBe("FORBIDDEN");
      }
      // Themselves: Better Auth keeps remove-member to those who may remove members (leave is the way
      // out); its refusal is a role failure too, so 403 with its own code.
      const self = await auth("POST", "/organization/remove-member", {
        cookie: actor.cookie,
        body: { memberIdOrEmail: actor.email },
      });
      expectForbidden(self);
      expect(self.json?.errorCode).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
      expect((await call(me, "GET", "/api/account/me", { cookie: actor.cookie })).status).toBe(200);
    }
    expect(await roleOf(team, team.viewer.memberId)).toBe("viewer");
    expect(await roleOf(team, team.member.memberId)).toBe("member");
  });

  it("remove-member: an admin cannot remove an admin; the last owner cannot leave; removals are audited", async () => {
    const otherAdmin = await makeTeam(database, "rm");
    expectForbidden(
      await auth("POST", "/organization/remove-member", {
        cookie: otherAdmin.admin.cookie,
        body: { memberIdOrEmail: otherAdmin.owner.memberId },
      }),
    );
    const leave = await auth("POST", "/organization/leave", {
      cookie: otherAdmin.owner.cookie,
      body: { organizationId: otherAdmin.organizationId },
    });
    expect(leave.status).toBe(400);
    expect(leave.json).toMatchObject({ errorCode: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER" });
    const removed = await auth("POST", "/organization/remove-member", {
      cookie: otherAdmin.admin.cookie,
      body: { memberIdOrEmail: otherAdmin.viewer.email },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await roleOf(otherAdmin, otherAdmin.viewer.memberId)).toBeUndefined();
    expect(await actions(otherAdmin)).toContain("member.remove");
    const left = await auth("POST", "/organization/leave", {
      cookie: otherAdmin.member.cookie,
      body: { organizationId: otherAdmin.organizationId },
    });
    expect(left.status, left.text).toBe(200);
    // Removing oneself is leaving, whatever one's role, however the address is written.
    const self = await auth("POST", "/organization/remove-member", {
      cookie: otherAdmin.admin.cookie,
      body: { memberIdOrEmail: otherAdmin.admin.email.toUpperCase() },
    });
    expect(self.status, self.text).toBe(200);
    expect(await roleOf(otherAdmin, otherAdmin.admin.memberId)).toBeUndefined();
  });
});
