import { asc, eq } from "drizzle-orm";
import * as schema from "../db/schema";
import type { AccountContext } from "../auth/guard";
import type { Me } from "../schemas/team";

/** GET /api/account/me: the user, the active organization, the role there, and every membership. */
export async function describeMe(ctx: AccountContext): Promise<Me> {
  const { db } = ctx;
  const organizations = await db
    .select({
      id: schema.organization.id,
      name: schema.organization.name,
      slug: schema.organization.slug,
      role: schema.member.role,
    })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(eq(schema.member.userId, ctx.user.id))
    .orderBy(asc(schema.member.createdAt));
  return {
    user: { id: ctx.user.id, email: ctx.user.email, name: ctx.user.name, twoFactorEnabled: ctx.user.twoFactorEnabled },
    organization: ctx.organization,
    role: ctx.role,
    organizations,
  };
}
