import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { ApiError } from "../errors";
import type { AccountContext, OrganizationScope } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import { invitationLink } from "../auth/invitation-link";
import { can, isRoleName, roleRank, type RoleName } from "../auth/roles";
import type { Db } from "../db/client";
import { keysetPage, type PageRequest } from "../db/keyset";
import * as schema from "../db/schema";
import { enqueueEmail } from "../mail/outbox";
import { invitationEmail } from "../mail/templates";
import type { inviteSchema, Invitation, Member } from "../schemas/team";

/**
 * Team management with the rules of docs/spec/account-api.md: admins invite, remove and re-role members below
 * admin; owners also manage admins and transfer ownership; the last owner can neither leave, be removed
 * nor be demoted. Every query is scoped to the caller's active organization, so another organization's
 * ids are unknown here (404). Changes, their audit rows and their emails commit in one transaction.
 */

const INVITATION_TTL_MS = 48 * 60 * 60 * 1000;

const notFound = (what: string) =>
  new ApiError("NOT_FOUND", `No ${what} with this id in your organization.`, {
    hint: "Use an id from the list of your active organization.",
  });

/** May `actor` manage someone whose role is `role` (now, or after the change)? */
function assertManages(actor: RoleName, role: RoleName): void {
  if (actor === "owner") return;
  if (roleRank(role) >= roleRank("admin"))
    throw new ApiError("FORBIDDEN", "Only an owner can manage admins and owners.");
}

async function ownerCount(db: Pick<Db, "select">, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.member)
    .where(and(eq(schema.member.organizationId, organizationId), eq(schema.member.role, "owner")));
  return row?.n ?? 0;
}

type MemberRow = {
  id: string;
  role: string;
  createdAt: Date;
  userId: string;
  email: string;
  name: string;
  twoFactorEnabled: boolean;
};

/** A member as the API shows it; whether they have two-factor sign-in on only to those who run the team. */
function memberView(row: MemberRow, viewer: RoleName): Member {
  return {
    id: row.id,
    role: isRoleName(row.role) ? row.role : "viewer",
    createdAt: row.createdAt.toISOString(),
    user: { id: row.userId, email: row.email, name: row.name },
    ...(can(viewer, { memberSecurity: ["read"] }) ? { twoFactorEnabled: row.twoFactorEnabled } : {}),
  };
}

const memberColumns = {
  id: schema.member.id,
  role: schema.member.role,
  createdAt: schema.member.createdAt,
  userId: schema.user.id,
  email: schema.user.email,
  name: schema.user.name,
  twoFactorEnabled: schema.user.twoFactorEnabled,
};

/** Members, oldest first (the founder on top), a page at a time. */
export async function listMembers(ctx: AccountContext, page: PageRequest) {
  const { db } = ctx;
  const keys = { createdAt: schema.member.createdAt, id: schema.member.id };
  const query = db
    .select(memberColumns)
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .$dynamic();
  return keysetPage(
    query,
    { keys, direction: "asc", where: eq(schema.member.organizationId, ctx.organization.id), page },
    (row) => memberView(row, ctx.role),
  );
}

export async function findMember(ctx: OrganizationScope, memberId: string, db: Pick<Db, "select"> = ctx.db) {
  const [row] = await db
    .select(memberColumns)
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(and(eq(schema.member.organizationId, ctx.organization.id), eq(schema.member.id, memberId)))
    .limit(1);
  if (!row || !isRoleName(row.role)) throw notFound("member");
  return { ...row, role: row.role };
}

export async function changeRole(ctx: AccountContext, memberId: string, role: RoleName) {
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const target = await findMember(ctx, memberId, tx);
    assertManages(ctx.role, target.role);
    assertManages(ctx.role, role);
    if (target.role === "owner" && role !== "owner" && (await ownerCount(tx, ctx.organization.id)) <= 1) {
      throw new ApiError("CONFLICT", "The last owner cannot be demoted.", {
        hint: "Make another member owner first (transfer ownership).",
      });
    }
    if (target.role !== role) {
      await tx.update(schema.member).set({ role }).where(eq(schema.member.id, target.id));
      await recordActivity(tx, {
        organizationId: ctx.organization.id,
        actor: ctx.user,
        action: "member.role_change",
        target: { type: "member", id: target.id },
        details: { email: target.email, before: target.role, after: role },
      });
    }
    return memberView({ ...target, role }, ctx.role);
  });
}

export async function removeMember(ctx: AccountContext, memberId: string): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const target = await findMember(ctx, memberId, tx);
    if (target.userId !== ctx.user.id) assertManages(ctx.role, target.role);
    if (target.role === "owner" && (await ownerCount(tx, ctx.organization.id)) <= 1) {
      throw new ApiError("CONFLICT", "The last owner cannot be removed.", {
        hint: "Transfer ownership first, or delete the organization.",
      });
    }
    await tx.delete(schema.member).where(eq(schema.member.id, target.id));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "member.remove",
      target: { type: "member", id: target.id },
      details: { email: target.email, role: target.role },
    });
  });
}

