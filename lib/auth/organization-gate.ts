import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Runtime } from "../db/runtime";
import * as schema from "../db/schema";
import { ApiError } from "../errors";
import { recordActivity, type ActivityAction } from "./activity-log";
import { getAuth } from "./index";
import { can, isRoleName, roleRank, type RoleName } from "./roles";

/**
 * Better Auth's own team endpoints (invite-member, cancel-invitation, update-member-role, remove-member)
 * stay open, as docs/spec/account-api.md mounts them, with the spec's team rules added in front: Better Auth lets
 * any role holding the permission manage admins, where the spec keeps admins, owners and the admin role
 * to owners. The rule runs here because Better Auth's hooks for these endpoints are not told who acts.
 * The actor's role is the one in the organization Better Auth will change, found as Better Auth finds it
 * (the invitation's or member's own; else `organizationId || active`), never simply the one the body
 * names: an admin of this team who owns another must not pass as an owner by naming that other team.
 * After a success, the change is written to the activity log (of that organization) like its /api/account twin.
 */

type Body = Record<string, unknown>;
type Actor = { id: string; email: string; role: RoleName; organizationId: string };
type AfterSuccess = (response: Response) => Promise<void>;

const GATED_PATHS = new Set([
  "/organization/invite-member",
  "/organization/cancel-invitation",
  "/organization/update-member-role",
  "/organization/remove-member",
]);

/** May `actor` manage someone whose role is `role` (now, or after the change)? The rule of lib/account/team.ts. */
function assertManages(actor: RoleName, roles: readonly string[]): void {
  if (actor === "owner") return;
  if (roles.some((role) => !isRoleName(role) || roleRank(role) >= roleRank("admin"))) {
    throw new ApiError("FORBIDDEN", "Only an owner can manage admins and owners.");
  }
}

const rolesIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(",").map((r) => r.trim()) : [];
const stringIn = (body: Body, key: string): string | null => (typeof body[key] === "string" ? body[key] : null);

/**
 * The organization Better Auth changes when the target names none of its own (a new invitation, a
 * member named by email): `organizationId || the active organization`, read exactly as Better Auth reads
 * it, so an empty `organizationId` is the active organization here too.
 */
function namedOrganization(body: Body, session: { activeOrganizationId?: string | null }): string | null {
  return stringIn(body, "organizationId") || session.activeOrganizationId || null;
}

/** Who acts in `organizationId`, with which role; null (no session, not a member) lets Better Auth answer. */
async function actorIn(
  db: Db,
  user: { id: string; email: string },
  organizationId: string | null,
): Promise<Actor | null> {
  if (!organizationId) return null;
  const [row] = await db
    .select({ role: schema.member.role })
    .from(schema.member)
    .where(and(eq(schema.member.userId, user.id), eq(schema.member.organizationId, organizationId)))
    .limit(1);
  if (!row || !isRoleName(row.role)) return null;
  return { id: user.id, email: user.email, role: row.role, organizationId };
}

type Target = { organizationId: string; role: string | null };

/** A member by id, in whichever organization it is (Better Auth finds it so, then compares). */
async function memberById(db: Db, memberId: string): Promise<Target | null> {
  const [row] = await db
    .select({ organizationId: schema.member.organizationId, role: schema.member.role })
    .from(schema.member)
    .where(eq(schema.member.id, memberId))
    .limit(1);
  return row ?? null;
}

async function memberByEmail(db: Db, organizationId: string, email: string): Promise<Target | null> {
  const [row] = await db
    .select({ organizationId: schema.member.organizationId, role: schema.member.role })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(and(eq(schema.member.organizationId, organizationId), eq(schema.user.email, email.toLowerCase())))
    .limit(1);
  return row ?? null;
}

/** An invitation by id: Better Auth cancels it in its own organization, whatever the body names. */
async function invitationById(db: Db, invitationId: string): Promise<Target | null> {
  const [row] = await db
    .select({ organizationId: schema.invitation.organizationId, role: schema.invitation.role })
    .from(schema.invitation)
    .where(eq(schema.invitation.id, invitationId))
    .limit(1);
  return row ?? null;
}

