import { eq } from "drizzle-orm";
import { ApiError } from "../errors";
import type { AccountContext } from "../auth/guard";
import { recordActivity } from "../auth/activity-log";
import * as schema from "../db/schema";
import type { OrganizationSettings } from "../schemas/team";

/**
 * PATCH /api/account/organization: what the owner asks of every member's sign-in. Requiring two-factor
 * sign-in takes the owner's own factor first (docs/spec/account-api.md "Two-factor sign-in"): an owner
 * without it would be the first member the guard refuses. Stopping it is always allowed. A change and its
 * activity-log row commit together; asking for what already holds changes nothing and logs nothing.
 */
export async function updateOrganization(
  ctx: AccountContext,
  patch: { requireTwoFactor: boolean },
): Promise<OrganizationSettings> {
  if (patch.requireTwoFactor && !ctx.user.twoFactorEnabled) {
    throw new ApiError("CONFLICT", "Turn on your own two-factor sign-in before requiring it of the team.", {
      hint: "Enrol in Settings → Security (/app/settings#security), then require it.",
    });
  }
  const { id, name, slug } = ctx.organization;
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ requireTwoFactor: schema.organization.requireTwoFactor })
      .from(schema.organization)
      .where(eq(schema.organization.id, id))
      .for("update");
    if (!before || before.requireTwoFactor === patch.requireTwoFactor) return;
    await tx
      .update(schema.organization)
      .set({ requireTwoFactor: patch.requireTwoFactor })
      .where(eq(schema.organization.id, id));
    await recordActivity(tx, {
      organizationId: id,
      actor: ctx.user,
      action: "organization.update",
      target: { type: "organization", id },
      details: { requireTwoFactor: { before: before.requireTwoFactor, after: patch.requireTwoFactor } },
    });
  });
  return { id, name, slug, requireTwoFactor: patch.requireTwoFactor };
}
