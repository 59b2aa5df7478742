import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listInvitations, POST as invite } from "@/app/api/account/invitations/route";
import { GET as members } from "@/app/api/account/members/route";
import type { Database } from "@/lib/db";
import { outbox, user } from "@/lib/db/schema";
import { auth, BACKENDS, call, closeAll, linkIn, signUp, useFreshDatabase, verifyEmail } from "./harness";
import { expectError } from "./guard-cases";
import { makeTeam, type Team } from "./team-setup";

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.AUTH_RATE_LIMIT_PER_15_MIN = "1000";

afterAll(closeAll);

/**
 * Taking an invitation needs proof of the invited mailbox, not its id: every member can list the ids
 * (GET /api/account/invitations), and anyone can sign up any address without confirming it. The proof
 * is a confirmed address, or the token of the emailed link (following it confirms the address).
 */

/** The invitation email to `email` (newest), and its link's invitation id and token. */
async function emailedLink(database: Database, email: string) {
  const [row] = await database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.kind, "invitation")))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  if (!row) throw new Error(`no invitation email to ${email}`);
  const url = new URL(linkIn(row.text));
  return { url, invitationId: url.pathname.split("/").pop() ?? "", token: url.searchParams.get("token") };
}

async function isVerified(database: Database, email: string): Promise<boolean | undefined> {
  const [row] = await database.db
    .select({ verified: user.emailVerified })
    .from(user)
    .where(eq(user.email, email))
    .limit(1);
  return row?.verified;
}

describe.each(BACKENDS)("accepting an invitation needs the invited mailbox (%s)", (backend) => {
  let database: Database;
  let team: Team;

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    team = await makeTeam(database, "inv");
  }, 240_000);

  async function memberEmails(): Promise<string[]> {
    const listed = await call(members, "GET", "/api/account/members?limit=100", { cookie: team.owner.cookie });
    return (listed.json as { items: Array<{ user: { email: string } }> }).items.map((item) => item.user.email);
  }

  async function pendingIds(): Promise<string[]> {
    const listed = await call(listInvitations, "GET", "/api/account/invitations?limit=100", {
      cookie: team.owner.cookie,
    });
    return (listed.json as { items: Array<{ id: string }> }).items.map((item) => item.id);
  }

  it("an unconfirmed sign-up of the invited address cannot accept or reject by the id a viewer can list (both ways of inviting)", async () => {
    const viaAccount = await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "cto@corp.test", role: "admin" },
    });
    expect(viaAccount.status, viaAccount.text).toBe(201);
    const viaBetterAuth = await auth("POST", "/organization/invite-member", {
      cookie: team.owner.cookie,
      body: { email: "cfo@corp.test", role: "admin" },
    });
    expect(viaBetterAuth.status, viaBetterAuth.text).toBe(200);

    const visible = await call(listInvitations, "GET", "/api/account/invitations", { cookie: team.viewer.cookie });
    const items = (visible.json as { items: Array<{ id: string; email: string }> }).items;
    for (const email of ["cto@corp.test", "cfo@corp.test"]) {
      const invitationId = items.find((item) => item.email === email)?.id;
      expect(invitationId).toBeTruthy();
      const squatter = await signUp(email);
      expectError(
        await auth("POST", "/organization/accept-invitation", { cookie: squatter, body: { invitationId } }),
        403,
        "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
      );
      expectError(
        await auth("POST", "/organization/reject-invitation", { cookie: squatter, body: { invitationId } }),
        403,
        "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION",
      );
      expect(await pendingIds()).toContain(invitationId);
      expect(await isVerified(database, email)).toBe(false);
    }
    expect(await memberEmails()).not.toContain("cto@corp.test");
  });

  it("a made-up token, or another invitation's, proves nothing", async () => {
    await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "guess@corp.test", role: "member" },
    });
    await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "other@corp.test", role: "member" },
    });
    const mine = await emailedLink(database, "guess@corp.test");
    const other = await emailedLink(database, "other@corp.test");
    const cookie = await signUp("guess@corp.test");
    for (const token of ["", "x", other.token, mine.token?.slice(0, -1), 42]) {
      const result = await auth("POST", "/organization/accept-invitation", {
        cookie,
        body: { invitationId: mine.invitationId, token },
      });
      expect(result.status, `${String(token)}: ${result.text}`).toBe(403);
    }
    expect(await isVerified(database, "guess@corp.test")).toBe(false);
    expect(await memberEmails()).not.toContain("guess@corp.test");
  });

  it("the link's token does not let another account in, confirmed or not", async () => {
    await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "right@corp.test", role: "member" },
    });
    const link = await emailedLink(database, "right@corp.test");
    const wrong = await signUp("wrong@corp.test");
    expectError(
      await auth("POST", "/organization/accept-invitation", {
        cookie: wrong,
        body: { invitationId: link.invitationId, token: link.token },
      }),
      403,
      "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
    );
    await verifyEmail(database, "wrong@corp.test");
    expectError(
      await auth("POST", "/organization/accept-invitation", {
        cookie: wrong,
        body: { invitationId: link.invitationId, token: link.token },
      }),
      403,
      "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION",
    );
    expect(await isVerified(database, "right@corp.test")).toBeUndefined();
  });

  it("the emailed link lets the invited person join: its token proves the address, which is then confirmed", async () => {
    await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "new@corp.test", role: "member" },
    });
    const link = await emailedLink(database, "new@corp.test");
    expect(link.url.pathname).toBe(`/app/invitations/${link.invitationId}`);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = await signUp("new@corp.test");
    const accepted = await auth("POST", "/organization/accept-invitation", {
      cookie,
      body: { invitationId: link.invitationId, token: link.token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await memberEmails()).toContain("new@corp.test");
    expect(await isVerified(database, "new@corp.test")).toBe(true);
  });

  it("Better Auth's invite-member emails a link with a token too, and it works the same", async () => {
    const invited = await auth("POST", "/organization/invite-member", {
      cookie: team.owner.cookie,
      body: { email: "ba@corp.test", role: "viewer" },
    });
    expect(invited.status, invited.text).toBe(200);
    const link = await emailedLink(database, "ba@corp.test");
    expect(link.invitationId).toBe(invited.json?.id);
    const cookie = await signUp("ba@corp.test");
    const accepted = await auth("POST", "/organization/accept-invitation", {
      cookie,
      body: { invitationId: link.invitationId, token: link.token },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await memberEmails()).toContain("ba@corp.test");
  });

  it("a confirmed address accepts by id alone (the confirmation email proved it)", async () => {
    const invited = await call(invite, "POST", "/api/account/invitations", {
      cookie: team.owner.cookie,
      body: { email: "confirmed@corp.test", role: "viewer" },
    });
    const cookie = await signUp("confirmed@corp.test");
    await verifyEmail(database, "confirmed@corp.test");
    const accepted = await auth("POST", "/organization/accept-invitation", {
      cookie,
      body: { invitationId: invited.json?.id },
    });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