/** The target of a gated request: what Better Auth will change, found the way Better Auth finds it. */
async function targetOf(db: Db, path: string, body: Body, named: string | null): Promise<Target | null> {
  switch (path) {
    case "/organization/cancel-invitation": {
      const invitationId = stringIn(body, "invitationId");
      return invitationId ? invitationById(db, invitationId) : null;
    }
    case "/organization/update-member-role": {
      const memberId = stringIn(body, "memberId");
      return memberId ? memberById(db, memberId) : null;
    }
    case "/organization/remove-member": {
      const target = stringIn(body, "memberIdOrEmail");
      if (!target) return null;
      if (target.includes("@")) return named ? memberByEmail(db, named, target) : null;
      return memberById(db, target);
    }
    default:
      return null;
  }
}

async function json(response: Response): Promise<Body> {
  try {
    const parsed: unknown = await response.clone().json();
    return typeof parsed === "object" && parsed !== null ? (parsed as Body) : {};
  } catch {
    return {};
  }
}

/**
 * Applies the team rules to a Better Auth team request (403 FORBIDDEN when the role may not do it) and
 * returns what to do after Better Auth succeeded (the audit row), or null for any other path. `parsedBody` is
 * the request body parsed once by the caller (undefined when it is not JSON). Requests
 * Better Auth itself will refuse (no session, unknown ids, no permission) pass through to its answer.
 */
export async function gateOrganizationRequest(
  runtime: Runtime,
  path: string,
  request: Request,
  parsedBody: unknown,
): Promise<AfterSuccess | null> {
  const { db } = runtime;
  // A body that is not JSON (undefined) is Better Auth's to refuse.
  if (!GATED_PATHS.has(path) || parsedBody === undefined) return null;
  const body: Body = typeof parsedBody === "object" && parsedBody !== null ? (parsedBody as Body) : {};
  const found = await getAuth(request).api.getSession({ headers: request.headers });
  if (!found) return null;
  const named = namedOrganization(body, found.session);
  // The actor is judged where the change happens: the target's own organization, not one the body names
  // (an admin there may own another team; naming it must not make them an owner here).
  const target = await targetOf(db, path, body, named);
  const actor = await actorIn(db, found.user, target?.organizationId ?? named);
  if (!actor) return null;
  const audit = (
    action: ActivityAction,
    auditTarget: { type: string; id: string } | undefined,
    details: Record<string, unknown>,
  ) =>
    recordActivity(db, {
      organizationId: actor.organizationId,
      actor: { id: actor.id, email: actor.email },
      action,
      target: auditTarget,
      details,
    });

  switch (path) {
    case "/organization/invite-member": {
      const roles = rolesIn(body.role ?? "member");
      assertManages(actor.role, roles);
      return async (response) => {
        const invitation = await json(response);
        await audit(
          "invitation.create",
          { type: "invitation", id: String(invitation.id) },
          { email: invitation.email, role: invitation.role },
        );
      };
    }
    case "/organization/cancel-invitation": {
      const invitationId = stringIn(body, "invitationId");
      if (target?.role) assertManages(actor.role, rolesIn(target.role));
      return async (response) => {
        const invitation = await json(response);
        await audit(
          "invitation.cancel",
          { type: "invitation", id: String(invitation.id ?? invitationId) },
          { email: invitation.email },
        );
      };
    }
    case "/organization/update-member-role": {
      const memberId = stringIn(body, "memberId");
      const before = target?.role ?? null;
      if (before) assertManages(actor.role, [...rolesIn(before), ...rolesIn(body.role)]);
      return async (response) => {
        const member = await json(response);
        await audit(
          "member.role_change",
          { type: "member", id: String(member.id ?? memberId) },
          { before, after: member.role },
        );
      };
    }
    default: {
      // remove-member: anyone may remove themselves (Better Auth keeps the last owner); others by the rule.
      const removed = stringIn(body, "memberIdOrEmail");
      const role = target?.role ?? null;
      const self =
        removed !== null &&
        (removed.toLowerCase() === actor.email.toLowerCase() || (await isOwnMembership(db, actor, removed)));
      // Better Auth refuses a member or viewer with 401, which reads as "signed out": the spec's 403.
      if (!self && !can(actor.role, { member: ["delete"] }))
        throw new ApiError("FORBIDDEN", "Your role cannot remove members.");
      if (role && !self) assertManages(actor.role, rolesIn(role));
      return async (response) => {
        const member = (await json(response)).member as Body | undefined;
        await audit(
          "member.remove",
          { type: "member", id: String(member?.id ?? removed) },
          { role: member?.role ?? role },
        );
      };
    }
  }
}

async function isOwnMembership(db: Db, actor: Actor, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.member.id })
    .from(schema.member)
    .where(and(eq(schema.member.id, memberId), eq(schema.member.userId, actor.id)))
    .limit(1);
  return row !== undefined;
}
