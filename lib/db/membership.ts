import { and, eq } from "drizzle-orm";
import type { Db } from "./client";
import * as schema from "./schema";

/** Whether `userId` is a member of `organizationId`, with its role. */
export async function membershipOf(db: Db, userId: string, organizationId: string) {
  const [row] = await db
    .select({ id: schema.member.id, role: schema.member.role })
    .from(schema.member)
    .where(and(eq(schema.member.userId, userId), eq(schema.member.organizationId, organizationId)))
    .limit(1);
  return row ?? null;
}