/** The caller leaves the active organization (not as its last owner). */
export async function leave(ctx: AccountContext): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    if (ctx.role === "owner" && (await ownerCount(tx, ctx.organization.id)) <= 1) {
      throw new ApiError("CONFLICT", "The last owner cannot leave the organization.", {
        hint: "Transfer ownership to another member first, or delete the organization.",
      });
    }
    const [mine] = await tx
      .delete(schema.member)
      .where(and(eq(schema.member.organizationId, ctx.organization.id), eq(schema.member.userId, ctx.user.id)))
      .returning({ id: schema.member.id });
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "member.remove",
      target: mine ? { type: "member", id: mine.id } : null,
      details: { email: ctx.user.email, role: ctx.role, left: true },
    });
    await tx
      .update(schema.session)
      .set({ activeOrganizationId: null })
      .where(and(eq(schema.session.userId, ctx.user.id), eq(schema.session.activeOrganizationId, ctx.organization.id)));
  });
}

/** The owner makes another member owner and becomes admin. */
export async function transferOwnership(ctx: AccountContext, memberId: string) {
  const { db } = ctx;
  return db.transaction(async (tx) => {
    const target = await findMember(ctx, memberId, tx);
    if (target.userId === ctx.user.id)
      throw new ApiError("INVALID_REQUEST", "memberId: you already are an owner; name another member.");
    await tx.update(schema.member).set({ role: "owner" }).where(eq(schema.member.id, target.id));
    await tx
      .update(schema.member)
      .set({ role: "admin" })
      .where(and(eq(schema.member.organizationId, ctx.organization.id), eq(schema.member.userId, ctx.user.id)));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "member.role_change",
      target: { type: "member", id: target.id },
      details: { email: target.email, before: target.role, after: "owner", transfer: true },
    });
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "member.role_change",
      target: { type: "user", id: ctx.user.id },
      details: { email: ctx.user.email, before: "owner", after: "admin", transfer: true },
    });
    return memberView({ ...target, role: "owner" }, ctx.role);
  });
}

function invitationView(row: typeof schema.invitation.$inferSelect): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role && isRoleName(row.role) ? row.role : "member",
    status: row.status,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Pending invitations, newest first, a page at a time. */
export async function listInvitations(ctx: AccountContext, page: PageRequest) {
  const { db } = ctx;
  const keys = { createdAt: schema.invitation.createdAt, id: schema.invitation.id };
  const where = and(eq(schema.invitation.organizationId, ctx.organization.id), eq(schema.invitation.status, "pending"));
  return keysetPage(
    db.select().from(schema.invitation).$dynamic(),
    { keys, direction: "desc", where, page },
    invitationView,
  );
}

/**
 * Invites an email address: the invitation, its email (outbox) and the audit row commit together.
 * A pending invitation of the same address is replaced; an existing member is a 409.
 */
export async function invite(ctx: AccountContext, input: z.infer<typeof inviteSchema>, origin: string) {
  const { db } = ctx;
  assertManages(ctx.role, input.role);
  const email = input.email.toLowerCase();
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: schema.member.id })
      .from(schema.member)
      .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
      .where(and(eq(schema.member.organizationId, ctx.organization.id), eq(schema.user.email, email)))
      .limit(1);
    if (existing)
      throw new ApiError("CONFLICT", `${email} is already a member of this organization.`, {
        hint: "Change their role in the member list instead.",
      });
    await tx
      .update(schema.invitation)
      .set({ status: "canceled" })
      .where(
        and(
          eq(schema.invitation.organizationId, ctx.organization.id),
          eq(schema.invitation.email, email),
          eq(schema.invitation.status, "pending"),
        ),
      );
    const [row] = await tx
      .insert(schema.invitation)
      .values({
        id: randomUUID(),
        organizationId: ctx.organization.id,
        email,
        role: input.role,
        status: "pending",
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        inviterId: ctx.user.id,
      })
      .returning();
    if (!row) throw new Error("invitation insert returned nothing");
    await enqueueEmail(tx, {
      to: email,
      organizationId: ctx.organization.id,
      content: invitationEmail({
        url: invitationLink(origin, row.id, email),
        organizationName: ctx.organization.name,
        inviterName: ctx.user.name || ctx.user.email,
        role: input.role,
      }),
    });
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "invitation.create",
      target: { type: "invitation", id: row.id },
      details: { email, role: input.role },
    });
    return invitationView(row);
  });
}

export async function cancelInvitation(ctx: AccountContext, invitationId: string): Promise<void> {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(schema.invitation)
      .where(and(eq(schema.invitation.organizationId, ctx.organization.id), eq(schema.invitation.id, invitationId)))
      .limit(1);
    if (!row) throw notFound("invitation");
    if (row.status !== "pending") throw new ApiError("CONFLICT", `This invitation is already ${row.status}.`);
    if (row.role && isRoleName(row.role)) assertManages(ctx.role, row.role);
    await tx.update(schema.invitation).set({ status: "canceled" }).where(eq(schema.invitation.id, row.id));
    await recordActivity(tx, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: "invitation.cancel",
      target: { type: "invitation", id: row.id },
      details: { email: row.email },
    });
  });
}

/** Switches the session's active organization to one of the user's (404 for any other id). */
export async function switchOrganization(ctx: AccountContext, organizationId: string) {
  const { db } = ctx;
  const [row] = await db
    .select({
      id: schema.organization.id,
      name: schema.organization.name,
      slug: schema.organization.slug,
      role: schema.member.role,
    })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(and(eq(schema.member.userId, ctx.user.id), eq(schema.member.organizationId, organizationId)))
    .limit(1);
  if (!row)
    throw new ApiError("NOT_FOUND", "You are a member of no organization with this id.", {
      hint: "Use an id from GET /api/account/me (organizations).",
    });
  await db.update(schema.session).set({ activeOrganizationId: row.id }).where(eq(schema.session.id, ctx.session.id));
  return row;
}
